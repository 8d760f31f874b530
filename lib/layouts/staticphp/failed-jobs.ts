import { QueueError } from '../../redis/errors';
import type { RequeueOutcome, RetryOutcome } from '../../shapes/failed-jobs';
import { JOB_HASH_RETRY } from '../../shapes/job-hash';
import type { RetriedFailedJobs } from '../adapter';
import type { RedisQueue } from './redis-queue';

/**
 * StaticPHP's failed ids are its jobs' whole-number ids: anything else names
 * no job of this connection, and is refused before it reaches Redis (the
 * driver refuses a number past 2^53 itself).
 */
function wholeNumberIds(ids: readonly string[]): number[] {
  return ids.map((id) => {
    const value = Number(id);
    if (!/^[1-9]\d*$/.test(id) || !Number.isSafeInteger(value))
      throw new QueueError(`"${id.slice(0, 40)}" is no job id of this connection: its ids are whole numbers`, { invalidRequest: true });
    return value;
  });
}

function asText(outcome: RequeueOutcome): RetryOutcome {
  return {
    requeued: outcome.requeued.map(String),
    notFailed: outcome.notFailed.map(String),
    missing: outcome.missing.map(String),
    refused: [],
    queues: outcome.queues,
  };
}

/** StaticPHP's failed jobs through the one contract every layout fills: ids as text, the driver (RedisQueue) doing the work. */
export function staticphpFailedJobs(queue: RedisQueue): RetriedFailedJobs {
  return {
    failedCount: () => queue.failedCount(),
    failedRows: (limit, offset) => queue.failedRows(limit, offset),
    // Async, so that an id refused is a rejection like any other failure.
    forgetFailed: async (id, before, options, trash) => queue.forgetFailed(id === null ? null : wholeNumberIds([id])[0]!, before, options, trash),
    forgetFailedIds: async (ids, trash) => queue.forgetFailedIds(wholeNumberIds(ids), trash),
    forgetOldestFailed: (before, trash) => queue.forgetOldestFailed(before, trash),
    countFailedBefore: (before) => queue.countFailedBefore(before),
    retryFailed: {
      ids: async (ids, { maxAttempts } = {}) => asText(await queue.retryFailed(wholeNumberIds(ids), maxAttempts)),
      // A retried job leaves the failed set: each step starts from the oldest again.
      oldest: async ({ maxAttempts } = {}) => {
        const step = await queue.retryOldestFailed(maxAttempts);
        const looked = step.requeued.length + step.notFailed.length + step.missing.length;
        return { ...asText(step), looked, remaining: step.remaining, next: null };
      },
      maxAttempts: true,
      whatItDoes: JOB_HASH_RETRY,
      editAndRetry: async (id, seen, edited, options) => queue.editAndRetry(wholeNumberIds([id])[0]!, seen, edited, options),
    },
  };
}
