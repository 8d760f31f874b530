import { QueueError } from '../../redis/errors';
import type { RedisConnection } from '../../redis/connection';
import { absentMembers } from '../adapter';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { trashArguments } from '../trash';
import type { LineRepairs } from '../pages';
import { MARKO_LINE_REPAIRS_ABSENT } from './absent';
import type { MarkoKeys } from './keys';
import { reclaim, releaseExpired, remove, runNow } from './scripts';

/**
 * The repairs of marko's line, reservations, delayed and job pages, each
 * one atomic script of lua/marko/ (./scripts.ts) that re-checks its condition, so
 * each is safe while marko's workers pop (their pop is one script too).
 * `queues` are the connection's named queues (null: found by SCAN, so any
 * name is taken and one with no keys has nothing to repair).
 */
export function markoLineRepairs(connection: RedisConnection, keys: MarkoKeys, queues: readonly string[] | null): LineRepairs {
  const known = (queue: string) => {
    if (queues !== null && !queues.includes(queue)) throw new QueueError(`This connection reads no marko queue named ${queue}`, { invalidRequest: true });
    return queue;
  };
  const run = (call: () => Promise<boolean>) => connection.attempt(call);
  const redis = connection.redis;
  return {
    remove: (queue, id, trash) =>
      run(() =>
        remove.run(redis, {
          ready: keys.ready(known(queue)),
          delayed: keys.delayed(queue),
          reserved: keys.reserved(queue),
          job: keys.job(id),
          id,
          queue,
          ...trashArguments(keys.prefix, trash),
          reach: READY_REMOVAL_REACH,
        }),
      ),
    releaseExpired: (queue, id) => run(() => releaseExpired.run(redis, { reserved: keys.reserved(known(queue)), delayed: keys.delayed(queue), id })),
    reclaim: (queue, id) => run(() => reclaim.run(redis, { reserved: keys.reserved(known(queue)), id })),
    runDelayedNow: (queue, id) => run(() => runNow.run(redis, { delayed: keys.delayed(known(queue)), id })),
    ...absentMembers(MARKO_LINE_REPAIRS_ABSENT),
  };
}
