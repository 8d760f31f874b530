import { describe, expect, it } from 'vitest';
import { forgetOutcome, parseMaxAttempts, retryOutcome } from './job-actions';

describe('parseMaxAttempts', () => {
  it('reads empty as "keep the job\'s own" and a whole number from 1 to 1000 as itself', () => {
    expect(parseMaxAttempts('')).toEqual({ ok: true, value: undefined });
    expect(parseMaxAttempts('  ')).toEqual({ ok: true, value: undefined });
    expect(parseMaxAttempts(' 5 ')).toEqual({ ok: true, value: 5 });
    expect(parseMaxAttempts('1000')).toEqual({ ok: true, value: 1000 });
  });

  it('refuses anything else with a reason', () => {
    for (const text of ['0', '1001', '-1', '2.5', '1e2', 'three']) {
      expect(parseMaxAttempts(text)).toEqual({ ok: false, error: expect.stringContaining('whole number from 1 to 1000') });
    }
  });
});

describe('outcomes', () => {
  it('reports a retry by what happened to the job', () => {
    expect(retryOutcome('5', { requeued: ['5'], notFailed: [], missing: [], refused: [] })).toEqual({ tone: 'success', message: 'Retried job 5' });
    expect(retryOutcome('5', { requeued: [], notFailed: ['5'], missing: [], refused: [] })).toEqual({ tone: 'error', message: 'Job 5 was no longer failed' });
    expect(retryOutcome('5', { requeued: [], notFailed: [], missing: ['5'], refused: [] }).message).toMatch(/^Job 5 is gone/);
    expect(retryOutcome('5', { requeued: [], notFailed: [], missing: [], refused: [{ id: '5', why: 'its record names no queue' }] })).toEqual({
      tone: 'error',
      message: 'Job 5 was not retried: its record names no queue',
    });
  });

  it('reports a forget', () => {
    expect(forgetOutcome(5, { forgotten: 1 })).toEqual({ tone: 'success', message: 'Forgot job 5' });
    expect(forgetOutcome(5, { forgotten: 0 })).toEqual({ tone: 'error', message: 'Job 5 was no longer failed' });
  });
});
