import { QueueError } from '../../redis/errors';
import { readQueueDetail } from './queue-detail';
import { beyondExactIdNote } from '../../shapes/job-ids';
import type { RedisQueue } from './redis-queue';
import { PAGE_ROWS, type JobLineReader } from '../pages';

/** Latest failed jobs the queue page lists: the newest few, enough to see what is failing. */
const FAILED_ROWS = 20;

/** Throws notFound for a queue the driver never registered (queue:queues) and that holds nothing: a made-up name. */
async function assertQueueRegistered(queue: RedisQueue, name: string): Promise<void> {
  if (await queue.attempt(() => queue.redis.sismember(queue.keys.queues, name))) return;
  throw new QueueError(`No queue "${name.slice(0, 200)}" on this connection: the driver has registered no queue of that name (queue:queues).`, {
    notFound: true,
  });
}

/**
 * StaticPHP's queue page in the layout-neutral shape: its line is every
 * priority level's undelivered entries, highest level first, then oldest
 * first (the order a reserve hands them out), one section; its counts, its
 * levels and its latest failed jobs ride along, since a StaticPHP line is
 * not all a queue holds.
 */
export function staticphpJobLine(queue: RedisQueue): JobLineReader {
  return {
    async read(name, { page }) {
      const offset = (page - 1) * PAGE_ROWS;
      const line = await readQueueDetail(queue, name, { limit: PAGE_ROWS, offset, failedLimit: FAILED_ROWS });
      if (line.levelCount === 0 && line.counts.total === 0) await assertQueueRegistered(queue, name);
      return {
        queue: name,
        now: line.now,
        sections: [
          {
            title: 'Next jobs to run',
            description: 'Not handed to a worker yet, in the order workers take them: highest level first, then oldest first.',
            total: line.waiting,
            offset,
            rows: line.nextJobs.map((job, index) => ({
              place: offset + index + 1,
              id: String(job.id),
              name: job.name,
              attempts: job.attempts,
              priority: Number(job.level),
              note: job.name === null ? 'its job hash is gone: a worker only drops the entry' : null,
              enqueuedAt: job.enqueuedAt,
              ...(typeof job.id === 'string' && { idNote: beyondExactIdNote(job.id) }),
            })),
          },
        ],
        counts: line.counts,
        levels: { rows: line.levels, total: line.levelCount },
        latestFailed: { rows: line.failed, scanLimit: line.failedScanLimit },
        idsOfConnection: true,
        delayedGlance: true,
      };
    },
  };
}
