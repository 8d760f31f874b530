import { describe, expect, it } from 'vitest';
import { describeLocation } from './describe-location';

// 2026-08-02 12:00:00 UTC
const NOW = Date.UTC(2026, 7, 2, 12) / 1000;

describe('describeLocation', () => {
  it('names the holder of a claim and when it runs out', () => {
    const words = describeLocation(
      { state: 'reserved', level: '0', entry: '1-0', reservedBy: 'web-1:4242', reservedUntil: NOW + 3, overdue: false, deliveries: 2, idleMs: 25_000 },
      NOW - 22,
    );
    expect(words).toMatchObject({ kind: 'reserved', headline: 'Reserved by web-1:4242 until 12:00:03 UTC (in 25 s)' });
    expect(words.detail).toContain('Handed out 2 times, last 25 s ago.');
  });

  it('says a claim that ran out waits for the next reserve', () => {
    const location = {
      state: 'reserved',
      level: '0',
      entry: '1-0',
      reservedBy: 'web-1:4242',
      reservedUntil: NOW - 180,
      overdue: true,
      deliveries: 1,
      idleMs: 200_000,
    } as const;
    expect(describeLocation(location, NOW)).toMatchObject({
      kind: 'overdue',
      headline: 'Held by web-1:4242, claim ran out at 11:57:00 UTC (3 min ago)',
    });
    expect(describeLocation(location, NOW).detail).toMatch(/^Handed out once, .* the next worker that takes a job from this queue takes it back/);
    expect(describeLocation({ ...location, reservedUntil: NOW }, NOW).headline).toBe('Held by web-1:4242, claim ran out at 12:00:00 UTC (just now)');
    expect(describeLocation({ ...location, reservedUntil: 0, reservedBy: '' }, NOW).headline).toBe('Held by an unnamed worker, its claim has no deadline');
  });

  it('tells a delayed job from a due one and from a parked one', () => {
    expect(describeLocation({ state: 'delayed', until: NOW + 90_000, parked: false }, NOW).headline).toBe('Delayed until 2026-08-03 13:00:00 UTC (in 1 d 1 h)');
    expect(describeLocation({ state: 'delayed', until: NOW - 5, parked: false }, NOW)).toMatchObject({
      kind: 'due',
      headline: 'Due since 11:59:55 UTC (5 s ago), waiting for a worker to move it into its level',
    });
    expect(describeLocation({ state: 'delayed', until: NOW + 25, parked: true }, NOW)).toMatchObject({
      kind: 'parked',
      headline: "Parked until 12:00:25 UTC, in 25 s (a worker tried to take it back before the holder's deadline)",
    });
  });

  it('says when a job failed, where a ready one waits, and what a stray one is', () => {
    expect(describeLocation({ state: 'failed', failedAt: NOW - 7_200 }, NOW).headline).toBe('Failed at 10:00:00 UTC (2 h ago)');
    expect(describeLocation({ state: 'ready', level: '-5', entry: '1785649677469-0' }, NOW)).toMatchObject({
      kind: 'ready',
      headline: 'Ready at priority -5: waiting for a worker',
      detail: expect.stringContaining('entry 1785649677469-0'),
    });
    expect(describeLocation({ state: 'stray' }, NOW).headline).toBe('Stray: in no level, not delayed and not failed');
  });
});
