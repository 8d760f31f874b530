import { QueueError } from '../../redis/errors';
import { PROMOTE_LIMIT, type RedisQueue } from './redis-queue';
import { promoteDue, runNow } from './scripts';

/** One bounded promotion step (lua/staticphp/promote-due-2.lua). */
export interface PromoteStep {
  /** ids moved to their priority's stream, soonest due first */
  promoted: number[];
  /** ids that were due but whose hash was gone: removed from the delayed set */
  vanished: number[];
  /** ids still due after this step (beyond the step's bound, or due meanwhile) */
  remainingDue: number;
}

/** What running one delayed job now did (lua/staticphp/run-now-3.lua). */
export type RunNowOutcome =
  | { outcome: 'promoted'; entry: string; level: string }
  /** the id was not in the delayed set: a worker promoted it meanwhile, or it never was delayed */
  | { outcome: 'not-delayed' }
  /** the id was in the delayed set but its hash was gone: removed from the set */
  | { outcome: 'gone' }
  /**
   * parked while its holder's claim is live: left where it is, since running
   * it now would run it a second time beside `holder`; it runs once the claim
   * ends at `until` (unix seconds)
   */
  | { outcome: 'held'; holder: string; until: number };

function assertQueueName(name: string): void {
  if (typeof name !== 'string' || name === '') throw new QueueError('The queue name must be a non-empty string');
}

/**
 * Promotes what a reserve on `name` would promote, without reserving: at
 * most `limit` due ids (the spec's PROMOTE_LIMIT), by the server's clock.
 * Nothing else promotes a delayed job on a queue no worker reserves from;
 * the caller repeats while `remainingDue` is above 0, one short script each.
 */
export async function promoteDueStep(queue: RedisQueue, name: string, limit = PROMOTE_LIMIT): Promise<PromoteStep> {
  assertQueueName(name);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new QueueError(`The promote limit must be a whole number of at least 1, got ${limit}`);
  return queue.attempt(async () => {
    return promoteDue.run(queue.redis, { delayed: queue.keys.delayed(name), levels: queue.keys.levels(name), prefix: queue.keys.prefix, queue: name, limit });
  });
}

/**
 * Moves one delayed job of `name` into its stream now, whatever its due
 * time. Only while the id is in the delayed set: a job promoted meanwhile
 * answers `not-delayed` and gets no second entry. A job parked while its
 * holder's claim is live answers `held` and stays parked: the script checks
 * the claim itself, so a claim renewed a moment earlier is seen.
 */
export async function runDelayedJobNow(queue: RedisQueue, name: string, id: number): Promise<RunNowOutcome> {
  assertQueueName(name);
  if (!Number.isSafeInteger(id) || id < 1) throw new QueueError(`A job id is a whole number above 0, got ${id}`);
  return queue.attempt(async () => {
    const reply = await runNow.run(queue.redis, {
      delayed: queue.keys.delayed(name),
      levels: queue.keys.levels(name),
      job: queue.keys.job(id),
      prefix: queue.keys.prefix,
      queue: name,
      id,
    });
    if (reply.outcome === 'unknown') throw new QueueError(`The run-now script answered ${reply.answer}, which this version does not know`);
    return reply;
  });
}
