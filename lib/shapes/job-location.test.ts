import { describe, expect, it } from 'vitest';
import { furthestPlaceFirst, parseSeenPlace, seenPlaceParam, type SeenPlace } from './job-location';

describe('furthestPlaceFirst', () => {
  it('puts the jobs seen in a list furthest from the end their place counts from first, and the rest after them as they were', () => {
    const seen = (id: string, near?: SeenPlace) => ({ id, near });
    const order = furthestPlaceFirst([
      seen('tail 3', { from: 'tail', at: 3 }),
      seen('set', { from: 'score', at: 1_700_000_000 }),
      seen('tail 150', { from: 'tail', at: 150 }),
      seen('nowhere'),
      seen('head 40', { from: 'head', at: 40 }),
    ]);
    expect(order.map((item) => item.id)).toEqual(['tail 150', 'head 40', 'tail 3', 'set', 'nowhere']);
  });

  it('counts a place seen from the head from the tail, where its list’s length is known', () => {
    const order = furthestPlaceFirst([
      { id: 'tail 100', near: { from: 'tail', at: 100 } },
      { id: 'head 0 of 50', near: { from: 'head', at: 0, length: 50 } },
      { id: 'head 10 of 1,000', near: { from: 'head', at: 10, length: 1_000 } },
    ] as const);
    expect(order.map((item) => item.id)).toEqual(['head 10 of 1,000', 'tail 100', 'head 0 of 50']);
  });
});

describe('a seen place as a URL parameter', () => {
  it('reads back what it wrote, with a list’s length where it was known, and nothing else', () => {
    const places: SeenPlace[] = [
      { from: 'tail', at: 10, length: 2_011 },
      { from: 'head', at: 0, length: 1 },
      { from: 'tail', at: 3 },
      { from: 'score', at: -1_700_000_000 },
    ];
    for (const place of places) expect(parseSeenPlace(seenPlaceParam(place))).toEqual(place);
    expect(seenPlaceParam({ from: 'tail', at: 10, length: 2_011 })).toBe('t10of2011');
    for (const text of ['s5of9', 't-1', 'tof9', 't5of', 'x5', 't1234567890123456', undefined]) expect(parseSeenPlace(text)).toBeUndefined();
  });
});
