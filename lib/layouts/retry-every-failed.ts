import { QueueError } from '../redis/errors';
import type { RetryOutcome } from '../shapes/failed-jobs';
import { isAbsent, type FailedJobs, type FailedRetries } from './adapter';

// Apart from adapter.ts, which the browser imports too: this one throws QueueError, whose module imports ioredis.

/**
 * Every failed job retried in bounded steps of `oldest`, each going on where
 * the one before said, until one looks at nothing or nothing is left; at
 * most as many steps as there were failed jobs at the start (each step looks
 * at one at least), so that jobs failing meanwhile cannot keep it going.
 */
export async function retryEveryFailed(
  failed: Pick<FailedJobs, 'failedCount'>,
  { oldest }: FailedRetries,
  options: { maxAttempts?: number } = {},
): Promise<RetryOutcome> {
  if (isAbsent(oldest)) throw new QueueError(oldest.absent);
  const outcome: RetryOutcome = { requeued: [], notFailed: [], missing: [], refused: [], queues: [] };
  const rounds = (await failed.failedCount()) + 1;
  let from: string | null = null;
  for (let round = 0; round < rounds; round++) {
    const step = await oldest({ ...options, from });
    outcome.requeued.push(...step.requeued);
    outcome.notFailed.push(...step.notFailed);
    outcome.missing.push(...step.missing);
    outcome.refused.push(...step.refused);
    outcome.queues.push(...step.queues.filter((queue) => !outcome.queues.includes(queue)));
    if (step.looked === 0 || step.remaining === 0) break;
    from = step.next;
  }
  return outcome;
}
