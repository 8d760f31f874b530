import { QueueError } from '../../queue/errors';
import type { RedisQueue } from '../../queue/redis-queue';
import { assertScriptSucceeded } from '../../queue/scripts';
import type { LineRepairs } from '../pages';
import type { MarkoKeys } from './keys';

/**
 * Why QueueLens does not move marko's due jobs itself: the one repair of
 * LineRepairs the layout note (shared/spec/marko-queue-redis-layout.md §4.6)
 * does not count as safe while marko's workers run.
 */
export const MARKO_MOVES_DUE_JOBS =
  'marko’s pop moves every due job into the ready list itself, and its documentation states neither the end of the list they join nor their order; QueueLens leaves that to the next pop rather than guess (Run now makes one job due)';

function changed(reply: unknown): boolean {
  return (assertScriptSucceeded(reply) as number[])[0] === 1;
}

/**
 * The repairs of marko's line, reservations, delayed and job pages, each
 * one atomic script of lua/marko-*.lua that re-checks its condition, so
 * each is safe while marko's workers pop (their pop is one script too).
 * `queues` are the connection's named queues (null: found by SCAN, so any
 * name is taken and one with no keys has nothing to repair).
 */
export function markoLineRepairs(connection: RedisQueue, keys: MarkoKeys, queues: readonly string[] | null): LineRepairs {
  const known = (queue: string) => {
    if (queues !== null && !queues.includes(queue)) throw new QueueError(`This connection reads no marko queue named ${queue}`, { invalidRequest: true });
    return queue;
  };
  const run = (call: () => Promise<unknown>) => connection.attempt(async () => changed(await call()));
  const redis = connection.redis;
  return {
    remove: (queue, id) => run(() => redis.queuelensMarkoRemove(keys.ready(known(queue)), keys.delayed(queue), keys.reserved(queue), keys.job(id), id)),
    releaseExpired: (queue, id) => run(() => redis.queuelensMarkoReleaseExpired(keys.reserved(known(queue)), keys.delayed(queue), id)),
    reclaim: (queue, id) => run(() => redis.queuelensMarkoReclaim(keys.reserved(known(queue)), id)),
    runDelayedNow: (queue, id) => run(() => redis.queuelensMarkoRunNow(keys.delayed(known(queue)), id)),
    moveDueJobs: { absent: MARKO_MOVES_DUE_JOBS },
  };
}
