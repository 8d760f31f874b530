import type { RedisConnection } from '../../redis/connection';
import type { LineRepairs } from '../pages';
import { trashArguments } from '../trash';
import type { LaravelKeys } from './keys';
import { findLaravelJob, type LaravelQueues } from './pages';
import { BATCH_SIZE } from '../../shapes/failed-jobs';
import { moveDue, moveToReady, reclaim, remove } from './scripts';

/** Laravel's line repairs, those the doctor proposes typed as present. */
export type LaravelLineRepairs = LineRepairs & {
  releaseExpired(queue: string, id: string): Promise<boolean>;
  moveDueJobs(queue: string): Promise<{ moved: number; stillDue: number }>;
};

/**
 * The repairs of Laravel's line, reservations, delayed and job pages. Each
 * reads the job's payload by its id (lua/laravel/find-job-3.lua), then runs
 * one script of lua/laravel/ that acts on exactly those bytes and nothing
 * else: a payload that moved on (popped and re-encoded, deleted by its
 * worker) is no longer there and the repair answers false. A remove with
 * a trash keeps those bytes there (./trash.ts). Laravel's pop,
 * release and migrate are scripts too, so each repair is safe while its
 * workers run; ending a live reservation (reclaim) only scores it as expired,
 * so that Laravel's next pop moves it back, as marko's reclaim does. Moving due jobs reads no payload: it does what Laravel's own
 * migrate does at a pop, a bounded batch a call (lua/laravel/move-due-3.lua).
 */
export function laravelLineRepairs(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): LaravelLineRepairs {
  const redis = connection.redis;
  /** the job's payload in `from` (any structure when left out), or null when it is not there */
  const payloadIn = async (queue: string, id: string, from?: 'delayed' | 'reserved') => {
    const found = await findLaravelJob(connection, keys, queues.known(queue), id);
    return found.place === 'none' || (from !== undefined && found.place !== from) ? null : found.payload;
  };
  const moveBack = async (queue: string, id: string, from: 'delayed' | 'reserved') => {
    const payload = await payloadIn(queue, id, from);
    if (payload === null) return false;
    const source = from === 'delayed' ? keys.delayed(queue) : keys.reserved(queue);
    return connection.attempt(() =>
      moveToReady.run(redis, { source, ready: keys.ready(queue), notify: keys.notify(queue), payload, when: from === 'reserved' ? 'expired' : 'any' }),
    );
  };
  return {
    async remove(queue, id, trash) {
      const payload = await payloadIn(queue, id);
      if (payload === null) return false;
      return connection.attempt(() =>
        remove.run(redis, {
          ready: keys.ready(queue),
          delayed: keys.delayed(queue),
          reserved: keys.reserved(queue),
          payload,
          id,
          queue,
          ...trashArguments(keys.prefix, trash),
        }),
      );
    },
    runDelayedNow: (queue, id) => moveBack(queue, id, 'delayed'),
    moveDueJobs: (queue) =>
      connection.attempt(() =>
        moveDue.run(redis, { delayed: keys.delayed(queues.known(queue)), ready: keys.ready(queue), notify: keys.notify(queue), limit: BATCH_SIZE }),
      ),
    releaseExpired: (queue, id) => moveBack(queue, id, 'reserved'),
    async reclaim(queue, id) {
      const payload = await payloadIn(queue, id, 'reserved');
      return payload !== null && connection.attempt(() => reclaim.run(redis, { reserved: keys.reserved(queue), payload }));
    },
  };
}
