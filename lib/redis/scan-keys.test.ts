import { describe, expect, it } from 'vitest';
import { patternUnder, scanStep } from './scan-keys';
import { testQueueFactory } from '../layouts/staticphp/test-redis';

const openQueue = testQueueFactory();

describe('scanStep', () => {
  it('walks every key under the prefix in steps of several SCAN commands, and says when the walk is complete', async () => {
    const queue = await openQueue();
    const written = Array.from({ length: 700 }, (_, n) => `${queue.keys.prefix}k:${n}`);
    await written.reduce((pipeline, key) => pipeline.set(key, '1'), queue.redis.pipeline()).exec();

    const node = queue.nodeHoldingKeys();
    const seen = new Set<string>();
    let cursor = '0';
    let steps = 0;
    do {
      const step = await scanStep(node, cursor, patternUnder(queue.keys.prefix), 1000);
      for (const key of step.found) seen.add(key);
      cursor = step.cursor;
      steps += 1;
    } while (cursor !== '0' && steps < 100_000);
    expect(cursor).toBe('0');
    expect([...seen].sort()).toEqual([...written].sort());
  });
});
