import { QueueError } from '../../redis/errors';
import { inFlight } from '../../redis/in-flight';
import { execPipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import { toDisplayValue } from '../../shapes/display-text';
import type { SeenPlace } from '../../shapes/job-location';
import { assertListQueueKnown, findQueues } from '../list-queues';
import { unremovableAt } from '../line-repairs';
import {
  PAGE_ROWS,
  type DueTimelineReader,
  type ExpiringReservation,
  type ExpiringReservationsReader,
  type JobIdAcrossQueues,
  type JobLineReader,
  type JobMessage,
  type JobPlace,
  type JobSnapshot,
  type JobSnapshotReader,
} from '../pages';
import { readScoredTimeline } from '../scored-timeline';
import { LARAVEL_COPY_AS_IS, LARAVEL_NO_HOLDER } from './absent';
import type { LaravelKeys } from './keys';
import { commandOf, readLaravelPayload, type LaravelPayload } from './payload';
import { findJob, JOB_LOOK_UP_START, type FoundLaravelJob, type JobLookUpCursor, type JobLookUpStep } from './scripts';
import { horizonFailedSnapshot, type HorizonFailedJobs } from './horizon';

/**
 * Laravel's queues in the layout-neutral shapes of lib/layouts/pages.ts.
 * Every element of a queue's structures is a whole payload, so a row is
 * read from its own bytes: a page of the ready list is one LRANGE, a page
 * of reservations one ZRANGE, and a job is found by its id inside them.
 */

/** The queues a connection reads, each checked: those it names, else those a bounded SCAN finds (any name is taken then; one without keys is empty). */
export interface LaravelQueues {
  names(): Promise<readonly string[]>;
  /** throws notFound for a queue neither named nor holding a key (lib/layouts/list-queues.ts) */
  assertExists(queue: string): Promise<void>;
  /** `queue` when the connection reads it; a QueueError otherwise */
  known(queue: string): string;
}

export function laravelQueues(connection: RedisConnection, keys: LaravelKeys, named: readonly string[] | null): LaravelQueues {
  // Find asks `known` at every chunk: a connection may name 10,000 queues.
  const namedSet = named === null ? null : new Set(named);
  return {
    names: async () => named ?? (await connection.attempt(() => findQueues(connection.redis, keys))).names,
    assertExists: (queue) => assertListQueueKnown(connection, keys, named, queue, 'Laravel'),
    known: (queue) => {
      if (namedSet !== null && !namedSet.has(queue)) throw new QueueError(`This connection reads no Laravel queue named ${queue}`, { invalidRequest: true });
      return queue;
    },
  };
}

/** Elements of each structure a job's page (and a repair) looks through for its id: a reserved or delayed set, the ready list from its head. */
export const JOB_SEARCH_LIMIT = 2_000;

/**
 * What one step of a look-up reads at most: about half a millisecond of
 * Redis for payloads of 1 KB (each becomes a Lua string), and a step of
 * large payloads stops once it has read this many bytes.
 */
export const LOOK_UP_STEP = { budget: 100, byteBudget: 128 * 1024 } as const;

/** Steps a look-up takes at most: 100 walk 2,000 payloads of 1 KB in each structure (the list twice, near a place seen) and the second look; a queue of payloads of megabytes is reported unsearched past this. */
const LOOK_UP_MAX_STEPS = 200;

/** Laravel's job ids: RedisQueue's 32 random letters and digits, or a UUID. Anything else is refused before it reaches a script. */
const JOB_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Whether `id` is one a Laravel job page, and a repair, take. */
export function isLaravelJobId(id: string): boolean {
  return JOB_ID.test(id);
}

export function assertLaravelJobId(id: string): string {
  if (!isLaravelJobId(id)) throw new QueueError(`A Laravel job id is letters, digits and dashes (at most 64), not "${id}"`, { invalidRequest: true });
  return id;
}

/**
 * Finds job `id` in `queue`, with its payload's exact bytes: bounded steps
 * of lua/laravel/find-job-3.lua (LOOK_UP_STEP each) through the reserved
 * and delayed sets (each at the score a page saw it at first, where `near`
 * gives one) and the ready list from its head (or around the place in it a
 * page saw it at), JOB_SEARCH_LIMIT elements of each at most, then the
 * reserved set again (a job popped meanwhile). A queue that
 * small is read whole in one step. Past LOOK_UP_MAX_STEPS it answers
 * unsearched.
 */
export async function findLaravelJob(connection: RedisConnection, keys: LaravelKeys, queue: string, id: string, near?: SeenPlace): Promise<FoundLaravelJob> {
  assertLaravelJobId(id);
  let cursor = JOB_LOOK_UP_START;
  for (let steps = 0; steps < LOOK_UP_MAX_STEPS; steps++) {
    const step = await lookUpStep(connection, keys, { queue, id, near }, cursor);
    if (step.place !== 'more') return step;
    cursor = step.next;
  }
  return { place: 'none', complete: false, now: await serverNow(connection) };
}

/** What a look-up looks for: job `id` in `queue`, first `near` where a page saw it, where given. */
export interface LookedFor {
  queue: string;
  id: string;
  near?: SeenPlace | undefined;
}

/** One step of looking `for` a job from `cursor`, reading at most `budget` payloads and about `byteBudget` bytes. */
export function lookUpStep(
  connection: RedisConnection,
  keys: LaravelKeys,
  { queue, ...lookedFor }: LookedFor,
  cursor: JobLookUpCursor,
  budgets: LookUpBudgets = LOOK_UP_STEP,
): Promise<JobLookUpStep> {
  return connection.attempt(() =>
    findJob.run(connection.redis, {
      ready: keys.ready(queue),
      reserved: keys.reserved(queue),
      delayed: keys.delayed(queue),
      ...lookUpArguments(lookedFor, cursor, budgets),
    }),
  );
}

interface LookUpBudgets {
  budget: number;
  byteBudget: number;
}

/** find-job-3.lua's arguments for one step of looking `for` a job from `cursor` (lookUpStep; the bench gives its own keys). */
export function lookUpArguments({ id, near }: Omit<LookedFor, 'queue'>, cursor: JobLookUpCursor, { budget, byteBudget }: LookUpBudgets = LOOK_UP_STEP) {
  return {
    idNeedle: `"id":"${id}"`,
    uuidNeedle: `"uuid":"${id}"`,
    limit: JOB_SEARCH_LIMIT,
    budget,
    byteBudget,
    ...cursor,
    cut: cursor.cut ? '1' : '0',
    nearFrom: near?.from ?? '',
    nearIndex: near?.at ?? 0,
    nearLength: near?.from === 'score' ? '' : (near?.length ?? ''),
  };
}

export const NO_ID = 'the payload names no id: it is shown but cannot be opened or repaired';

/** A row's fields every page shares, from the payload's own bytes: Laravel has no priorities. */
function rowOf(bytes: Buffer) {
  const payload = readLaravelPayload(bytes);
  return {
    id: payload.id ?? '',
    name: payload.name,
    attempts: payload.attempts,
    priority: null,
    note: payload.problem,
    ...(payload.id === null ? { idNote: NO_ID } : {}),
  };
}

function offsetOf(page: number): number {
  return (page - 1) * PAGE_ROWS;
}

async function serverNow(connection: RedisConnection): Promise<number> {
  return Number((await connection.attempt(() => connection.redis.time()))[0]);
}

const LINE_DESCRIPTION =
  'The ready list from its head: Laravel’s push appends to the tail and its pop takes the head (LPOP), so row 1 runs next. Due delayed jobs and expired reservations are appended at the tail by the next pop of this queue.';

export function laravelJobLine(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): JobLineReader {
  return {
    async read(queue, { page }) {
      const key = keys.ready(queues.known(queue));
      const offset = offsetOf(page);
      const [time, total, payloads] = (await connection.attempt(() =>
        execPipeline(
          connection.redis
            .pipeline()
            .time()
            .llen(key)
            .lrangeBuffer(key, offset, offset + PAGE_ROWS - 1),
        ),
      )) as [[string, string], number, Buffer[]];
      if (total === 0) await queues.assertExists(queue);
      return {
        queue,
        now: Number(time[0]),
        sections: [
          {
            title: 'Next jobs to run',
            description: LINE_DESCRIPTION,
            total,
            offset,
            rows: payloads.map((bytes, i) => ({
              place: offset + i + 1,
              ...rowOf(bytes),
              near: { from: 'head', at: offset + i, length: total },
              ...unremovableAt(offset + i, total),
            })),
          },
        ],
      };
    },
  };
}

const EXPIRED_MEANS =
  'An expired reservation goes back to the tail of the ready list on the next pop of its queue (when the connection sets retry_after), its attempts counted already; the worker that held it may still be running it.';

const RESERVED_SINCE_UNKNOWN = 'not known: Laravel stores when a reservation expires; it began retry_after seconds earlier, which Redis does not hold';

export function laravelExpiringReservations(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): ExpiringReservationsReader {
  return {
    async read({ queue, among, page }) {
      const asked = queue === undefined ? (among ?? (await queues.names())) : [queues.known(queue)];
      const offset = offsetOf(page);
      const now = await serverNow(connection);
      const pipeline = connection.redis.pipeline();
      for (const name of asked) {
        pipeline
          .zcard(keys.reserved(name))
          .zcount(keys.reserved(name), '-inf', now)
          .zrangeBuffer(keys.reserved(name), offset, String(offset + PAGE_ROWS - 1), 'WITHSCORES');
      }
      const replies = asked.length > 0 ? await connection.attempt(() => execPipeline(pipeline)) : [];
      return {
        now,
        holderAbsent: LARAVEL_NO_HOLDER,
        reservedSinceUnknown: RESERVED_SINCE_UNKNOWN,
        queues: asked.map((name, i) => {
          const [total, expired, flat] = replies.slice(i * 3, i * 3 + 3) as [number, number, Buffer[]];
          const rows: ExpiringReservation[] = [];
          for (let at = 0; at + 1 < flat.length; at += 2) {
            const expiresAt = Number(flat[at + 1]!.toString());
            rows.push({ ...rowOf(flat[at]!), expiresAt, reservedSince: null, expired: expiresAt <= now, near: { from: 'score', at: expiresAt } });
          }
          return { queue: name, total, live: total - expired, expired, offset, expiredMeans: EXPIRED_MEANS, rows };
        }),
      };
    },
  };
}

const DUE_MOVED_BY =
  'Due jobs stay in the delayed set until a worker pops this queue: each pop first moves every due job to the tail of the ready list, with a notify token each.';

/** How many of the next due jobs the timeline lists. */
const NEXT_DUE_ROWS = 20;

export function laravelDueTimeline(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): DueTimelineReader {
  return {
    async read(queue) {
      const timeline = await connection.attempt(() => readScoredTimeline(connection.redis, keys.delayed(queues.known(queue)), NEXT_DUE_ROWS));
      return {
        ...timeline,
        queue,
        dueMovedBy: DUE_MOVED_BY,
        next: timeline.next.map(({ member, score }) => {
          const row = rowOf(member);
          const note = row.note ?? (row.attempts > 0 ? 'released back after a run: its attempts count it' : null);
          return { ...row, dueAt: score, note, near: { from: 'score', at: score } };
        }),
      };
    },
  };
}

/** The payload's own fields a page lists (attempts and the class have rows of their own), in the order Laravel writes them. */
const PAYLOAD_FIELDS = ['uuid', 'id', 'displayName', 'job', 'maxTries', 'maxExceptions', 'failOnTimeout', 'backoff', 'timeout', 'retryUntil', 'createdAt'];

const ENCRYPTED = 'data.command is encrypted (the job implements ShouldBeEncrypted): QueueLens never decrypts it, so the payload is shown as stored.';

/** The payload's fields as labelled parts, its command as a PHP tree where it is one. */
function messageOf(bytes: Buffer, payload: LaravelPayload = readLaravelPayload(bytes)): JobMessage {
  const base = { length: bytes.length, cut: false, copiedAsStored: LARAVEL_COPY_AS_IS };
  if (payload.json === null) {
    const shown = toDisplayValue(bytes);
    return { ...base, parts: [], problem: payload.problem, data: { kind: 'text', text: shown.text, cut: shown.truncated } };
  }
  const json = payload.json;
  const parts = PAYLOAD_FIELDS.filter((field) => field in json).map((field) => ({ label: field, value: JSON.stringify(json[field]) }));
  const data = typeof json.data === 'object' && json.data !== null ? (json.data as Record<string, unknown>) : {};
  if (typeof data.commandName === 'string') parts.push({ label: 'data.commandName', value: data.commandName });
  const command = commandOf(payload);
  if (command.kind === 'php') return { ...base, parts, problem: null, data: { kind: 'php', parse: command.parse } };
  return { ...base, parts, problem: null, ...(command.kind === 'encrypted' ? { notice: ENCRYPTED } : {}), data: { kind: 'json', value: json, error: null } };
}

function placeOf(found: Exclude<FoundLaravelJob, { place: 'none' }>): JobPlace {
  switch (found.place) {
    case 'ready':
      return { state: 'ready', sentence: `ready at place ${(found.position + 1).toLocaleString('en-US')} of the ready list (1 runs next)`, at: null };
    case 'delayed':
      return {
        state: 'delayed',
        sentence: found.score <= found.now ? 'delayed, due since (the next pop moves it into line)' : 'delayed until',
        at: found.score,
      };
    case 'reserved':
      return {
        state: 'reserved',
        sentence: found.score <= found.now ? 'reserved, its reservation expired at (the next pop puts it back in line)' : 'reserved until',
        at: found.score,
      };
  }
}

const GONE =
  'no structure of its queue holds it: Laravel deletes a job when it completes, and a failed one goes to the application’s failed_jobs table (not in Redis)';

/** What a look-up that did not find a job read: its ready list from the head or around where a page saw it, and its sets (at the score a page saw it at, too). */
function searched(near: SeenPlace | undefined): string {
  const limit = JOB_SEARCH_LIMIT.toLocaleString('en-US');
  const sets = `nor in ${limit} of each of its reserved and delayed sets`;
  if (near === undefined) return `the first ${limit} elements of its queue’s ready list, ${sets}`;
  if (near.from === 'score')
    return `the first ${limit} elements of its queue’s ready list, nor at score ${near.at} of its reserved and delayed sets, where it was seen, ${sets}`;
  const around = (2 * JOB_SEARCH_LIMIT).toLocaleString('en-US');
  return `up to ${around} elements of its queue’s ready list around place ${(near.at + 1).toLocaleString('en-US')} from its ${near.from}, where it was seen, ${sets}`;
}

function snapshotOf(id: string, queue: string, found: FoundLaravelJob, near?: SeenPlace): JobSnapshot {
  const empty = { id, queue, now: found.now, attempts: 0, priority: null, name: null, message: null };
  if (found.place === 'none') {
    if (found.complete) return { ...empty, status: 'gone', statusText: GONE, places: [] };
    return {
      ...empty,
      status: 'unsearched',
      statusText: `it is in none of ${searched(near)}: further down a long one, or gone`,
      places: [],
    };
  }
  const payload = readLaravelPayload(found.payload);
  return {
    id,
    queue,
    now: found.now,
    status: 'placed',
    statusText: 'it is in one of its queue’s structures',
    places: [placeOf(found)],
    attempts: payload.attempts,
    priority: null,
    name: payload.name,
    message: messageOf(found.payload, payload),
    ...(found.place === 'ready'
      ? { near: { from: 'head', at: found.position, length: found.length }, ...unremovableAt(found.position, found.length) }
      : { near: { from: 'score', at: found.score } }),
  };
}

/**
 * Queues a look-up without a queue walks at once: their steps' calls go out
 * together (about one round trip for them all), and no more than this many
 * wait in Redis ahead of other clients' commands. Another viewer's overview
 * read during a look-up over 50 queues of 2,000 jobs took 2.29× its time
 * at 16, 1.33–1.93× at 8 (four runs), 1.13× and 1.29× at 4, the look-up no
 * slower on two cores; over 10,000 queues, all at once, 1.65× (docs/benchmarks-history.md, Find).
 */
export const QUEUES_LOOKED_IN_AT_ONCE = 4;

/**
 * A job by its id: found in its queue's structures, else, where Horizon is
 * read, on Horizon's failed list (./horizon.ts), its payload decoded as a
 * queued one's.
 */
export function laravelJobSnapshot(
  connection: RedisConnection,
  keys: LaravelKeys,
  queues: LaravelQueues,
  horizon: HorizonFailedJobs | null,
): JobSnapshotReader {
  const failedOr = async <Read extends JobSnapshot | JobIdAcrossQueues>(read: Read, queue: string, now: number): Promise<Read | JobSnapshot> =>
    (horizon && (await horizonFailedSnapshot(horizon, connection, read.id, queue, now, (payload) => messageOf(payload)))) ?? read;
  return {
    async read(id, queue, near): Promise<JobSnapshot | JobIdAcrossQueues> {
      assertLaravelJobId(id);
      if (queue !== undefined) {
        const found = await findLaravelJob(connection, keys, queues.known(queue), id, near);
        const snapshot = snapshotOf(id, queue, found, near);
        return snapshot.status === 'gone' ? failedOr(snapshot, queue, found.now) : snapshot;
      }
      // Ids are random per job, not per queue: look in each queue (every one, so that a payload pushed onto two is listed twice), and open the one that holds it.
      const searched = [...(await queues.names())];
      const found = await inFlight(searched.length, QUEUES_LOOKED_IN_AT_ONCE, (at) => findLaravelJob(connection, keys, searched[at]!, id));
      const holders = searched.filter((_, i) => found[i]!.place !== 'none');
      if (holders.length === 1) return snapshotOf(id, holders[0]!, found[searched.indexOf(holders[0]!)]!);
      return holders.length === 0 ? failedOr({ id, holders, searched }, '', await serverNow(connection)) : { id, holders, searched };
    },
  };
}
