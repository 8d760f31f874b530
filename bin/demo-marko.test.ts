import { describe, expect, it } from 'vitest';
import { markoLayout } from '../lib/layouts/marko/layout';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { seedDemoMarkoQueue } from './demo-marko';

const openQueue = testQueueFactory();

describe('the demo’s marko queue', () => {
  it('is seeded once: three ready, two delayed, one reservation whose worker went away, one failed job', async () => {
    const queue = await openQueue();
    const prefix = `${queue.keys.prefix}marko:`;
    expect(await seedDemoMarkoQueue(queue.redis, prefix)).toBe(true);
    expect(await seedDemoMarkoQueue(queue.redis, prefix)).toBe(false);
    const counts = await markoLayout(queue, { prefix, retryAfter: 90, queues: null }).counts();
    expect(counts.failed).toBe(1);
    expect(counts.queues).toEqual([expect.objectContaining({ queue: 'mail', pending: 3, delayed: 2, reserved: 1, total: 6 })]);
  });
});
