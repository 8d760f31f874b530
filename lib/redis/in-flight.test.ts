import { describe, expect, it } from 'vitest';
import { inFlight } from './in-flight';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('inFlight', () => {
  it('answers in index order, never more than the limit running at once', async () => {
    let running = 0;
    let most = 0;
    const results = await inFlight(20, 4, async (index) => {
      most = Math.max(most, ++running);
      // Later indexes finish first, so an answer in finishing order would be out of order.
      for (let i = 0; i < 20 - index; i++) await tick();
      running--;
      return index * 10;
    });
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index * 10));
    expect(most).toBe(4);
  });

  it('starts nothing more once one failed, and throws that failure', async () => {
    const started: number[] = [];
    await expect(
      inFlight(50, 3, async (index) => {
        started.push(index);
        await tick();
        if (index === 4) throw new Error('gone');
      }),
    ).rejects.toThrow('gone');
    for (let i = 0; i < 10; i++) await tick();
    expect(Math.max(...started)).toBeLessThan(8);
  });

  it('runs nothing for no items', async () => {
    expect(await inFlight(0, 5, () => Promise.reject(new Error('called')))).toEqual([]);
  });
});
