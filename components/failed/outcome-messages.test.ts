import { describe, expect, it } from 'vitest';
import { describeForget, describeRetry, describeStop } from './outcome-messages';

describe('outcome messages', () => {
  it('says what a retry did, and what it skipped', () => {
    expect(describeRetry(3, 1, 0)).toBe('Retried 3 jobs, 1 was no longer failed');
    expect(describeRetry(1, 0, 0)).toBe('Retried 1 job');
    expect(describeRetry(0, 2, 1)).toBe('Retried 0 jobs, 2 were no longer failed, 1 was gone and left the failed list');
    expect(describeRetry(12345, 0, 0)).toBe('Retried 12,345 jobs');
    expect(describeRetry(1, 0, 0, ['its retry 7f has not run yet', 'its record names no queue'])).toBe(
      'Retried 1 job, 2 not retried (its retry 7f has not run yet, …)',
    );
  });

  it('says what a forget did', () => {
    expect(describeForget(2, 0)).toBe('Forgot 2 jobs');
    expect(describeForget(0, 1)).toBe('Forgot 0 jobs, 1 was no longer failed');
    expect(describeStop('retrying', 400, 1000)).toBe('Stopped after retrying 400 of 1,000 jobs');
  });
});
