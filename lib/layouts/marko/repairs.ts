import { QueueError } from '../../redis/errors';
import type { RedisConnection } from '../../redis/connection';
import { assertScriptSucceeded } from '../../redis/scripts';
import { absentMembers } from '../adapter';
import type { LineRepairs } from '../pages';
import { MARKO_LINE_REPAIRS_ABSENT } from './absent';
import type { MarkoKeys } from './keys';

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
export function markoLineRepairs(connection: RedisConnection, keys: MarkoKeys, queues: readonly string[] | null): LineRepairs {
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
    ...absentMembers(MARKO_LINE_REPAIRS_ABSENT),
  };
}
