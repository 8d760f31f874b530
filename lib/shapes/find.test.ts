import { describe, expect, it } from 'vitest';
import { describeRangeScope, findTimeText, parseFindTime, rangeScope, unseenMatches, type FindMatch } from './find';

describe('a Find time range', () => {
  it('reads a UTC minute or second as Unix ms and writes it back the same; refuses any other spelling and a date that does not exist', () => {
    expect(parseFindTime('2026-12-05T12:00Z')).toBe(Date.UTC(2026, 11, 5, 12, 0));
    expect(parseFindTime('2026-12-05T12:00:00Z')).toBe(Date.UTC(2026, 11, 5, 12, 0));
    expect(parseFindTime('2026-12-05T12:00:30Z')).toBe(Date.UTC(2026, 11, 5, 12, 0, 30));
    expect(findTimeText(Date.UTC(2026, 11, 5, 12, 0))).toBe('2026-12-05T12:00Z');
    expect(findTimeText(Date.UTC(2026, 11, 5, 12, 0, 30))).toBe('2026-12-05T12:00:30Z');
    for (const text of ['2026-12-05T12:00', '2026-12-05 12:00Z', '2026-02-30T12:00Z', '2026-12-05T24:30Z', '1969-12-31T23:59Z', '1796472000'])
      expect(parseFindTime(text)).toBeNull();
  });

  it('names the states it applies to with their times and the states it leaves out, as they record none', () => {
    const times = { delayed: 'when it is due', failed: 'when it failed' };
    const range = { from: 0, until: null };
    const scope = rangeScope({ states: [], range }, ['ready', 'delayed', 'reserved', 'failed'], times);
    expect(scope).toEqual({
      applies: [
        { state: 'delayed', time: 'when it is due' },
        { state: 'failed', time: 'when it failed' },
      ],
      leftOut: ['ready', 'reserved'],
    });
    expect(describeRangeScope(scope)).toBe(
      'The time range applies to delayed (when it is due), failed (when it failed). ready and reserved record no time on this layout and are left out of a ranged search.',
    );
    expect(rangeScope({ states: ['ready'], range: { from: null, until: null } }, ['ready'], times)).toEqual({ applies: [], leftOut: [] });
    expect(describeRangeScope(rangeScope({ states: ['ready'], range }, ['ready'], times))).toBe(
      'No state this search looks in records a time: it finds nothing. ready records no time on this layout and is left out of a ranged search.',
    );
  });
});

describe('the matches a step adds', () => {
  const match = (queue: string, state: FindMatch['state'], id: string): FindMatch => ({
    id,
    queue,
    state,
    name: 'Ship',
    field: 'payload',
    snippet: { before: '', match: 'order', after: '' },
  });

  it('leaves out a job an earlier step listed, in its queue and state, and never one that names no id', () => {
    const seen = new Set<string>();
    expect(unseenMatches(seen, [match('a', 'ready', '1'), match('a', 'ready', '2'), match('a', 'ready', '')])).toHaveLength(3);
    const next = [match('a', 'ready', '2'), match('b', 'ready', '2'), match('a', 'delayed', '2'), match('a', 'ready', ''), match('a', 'ready', '3')];
    expect(unseenMatches(seen, next)).toEqual(next.slice(1));
  });
});
