import { describeProgress, runDoctor } from '../../inspect/doctor';
import { applyRepairs } from '../../queue/doctor-repairs';
import type { Finding } from '../../inspect/doctor-kinds';
import type { RedisQueue } from '../../queue/redis-queue';
import type { LayoutDoctor, QueueLayout } from '../adapter';

/**
 * StaticPHP's QueueRedis: QueueLens's own wire-compatible driver does all of
 * it, so every capability is the driver itself (its doctor as the layout
 * interface's check and repair).
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
    doctor: staticphpDoctor(queue),
    close: () => queue.close(),
  };
}

/** The driver's own doctor (lib/inspect/doctor.ts) and repairs, as the layout interface asks for them. */
function staticphpDoctor(queue: RedisQueue): LayoutDoctor<Finding> {
  return {
    check: (onProgress) => runDoctor(queue, onProgress && ((state) => onProgress(describeProgress(state)))),
    repair: (repairs) => applyRepairs(queue, repairs),
  };
}
