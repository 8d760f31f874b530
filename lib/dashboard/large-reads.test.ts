import { describe, expect, it } from 'vitest';
import { DEFAULT_LARGE_READ_LIMITS, largeReadLimitsFromEnv, LargeReadSlots } from './large-reads';

describe('LargeReadSlots', () => {
  it('gives each holder its share and the process its whole, and takes a place back once however often it is released', () => {
    const slots = new LargeReadSlots({ perSession: 2, perProcess: 3 });
    const first = slots.take('a');
    const second = slots.take('a');
    expect(slots.take('a')).toEqual({ refused: 'session' });
    const third = slots.take('b');
    expect(slots.take('c')).toEqual({ refused: 'process' });
    expect(slots.size).toBe(3);
    if (!('release' in first) || !('release' in second) || !('release' in third)) throw new Error('a place was refused under the limits');
    first.release();
    first.release();
    expect(slots.size).toBe(2);
    expect(slots.take('a')).toHaveProperty('release');
    expect(slots.take('c')).toEqual({ refused: 'process' });
    second.release();
    third.release();
    expect(slots.take('c')).toHaveProperty('release');
    expect(slots.refusal('session')).toMatch(/you already have 2 under way/);
    expect(slots.refusal('process')).toMatch(/the server already has 3 under way/);
  });
});

describe('largeReadLimitsFromEnv', () => {
  it('takes whole numbers of 1 or more, the defaults when unset or empty, and names the variable of anything else', () => {
    expect(largeReadLimitsFromEnv({})).toEqual(DEFAULT_LARGE_READ_LIMITS);
    expect(DEFAULT_LARGE_READ_LIMITS).toEqual({ perSession: 2, perProcess: 4 });
    expect(largeReadLimitsFromEnv({ QUEUELENS_LARGE_READS_PER_SESSION: ' 1 ', QUEUELENS_LARGE_READS_PER_PROCESS: '' })).toEqual({
      perSession: 1,
      perProcess: 4,
    });
    expect(largeReadLimitsFromEnv({ QUEUELENS_LARGE_READS_PER_PROCESS: '16' })).toEqual({ perSession: 2, perProcess: 16 });
    for (const wrong of ['0', '-1', '1.5', 'two', '1e3']) {
      expect(() => largeReadLimitsFromEnv({ QUEUELENS_LARGE_READS_PER_PROCESS: wrong })).toThrow(
        /^QUEUELENS_LARGE_READS_PER_PROCESS: a whole number of reads, 1 or more/,
      );
    }
  });
});
