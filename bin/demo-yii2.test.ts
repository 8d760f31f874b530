import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { yii2Layout } from '../lib/layouts/yii2/layout';
import { yii2Settings } from '../lib/layouts/yii2/test-fixtures';
import { deleteKeysUnder } from '../lib/redis/scan-keys';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { seedDemoYii2Channel } from './demo-yii2';

const openQueue = testQueueFactory();

describe('the demo’s redis-ng channel', () => {
  it('is seeded once, with ng’s counts: five in line, two delayed, one reservation run out', async () => {
    const queue = await openQueue();
    const channel = `test-${randomUUID()}`;
    try {
      expect(await seedDemoYii2Channel(queue.redis, channel)).toBe(true);
      expect(await seedDemoYii2Channel(queue.redis, channel)).toBe(false);
      const [row] = (await yii2Layout(queue, yii2Settings('yii2-ng', [channel])).counts()).queues;
      expect(row).toMatchObject({ pending: 5, delayed: 2, reserved: 1, expiredReserved: 1, statistics: { waiting: 5, delayed: 2, reserved: 1, done: 0 } });
      // The line runs by priority band, then by the order of joining: both invoices first.
      expect(await queue.redis.zrange(`${channel}.prioritized`, '0', '-1')).toEqual(['1', '2', '3', '4', '5']);
      expect(await queue.redis.hget(`${channel}.messages`, '1')).toBe('300;O:23:"app\\jobs\\SendInvoiceJob":1:{s:7:"invoice";s:8:"INV-1041";}');
    } finally {
      await deleteKeysUnder(queue.redis, `${channel}.`);
    }
  });
});
