import type { RedisQueue } from '../../queue/redis-queue';
import type { QueueLayout } from '../adapter';

/**
 * StaticPHP's QueueRedis: QueueLens's own wire-compatible driver does all of
 * it, so every capability is the driver itself.
 */
export function staticphpLayout(queue: RedisQueue): QueueLayout {
  return {
    name: 'staticphp',
    description: `StaticPHP QueueRedis, prefix ${queue.keys.prefix}`,
    async counts() {
      const [queues, failed] = await Promise.all([queue.stats(), queue.failedCount()]);
      return { queues, failed };
    },
    failedJobs: queue,
    runner: queue,
    doctor: queue,
    close: () => queue.close(),
  };
}
