import { describe, expect, it } from 'vitest';
import { moveDueOutcome } from './delayed-outcomes';

const LEVELS = { one: 'its level', many: 'their levels' };
const LINE = { one: 'the line', many: 'the line' };

describe('moveDueOutcome', () => {
  it('counts what was moved and what was gone, in the layout’s words, and says when there was nothing left', () => {
    const run = { queue: 'mail', into: LEVELS, gone: 0, cancelled: false };
    expect(moveDueOutcome({ ...run, moved: 120 })).toEqual({
      tone: 'success',
      message: 'Moved 120 jobs into their levels. The due jobs of mail are in their levels, where its driver would have put them.',
    });
    expect(moveDueOutcome({ ...run, moved: 1, gone: 1 }).message).toMatch(
      /^Moved 1 job into its level; 1 job already deleted was removed from the delayed jobs\./,
    );
    expect(moveDueOutcome({ ...run, into: LINE, moved: 3 }).message).toContain('The due jobs of mail are in the line');
    expect(moveDueOutcome({ ...run, moved: 0 }).tone).toBe('error');
    expect(moveDueOutcome({ ...run, moved: 50, cancelled: true }).message).toBe('Stopped after moving 50 jobs in');
    expect(moveDueOutcome({ ...run, moved: 50, error: 'Redis went away' })).toEqual({ tone: 'error', message: 'Moved 50 jobs in, then: Redis went away' });
  });
});
