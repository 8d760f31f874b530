import type { RedisConnection } from '../../redis/connection';
import type { SeenPlace } from '../../shapes/job-location';
import type { LineRepairs, SeenJob } from '../pages';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { trashArguments } from '../trash';
import type { LaravelKeys } from './keys';
import { findLaravelJob, type LaravelQueues } from './pages';
import { BATCH_SIZE } from '../../shapes/failed-jobs';
import { randomBytes, randomUUID } from 'node:crypto';
import type { JobCopies } from '../adapter';
import { LARAVEL_COPY_AS_IS } from './absent';
import { copy, moveDue, moveToReady, reclaim, remove } from './scripts';

/** Laravel's line repairs, those the doctor proposes typed as present. */
export type LaravelLineRepairs = LineRepairs & {
  releaseExpired(queue: string, id: string, seen?: SeenJob): Promise<boolean>;
  moveDueJobs(queue: string): Promise<{ moved: number; stillDue: number }>;
};

/**
 * The repairs of Laravel's line, reservations, delayed and job pages. Each
 * reads the job's payload by its id (lua/laravel/find-job-3.lua; a remove
 * near where the page saw it), or takes the bytes a Find step just read (an
 * every-match removal), then runs
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
  /** the job's payload in `from` (any structure when left out), or null when it is not there; looked for `near` where a page saw it */
  const payloadIn = async (queue: string, id: string, from?: 'delayed' | 'reserved', near?: SeenPlace) => {
    const found = await findLaravelJob(connection, keys, queues.known(queue), id, near);
    return found.place === 'none' || (from !== undefined && found.place !== from) ? null : found.payload;
  };
  const moveBack = async (queue: string, id: string, from: 'delayed' | 'reserved', near?: SeenPlace) => {
    const payload = await payloadIn(queue, id, from, near);
    if (payload === null) return false;
    const source = from === 'delayed' ? keys.delayed(queue) : keys.reserved(queue);
    return connection.attempt(() =>
      moveToReady.run(redis, { source, ready: keys.ready(queue), notify: keys.notify(queue), payload, when: from === 'reserved' ? 'expired' : 'any' }),
    );
  };
  return {
    async remove(queue, id, trash, seen) {
      // Bytes a Find step just read are the job as it matched: the script removes them wherever they are, or answers that they moved on.
      const payload = seen?.bytes ?? (await payloadIn(queue, id, undefined, seen?.near));
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
          reach: READY_REMOVAL_REACH,
        }),
      );
    },
    runDelayedNow: (queue, id, seen) => moveBack(queue, id, 'delayed', seen?.near),
    moveDueJobs: (queue) =>
      connection.attempt(() =>
        moveDue.run(redis, { delayed: keys.delayed(queues.known(queue)), ready: keys.ready(queue), notify: keys.notify(queue), limit: BATCH_SIZE }),
      ),
    releaseExpired: (queue, id, seen) => moveBack(queue, id, 'reserved', seen?.near),
    async reclaim(queue, id, seen) {
      const payload = await payloadIn(queue, id, 'reserved', seen?.near);
      return payload !== null && connection.attempt(() => reclaim.run(redis, { reserved: keys.reserved(queue), payload }));
    },
  };
}

const COPY_REFUSALS = {
  gone: 'it is no longer where it was read: a worker popped (and re-encoded) or finished it meanwhile; open its page again',
  'not-json': 'its payload is not a JSON object with numeric attempts, which Laravel’s pop could not re-encode either',
} as const;

/** Laravel's 32 random letters and digits, as RedisQueue::getRandomId (Str::random) makes a job id. */
function randomJobId(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(32), (byte) => letters[byte % letters.length]).join('');
}

/**
 * Run a copy on Laravel's queues: the job's payload read by its id (near
 * where the page saw it), then
 * lua/laravel/copy-4.lua builds the copy from those exact bytes (new id and
 * uuid, 0 attempts) and pushes it as RedisQueue::pushRaw or later() would.
 * Payloads are not edited (LARAVEL_COPY_AS_IS).
 */
export function laravelJobCopies(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): JobCopies {
  return {
    async copy(queue, id, { delaySeconds, edited, near }) {
      if (edited !== undefined)
        return { copied: false, refused: `Job ${id} was not copied: ${LARAVEL_COPY_AS_IS.charAt(0).toLowerCase()}${LARAVEL_COPY_AS_IS.slice(1)}` };
      const found = await findLaravelJob(connection, keys, queues.known(queue), id, near);
      if (found.place === 'none') return { copied: false, refused: `Job ${id} was not copied: ${COPY_REFUSALS.gone}` };
      const made = await connection.attempt(() =>
        copy.run(connection.redis, {
          ready: keys.ready(queue),
          delayed: keys.delayed(queue),
          reserved: keys.reserved(queue),
          notify: keys.notify(queue),
          payload: found.payload,
          newId: randomJobId(),
          newUuid: randomUUID(),
          delaySeconds,
          readyAt: found.place === 'ready' ? found.position : '',
        }),
      );
      return made.outcome === 'copied' ? { copied: true, id: made.id } : { copied: false, refused: `Job ${id} was not copied: ${COPY_REFUSALS[made.outcome]}` };
    },
  };
}
