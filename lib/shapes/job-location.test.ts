import { describe, expect, it } from 'vitest';
import { furthestPlaceFirst, type SeenPlace } from './job-location';

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
});
