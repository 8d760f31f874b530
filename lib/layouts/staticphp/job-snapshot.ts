import type { JobLocation } from '../../shapes/job-location';
import { readJobDetail, readLastJobId, type JobDetail } from './job-detail';
import { QueueError } from '../../redis/errors';
import type { RedisQueue } from './redis-queue';
import type { JobSnapshot, JobSnapshotReader } from '../pages';

/** Why a StaticPHP job id is refused: the driver numbers its jobs from one counter (queue:seq). */
export const STATICPHP_JOB_ID_RULE = 'A job id is a whole number above 0.';

/** A StaticPHP job id read from text: digits, above 0, exact as a JS number; null for anything else. */
function jobIdOf(text: string): number | null {
  if (!/^[1-9]\d*$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** Where the job is, in the few words a list or a lookup shows (the job page says it at length from `hash.location`). */
function statusTextOf(location: JobLocation): string {
  switch (location.state) {
    case 'ready':
      return `ready at priority ${location.level}`;
    case 'reserved':
      return `${location.overdue ? 'held, its claim ran out,' : 'reserved'} by ${location.reservedBy === '' ? 'an unnamed worker' : location.reservedBy}`;
    case 'delayed':
      return location.parked ? 'parked until its holder’s deadline' : 'delayed';
    case 'failed':
      return 'failed';
    case 'stray':
      return 'stray: in no level, not delayed and not failed';
  }
}

function snapshotOf(detail: JobDetail): JobSnapshot {
  const text = (name: string) => {
    const value = detail.fields.find((field) => field.name === name)?.value;
    return value === undefined ? null : value.text;
  };
  const { fields, payloadPretty, location } = detail;
  return {
    id: String(detail.id),
    queue: text('queue') ?? '',
    now: detail.now,
    status: location.state,
    statusText: statusTextOf(location),
    // The hash's own location says where it is; no other index is read.
    places: [],
    attempts: Number(text('attempts') ?? 0) || 0,
    // Its level is text (priorities go beyond what a double holds exactly): the hash's fields show it as stored.
    priority: null,
    name: text('name'),
    // Its payload is one of the hash's fields, shown there.
    message: null,
    hash: { fields, payloadPretty, location },
  };
}

/**
 * The job page's read on a StaticPHP connection: the job hash (each field's
 * first 64 KiB, lib/layouts/staticphp/job-detail.ts) and where it is now; once the
 * hash is gone, the highest id handed out, to tell a job that finished or
 * was forgotten from one never pushed. Ids count across the connection, so
 * `queue` is not needed (and not checked). Throws QueueError for an id that
 * is no whole number above 0 (a 400) or a key that is no job hash.
 */
export function staticphpJobSnapshot(queue: RedisQueue): JobSnapshotReader {
  return {
    async read(text) {
      const id = jobIdOf(text);
      if (id === null) throw new QueueError(STATICPHP_JOB_ID_RULE, { invalidRequest: true });
      const detail = await readJobDetail(queue, id);
      if (detail !== null) return snapshotOf(detail);
      const [lastId, now] = await Promise.all([readLastJobId(queue), queue.attempt(async () => Number((await queue.redis.time())[0]))]);
      return {
        id: String(id),
        queue: '',
        now,
        status: 'gone',
        statusText: id > lastId ? 'no such job was ever pushed' : 'it finished or was forgotten',
        places: [],
        attempts: 0,
        priority: null,
        name: null,
        message: null,
        lastId,
      };
    },
  };
}
