import { describe, expect, it } from 'vitest';
import { promoteOutcome, runNowOutcome } from './delayed-outcomes';

describe('promoteOutcome', () => {
  it('counts what was promoted and what was gone, and says when there was nothing left', () => {
    expect(promoteOutcome({ promoted: 120, vanished: 0, cancelled: false })).toEqual({ tone: 'success', message: 'Moved 120 jobs into their levels' });
    expect(promoteOutcome({ promoted: 1, vanished: 1, cancelled: false }).message).toBe(
      'Moved 1 job into its level; 1 job already deleted was removed from the delayed jobs',
    );
    expect(promoteOutcome({ promoted: 0, vanished: 0, cancelled: false }).tone).toBe('error');
    expect(promoteOutcome({ promoted: 50, vanished: 0, cancelled: true }).message).toBe('Stopped after moving 50 jobs in');
    expect(promoteOutcome({ promoted: 50, vanished: 0, cancelled: false, error: 'Redis went away' })).toEqual({
      tone: 'error',
      message: 'Moved 50 jobs in, then: Redis went away',
    });
  });
});

describe('runNowOutcome', () => {
  it('tells a job that ran now from one a worker promoted first, and from one whose holder still holds it', () => {
    expect(runNowOutcome(7, { outcome: 'promoted', level: '-5' })).toEqual({ tone: 'success', message: 'Job 7 is ready: it joined level -5' });
    expect(runNowOutcome(7, { outcome: 'not-delayed' }).tone).toBe('error');
    expect(runNowOutcome(7, { outcome: 'gone' }).message).toContain('removed from the delayed jobs');
    expect(runNowOutcome(16, { outcome: 'held', holder: 'slowhost:1', until: Date.UTC(2026, 11, 1, 12, 5, 0) / 1000 })).toEqual({
      tone: 'error',
      message: 'Job 16 stays parked: slowhost:1 holds its claim until 12:05:00 UTC, and running it now would run it a second time beside that worker. It runs once the claim ends.',
    });
  });
});
