import { describe, expect, it } from 'vitest';
import { describeCrossing, describeQueuesOver } from './describe-crossing';

describe('describeCrossing', () => {
  it('gives a wait and its limit as durations, and a backlog and its limit as counts', () => {
    expect(describeCrossing({ threshold: 'waitSeconds', value: 185.6, limit: 60 })).toBe('wait 3 min 5 s over 1 min');
    expect(describeCrossing({ threshold: 'waitSeconds', value: 7_260, limit: 3_600 })).toBe('wait 2 h 1 min over 1 h');
    expect(describeCrossing({ threshold: 'backlog', value: 12_345, limit: 1_000 })).toBe('backlog 12,345 over 1,000');
  });
});

describe('describeQueuesOver', () => {
  it('counts the queues in words that agree with the count', () => {
    expect(describeQueuesOver(1)).toBe('1 queue over its alert thresholds');
    expect(describeQueuesOver(2)).toBe('2 queues over their alert thresholds');
    expect(describeQueuesOver(1_500)).toBe('1,500 queues over their alert thresholds');
  });
});
