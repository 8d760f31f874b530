import type { RedisQueue } from '../../queue/redis-queue';
import { describeProgress, runDoctor } from '../../inspect/doctor';
import { applyRepairs } from '../../queue/doctor-repairs';
import type { QueueLayout } from '../adapter';
import { layoutDoctor } from '../layout-doctor';

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
    doctor: layoutDoctor(
      (onProgress) => runDoctor(queue, onProgress && ((state) => onProgress(describeProgress(state)))),
      (repairs) => applyRepairs(queue, repairs),
    ),
    close: () => queue.close(),
  };
}
