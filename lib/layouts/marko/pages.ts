import type { RedisConnection } from '../../redis/connection';
import { DISPLAY_LIMIT_BYTES } from '../../shapes/display-text';
import {
  PAGE_ROWS,
  type DueTimelineReader,
  type ExpiringReservationsReader,
  type JobLineReader,
  type JobMessage,
  type JobPlace,
  type JobSnapshot,
  type JobSnapshotReader,
} from '../pages';
import { MARKO_NO_HOLDER } from './absent';
import { MARKO_RETRY, type MarkoFailedJobs, type MarkoFailedRow } from './failed';
import { retryOfFailedJob } from '../adapter';
import type { MarkoKeys } from './keys';
import { assertListQueueKnown, findQueues } from '../list-queues';
import { unremovableAt } from '../line-repairs';
import {
  PLACE_SEARCH_LIMIT,
  readMarkoDelayedTimeline,
  markoFieldOf,
  readMarkoJob,
  readMarkoReservations,
  readReadyJobs,
  type MarkoJobDetail,
  type MarkoJobPlace,
  type MarkoJobSummary,
} from './reads';

/**
 * marko's reads (reads.ts) in the layout-neutral shapes of lib/layouts/pages.ts,
 * so the queue, reservations, delayed and job pages serve a marko queue as
 * they serve a yii2 channel.
 */

/** The queues a connection reads: those it names, else those a bounded SCAN finds. */
export type MarkoQueueNames = () => Promise<readonly string[]>;

export function markoQueueNames(connection: RedisConnection, keys: MarkoKeys, named: readonly string[] | null): MarkoQueueNames {
  return async () => named ?? (await connection.attempt(() => findQueues(connection.redis, keys))).names;
}

const NO_HASH_NOTE = 'no job hash: the id is left in the list, and the doctor reports it';

function noteOf(job: MarkoJobSummary): string | null {
  return job.exists ? null : NO_HASH_NOTE;
}

/** A list row's fields every page shares: marko has no priorities, and a hash without `attempts` counts none. */
function rowOf(job: MarkoJobSummary) {
  return { id: job.id, name: job.className === '' ? null : job.className, attempts: job.attempts ?? 0, priority: null, note: noteOf(job) };
}

function offsetOf(page: number): number {
  return (page - 1) * PAGE_ROWS;
}

const LINE_DESCRIPTION =
  'The ready list from its head: marko’s documentation says a pop takes jobs in order without naming the end, so row 1 is taken to be the next job a worker reserves. Due delayed jobs and expired reservations join at the tail on the next pop.';

export function markoJobLine(connection: RedisConnection, keys: MarkoKeys, named: readonly string[] | null): JobLineReader {
  return {
    async read(queue, { page }) {
      const offset = offsetOf(page);
      const [ready, time] = await Promise.all([readReadyJobs(connection, keys, queue, offset, PAGE_ROWS), connection.attempt(() => connection.redis.time())]);
      if (ready.total === 0) await assertListQueueKnown(connection, keys, named, queue, 'marko');
      return {
        queue: ready.queue,
        now: Number(time[0]),
        sections: [
          {
            title: 'Next jobs to run',
            description: LINE_DESCRIPTION,
            total: ready.total,
            offset: ready.offset,
            rows: ready.jobs.map((job) => ({ place: job.position + 1, ...rowOf(job), ...unremovableAt(job.position, ready.total) })),
          },
        ],
      };
    },
  };
}

const EXPIRED_MEANS =
  'An expired reservation goes back to the ready list on the next pop of its queue, its attempts kept; once they reach the worker’s maximum, the pop fails the job instead (“exceeded max attempts after worker crash or timeout”).';

/** marko stores only a reservation's expiry: when it began is that less retry_after, which Redis does not hold. */
const RESERVED_SINCE_UNKNOWN = 'not known: the connection sets no retryAfter (queue.retry_after)';

export function markoExpiringReservations(
  connection: RedisConnection,
  keys: MarkoKeys,
  queueNames: MarkoQueueNames,
  retryAfter: number | null,
): ExpiringReservationsReader {
  return {
    async read({ queue, among, page }) {
      const asked = queue === undefined ? (among ?? (await queueNames())) : [queue];
      const offset = offsetOf(page);
      const read = await Promise.all(asked.map((name) => readMarkoReservations(connection, keys, name, retryAfter, offset, PAGE_ROWS)));
      const now = read[0]?.now ?? Number((await connection.attempt(() => connection.redis.time()))[0]);
      return {
        now,
        holderAbsent: MARKO_NO_HOLDER,
        ...(retryAfter === null ? { reservedSinceUnknown: RESERVED_SINCE_UNKNOWN } : {}),
        // Live and expired count the whole set, not the page's rows.
        queues: read.map((reservations) => ({
          queue: reservations.queue,
          total: reservations.total,
          live: reservations.total - reservations.expiredTotal,
          expired: reservations.expiredTotal,
          offset: reservations.offset,
          expiredMeans: EXPIRED_MEANS,
          rows: reservations.reservations.map((row) => ({ ...rowOf(row), expiresAt: row.expiresAt, reservedSince: row.reservedSince, expired: row.expired })),
        })),
      };
    },
  };
}

const DUE_MOVED_BY =
  'Due jobs stay in the delayed set until a worker pops this queue: each pop moves every due job (and every expired reservation) to the tail of the ready list.';

/** How many of the next due jobs the timeline lists. */
const NEXT_DUE_ROWS = 20;

export function markoDueTimeline(connection: RedisConnection, keys: MarkoKeys): DueTimelineReader {
  return {
    async read(queue) {
      const timeline = await readMarkoDelayedTimeline(connection, keys, queue, { limit: NEXT_DUE_ROWS });
      return {
        ...timeline,
        dueMovedBy: DUE_MOVED_BY,
        next: timeline.next.map((job) => ({
          ...rowOf(job),
          dueAt: job.dueAt,
          note: job.retry ? 'a backed-off retry: its hash counts a reservation already' : noteOf(job),
        })),
      };
    },
  };
}

/** A failed job's hash is deleted; its record is kept apart, so QueueLens's job page says where it went. */
export const MARKO_FAILED =
  'marko deleted its job hash and keeps its record apart, on the failed page, where it can be forgotten; retrying it needs the application';
export const MARKO_GONE = 'it has no job hash: marko deletes a job when it completes or fails (a failed one is on the failed page), or the id was never one';

function placeOf(place: MarkoJobPlace): { status: string; statusText: string; places: JobPlace[] } {
  switch (place.state) {
    case 'ready':
      return {
        status: 'placed',
        statusText: 'it is in one of its queue’s structures',
        places: [{ state: 'ready', sentence: `ready at place ${place.position + 1} of the ready list (1 runs next)`, at: null }],
      };
    case 'delayed':
      return {
        status: 'placed',
        statusText: 'it is in one of its queue’s structures',
        places: [{ state: 'delayed', sentence: 'delayed until', at: place.until }],
      };
    case 'reserved':
      return {
        status: 'placed',
        statusText: 'it is in one of its queue’s structures',
        places: [
          {
            state: 'reserved',
            sentence: place.expired ? 'reserved, its reservation expired at (the next pop puts it back in line)' : 'reserved until',
            at: place.until,
          },
        ],
      };
    case 'unknown':
      return {
        status: 'unsearched',
        statusText: `its hash is there but its id is in neither its queue’s delayed nor reserved set, nor in the first ${PLACE_SEARCH_LIMIT.toLocaleString('en-US')} of its ready list: an orphan the doctor reports, or further down a long list`,
        places: [],
      };
  }
}

const NO_SIGNED_FIELD = 'no field of the hash holds a signed payload (64 hex digits, a dot, then the serialized job): it is shown as stored';

/** The hash's fields as labelled parts, the signed payload split into signature and encoding; its data the serialized job as a tree. */
function messageOf(detail: Pick<MarkoJobDetail, 'fields'>): JobMessage {
  const signedField = detail.fields.find((field) => field.signed !== null);
  const parts = detail.fields.flatMap(({ name, value, signed }) =>
    signed === null
      ? [{ label: `Field ${name}`, value: value.truncated ? `${value.text}… (${value.bytes.toLocaleString('en-US')} bytes)` : value.text }]
      : [
          {
            label: `Field ${name}`,
            value: `signed payload, ${value.bytes.toLocaleString('en-US')} bytes${value.truncated ? ', of which the first were read' : ''}`,
          },
          { label: 'Signature', value: `${signed.signature} (HMAC-SHA256, not checked)` },
          {
            label: 'Encoding',
            value: signed.encoding === 'b64' ? 'b64: the PHP serialization in base64' : 'raw: the PHP serialization as stored (older releases)',
          },
          ...(signed.placeholder
            ? [{ label: 'Serialized', value: 'the placeholder marko stores for a job it could not serialize: its class and the error' }]
            : []),
        ],
  );
  if (signedField?.signed) {
    return {
      length: signedField.value.bytes,
      cut: signedField.value.truncated,
      parts,
      problem: null,
      notice: signedField.signed.signatureNote,
      data: { kind: 'php', parse: signedField.signed.job },
    };
  }
  const payload = detail.fields.find((field) => field.name === 'payload') ?? detail.fields[0];
  return {
    length: payload?.value.bytes ?? 0,
    cut: payload?.value.truncated ?? false,
    parts,
    problem: NO_SIGNED_FIELD,
    data: { kind: 'text', text: payload?.value.text ?? '', cut: payload?.value.truncated ?? false },
  };
}

/** A failed record's payload decoded as a job hash's would be; null when the record was too long to read whole. */
function failedMessageOf(failed: MarkoFailedRow): JobMessage | null {
  const payload = failed.record?.payload;
  if (typeof payload !== 'string') return null;
  const bytes = Buffer.from(payload, 'utf8');
  return messageOf({ fields: [markoFieldOf('payload', bytes.subarray(0, DISPLAY_LIMIT_BYTES), bytes.length)] });
}

export function markoJobSnapshot(connection: RedisConnection, keys: MarkoKeys, failedJobs: MarkoFailedJobs): JobSnapshotReader {
  return {
    // marko's ids are the application's UUIDs, one hash per id whatever its queue: the queue asked for is only the page's way back.
    async read(id, queue) {
      const detail = await readMarkoJob(connection, keys, id);
      if (detail === null) {
        const [time, failed] = await Promise.all([connection.attempt(() => connection.redis.time()), failedJobs.failedRow(id)]);
        const gone = { id, queue: queue ?? '', now: Number(time[0]), places: [], attempts: 0, priority: null, name: null, message: null };
        if (failed === null) return { ...gone, status: 'gone', statusText: MARKO_GONE } satisfies JobSnapshot;
        return {
          ...gone,
          queue: failed.queue === '' ? gone.queue : failed.queue,
          name: failed.name === '' ? null : failed.name,
          message: failedMessageOf(failed),
          status: 'failed',
          statusText: MARKO_FAILED,
          failed: { at: failed.failedAtSeconds, retry: retryOfFailedJob(MARKO_RETRY, id), error: failed.error },
        } satisfies JobSnapshot;
      }
      const signed = detail.fields.find((field) => field.signed !== null)?.signed ?? null;
      const attempts = Number(detail.fields.find((field) => field.name === 'attempts')?.value.text);
      return {
        id,
        queue: detail.queue,
        now: detail.now,
        ...placeOf(detail.place),
        attempts: Number.isFinite(attempts) ? attempts : 0,
        priority: null,
        name: signed?.className ?? null,
        message: messageOf(detail),
      };
    },
  };
}
