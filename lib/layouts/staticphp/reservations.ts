import { compareJobIds, jobIdAsRead, type JobIdAsRead } from '../../shapes/job-ids';
import type { QueueKeys } from './keys';
import { execPipeline, settlePipeline } from '../../redis/pipeline';
import { compareStreamIds } from '../../shapes/stream-ids';
import type { RedisQueue } from './redis-queue';
import { bytesToText } from '../../shapes/display-text';
import { cleanTombstone, failReservation, releaseReservation } from './reservation-repairs';
import * as scripts from './scripts';
import {
  PAGE_ROWS,
  type ClaimRepairs,
  type ExpiringReservation,
  type ExpiringReservationsPage,
  type ExpiringReservationsReader,
  type ParkedReservation,
} from '../pages';

/**
 * What a pending entry (delivered, not acknowledged) amounts to:
 * - running: its job's claim runs until a moment still ahead;
 * - overdue: the claim ran out and nobody reclaimed it yet, so stats()
 *   still counts it reserved although any worker reserving on its queue
 *   would take it;
 * - tombstone: the job hash is gone (or the entry itself was deleted), so
 *   there is nothing to run;
 * - mismatch: the hash no longer points at this entry, or says it is not
 *   reserved at all.
 */
export type ReservationState = 'running' | 'overdue' | 'tombstone' | 'mismatch';

export interface ReservationRow {
  queue: string;
  level: string;
  /** the stream's key */
  stream: string;
  /** the stream entry id */
  entry: string;
  /** the id the entry names; null when it names none or the entry was deleted from the stream */
  jobId: JobIdAsRead | null;
  state: ReservationState;
  /** why a mismatch is one, in words */
  mismatch: string | null;
  /** null when the hash is gone */
  name: string | null;
  /** the hash's reserved_by, '' when empty or gone */
  reservedBy: string;
  /** the hash's reserved_until as stored, '' when gone */
  reservedUntil: string;
  attempts: string | null;
  maxAttempts: string | null;
  /** ms since the entry was last delivered, as XPENDING measured it */
  idleMs: number;
  deliveries: number;
  /** when it was last delivered, server ms: the server's clock minus the idle time */
  deliveredAtMs: number;
  /** the timeout the holder claimed it with: reserved_until minus the second it was delivered; null unless running or overdue */
  timeoutSeconds: number | null;
}

/**
 * A job a reclaim parked: its entry was idle longer than the reclaiming
 * worker's timeout while its holder's deadline was still ahead, so RESERVE
 * put it in the delayed set until that deadline instead of running it a
 * second time (the spec's middle branch). No pending entry is left, but the
 * holder still has it: reserved_by stays, and entry is ''.
 */
export interface ParkedJob {
  queue: string;
  jobId: JobIdAsRead;
  name: string | null;
  /** the holder: reserved_by, kept by the parking */
  reservedBy: string;
  /** the holder's deadline as stored */
  reservedUntil: string;
  /** its score in the delayed set, unix seconds, still ahead: when a reserve puts it back in its stream */
  untilSeconds: number;
  attempts: string | null;
  maxAttempts: string | null;
}

export interface HolderGroup {
  /** reserved_by (host:pid); null for the entries nobody holds (tombstones and mismatches) */
  holder: string | null;
  /** longest held first; on a page (pageOfReservations), only the page's */
  rows: ReservationRow[];
  /** the holder's jobs parked in a delayed set, soonest back first; always empty for the group nobody holds */
  parked: ParkedJob[];
  /** how many entries the holder holds, on every page */
  held: number;
  /** the timeout most of this holder's claims imply; null when none of them tells */
  timeoutSeconds: number | null;
}

export interface ParkingHazard {
  /** each holder with the timeout its claims imply, shortest first */
  holders: { holder: string; timeoutSeconds: number }[];
}

export interface Reservations {
  /** holders by name, then the entries nobody holds */
  holders: HolderGroup[];
  counts: Record<ReservationState, number>;
  /** pending entries read */
  total: number;
  /** parked jobs found, in every holder's `parked` */
  parkedTotal: number;
  /** set when holders claim with different timeouts: a reclaim may park a live job or wait on a dead one */
  parkingHazard: ParkingHazard | null;
  /** more queues or pending entries exist than one read looks at */
  truncated: boolean;
  /** streams that could not be read (a key of the wrong type), each with why */
  errors: { stream: string; error: string }[];
  queuesRead: number;
  /** the registered queues' names, sorted (at most maxQueues): what the page can be filtered by */
  queues: string[];
  /** the one queue read, when the read was filtered by one */
  queue: string | null;
  /** the Redis server's clock, unix seconds */
  now: number;
}

/** One page of the reservations: the rows of the page in their holders, and every figure of the whole read. */
export interface ReservationsPage extends Reservations {
  page: {
    /** 1 for the first page; a page past the last is the last */
    number: number;
    count: number;
    /** rows a page holds at most */
    size: number;
    /** the page's first and last row among all, from 1; 0 and 0 when there is none */
    first: number;
    last: number;
  };
}

export interface ReservationLimits {
  /** XPENDING page size at most, per stream and round */
  pageSize?: number;
  /** pending entries read at most, over every stream */
  maxEntries?: number;
  /** queue names read at most from queue:queues */
  maxQueues?: number;
  /** levels read at most per queue */
  maxLevels?: number;
  /** pending entries per call of the script that joins them to their jobs: about 5 µs of Redis each, so a call stays near half a millisecond */
  batchSize?: number;
  /** delayed ids not yet due looked at for parked jobs, over every queue, soonest first, shared among the queues (at most 200 each) */
  maxDelayed?: number;
}

export interface ReservationsFilter {
  /** read only this queue's streams */
  queue?: string;
  /** without `queue`, read only these queues (not every registered one) */
  among?: readonly string[];
}

/** `queue` is in every job hash, so all of them nil means the hash is gone: no EXISTS needed. */
const JOB_FIELDS = ['queue', 'name', 'reserved_by', 'reserved_until', 'attempts', 'max_attempts', 'entry'] as const;

/** What to show of a parked job's hash (lua/staticphp/read-parked-1.lua reads `reserved_by` and `entry` to tell it is parked). */
const PARKED_FIELDS = ['name', 'reserved_by', 'reserved_until', 'attempts', 'max_attempts'] as const;
/**
 * Delayed ids a lua/staticphp/read-parked-1.lua call looks at (an HMGET each), as many
 * as a join call's entries: about a millisecond of Redis. A call takes whole
 * queues, so one with MAX_DELAYED_PER_QUEUE ids reads that many.
 */
const PARKED_IDS_PER_CALL = 100;

/** Differences this small are the same timeout measured across a second's boundary. */
const TIMEOUT_TOLERANCE_SECONDS = 1;

/** A pending entry as XPENDING gives it, with the stream it is in. */
export interface PendingEntry {
  queue: string;
  level: string;
  stream: string;
  entry: string;
  idleMs: number;
  deliveries: number;
  deliveredAtMs: number;
}

/** A TIME reply as ms since the epoch. */
export function serverMs([seconds, micros]: [string, string]): number {
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * Every pending entry of every queue's level streams, paged through XPENDING
 * (all streams' next pages in one pipeline per round), until `maxEntries`.
 * Each round shares what is left of `maxEntries` among the streams still
 * open, at most `pageSize` each: with 200 streams and 1,000 entries to show,
 * five each, not a page of 100 from every stream to keep a tenth of them. A
 * stream whose page came back short has no more. Each round reads the
 * server's clock in the same pipeline, so an entry's delivery time is that
 * clock minus its idle time.
 */
async function readPending(
  queue: RedisQueue,
  streams: { queue: string; level: string; stream: string }[],
  pageSize: number,
  maxEntries: number,
  errors: Reservations['errors'],
): Promise<{ entries: PendingEntry[]; truncated: boolean }> {
  const entries: PendingEntry[] = [];
  let active = streams.map((stream) => ({ ...stream, start: '-' }));
  while (active.length > 0 && entries.length < maxEntries) {
    const pipeline = queue.redis.pipeline().time();
    const count = Math.min(pageSize, Math.ceil((maxEntries - entries.length) / active.length));
    for (const stream of active) pipeline.xpending(stream.stream, queue.settings.group, stream.start, '+', count);
    const [time, ...pages] = await settlePipeline(pipeline);
    if (time instanceof Error) throw time;
    const nowMs = serverMs(time as [string, string]);
    const next: typeof active = [];
    for (const [index, stream] of active.entries()) {
      const page = pages[index];
      if (page instanceof Error) {
        // A stream never reserved from has no group: nobody holds anything there.
        if (!page.message.startsWith('NOGROUP')) errors.push({ stream: stream.stream, error: page.message });
        continue;
      }
      const rows = (page ?? []) as [string, string, number, number][];
      for (const [entry, , idle, deliveries] of rows) {
        entries.push({
          queue: stream.queue,
          level: stream.level,
          stream: stream.stream,
          entry,
          idleMs: Number(idle),
          deliveries: Number(deliveries),
          deliveredAtMs: nowMs - Number(idle),
        });
      }
      const last = rows.at(-1);
      if (rows.length === count && last) next.push({ ...stream, start: `(${last[0]}` });
    }
    active = next;
  }
  return { entries: entries.slice(0, maxEntries), truncated: active.length > 0 || entries.length > maxEntries };
}

/** What the join script found for one pending entry (lua/staticphp/read-reservation-jobs-1.lua). */
type EntryJob =
  /** the entry names no job, or is gone from its stream */
  | { jobId: null }
  /** j:{id} is a key of another type */
  | { jobId: JobIdAsRead; notAHash: true }
  /** JOB_FIELDS in order, null where the hash has none; all null when the hash is gone */
  | { jobId: JobIdAsRead; notAHash: false; values: (string | null)[] };

function entryJobOf(reply: (Buffer | null)[]): EntryJob {
  const [idBytes, refusal, ...values] = reply;
  const text = idBytes ? idBytes.toString() : '';
  // Past 2^53 the id is carried as its digits: a number would name a neighbour's hash.
  if (!/^[1-9]\d*$/.test(text)) return { jobId: null };
  const id = jobIdAsRead(text);
  if (refusal && refusal.length > 0) return { jobId: id, notAHash: true };
  return { jobId: id, notAHash: false, values: values.map((value) => (value === null ? null : bytesToText(value))) };
}

/**
 * Each entry's job id and JOB_FIELDS of its hash: one script call per
 * `batchSize` entries, all in one pipeline. Each call is bounded (an XRANGE
 * of one entry and an HMGET per entry), and Redis serves other clients
 * between them.
 */
async function readEntryJobs(queue: RedisQueue, entries: readonly PendingEntry[], batchSize: number): Promise<EntryJob[]> {
  if (entries.length === 0) return [];
  const pipeline = queue.redis.pipeline();
  for (let start = 0; start < entries.length; start += batchSize) {
    const triples = entries.slice(start, start + batchSize).flatMap(({ queue: name, level, entry }) => [name, level, entry]);
    scripts.readReservationJobs.queue(pipeline, {
      queues: queue.keys.queues,
      prefix: queue.keys.prefix,
      fieldCount: JOB_FIELDS.length,
      fieldsThenEntries: [...JOB_FIELDS, ...triples],
    });
  }
  return (await execPipeline(pipeline)).flatMap(scripts.readReservationJobs.reply).map(entryJobOf);
}

/**
 * What a pending entry amounts to, given what the join found for it. The row
 * is built once and filled in: spreading a row into another whose fields
 * change type (null to text) cost V8 about 9 µs a row, 9 ms a page of 1,000.
 */
function classify(pending: PendingEntry, job: EntryJob, now: number, keys: QueueKeys): ReservationRow {
  const row: ReservationRow = {
    queue: pending.queue,
    level: pending.level,
    stream: pending.stream,
    entry: pending.entry,
    jobId: job.jobId,
    state: 'tombstone',
    mismatch: null,
    name: null,
    reservedBy: '',
    reservedUntil: '',
    attempts: null,
    maxAttempts: null,
    idleMs: pending.idleMs,
    deliveries: pending.deliveries,
    deliveredAtMs: pending.deliveredAtMs,
    timeoutSeconds: null,
  };
  if (job.jobId === null) return row;
  if (job.notAHash) {
    row.state = 'mismatch';
    row.mismatch = `${keys.job(job.jobId)} is not a hash`;
    return row;
  }
  if (job.values.every((value) => value === null)) return row;
  const [, name, reservedBy, reservedUntil, attempts, maxAttempts, hashEntry] = job.values;
  row.name = name ?? null;
  row.reservedBy = reservedBy ?? '';
  row.reservedUntil = reservedUntil ?? '';
  row.attempts = attempts ?? null;
  row.maxAttempts = maxAttempts ?? null;
  row.state = 'mismatch';
  if ((hashEntry ?? '') !== pending.entry) {
    row.mismatch = hashEntry
      ? `the job has since been handed out again (entry ${hashEntry})`
      : 'the job is no longer handed out (it is parked, failed or delayed)';
    return row;
  }
  const deadline = Number(reservedUntil ?? 0) || 0;
  if (row.reservedBy === '' || deadline === 0) {
    row.mismatch = 'the job says it is not reserved';
    return row;
  }
  row.state = deadline > now ? 'running' : 'overdue';
  row.timeoutSeconds = deadline - Math.floor(pending.deliveredAtMs / 1000);
  return row;
}

/** Delayed ids looked at per queue for parked jobs, at most. */
const MAX_DELAYED_PER_QUEUE = 200;

/**
 * The parked jobs among the delayed ids not yet due, soonest first, at most
 * `maxDelayed` over every queue (shared among them, at most
 * MAX_DELAYED_PER_QUEUE each): those whose hash names a holder and points at
 * no entry (a job pushed with a delay or released names none). A parking
 * deadline is one claim's length ahead, so parked jobs sort among the
 * soonest; more jobs delayed to a sooner second hide them. Once its deadline
 * has passed, a parked job is due and no longer held. One round trip:
 * lua/staticphp/read-parked-1.lua per PARKED_IDS_PER_CALL ids' worth of queues, every call in one
 * pipeline, each reading its queues' ids and their hashes inside Redis and
 * sending back only the parked ones.
 */
async function readParked(queue: RedisQueue, names: readonly string[], maxDelayed: number, now: number, errors: Reservations['errors']): Promise<ParkedJob[]> {
  if (names.length === 0) return [];
  const perQueue = Math.min(MAX_DELAYED_PER_QUEUE, Math.ceil(maxDelayed / names.length));
  const queuesPerCall = Math.max(1, Math.floor(PARKED_IDS_PER_CALL / perQueue));
  const pipeline = queue.redis.pipeline();
  for (let start = 0; start < names.length; start += queuesPerCall) {
    const batch = names.slice(start, start + queuesPerCall);
    scripts.readParked.queue(pipeline, {
      queues: queue.keys.queues,
      prefix: queue.keys.prefix,
      now,
      perQueue,
      fieldCount: PARKED_FIELDS.length,
      fieldsThenQueues: [...PARKED_FIELDS, ...batch],
    });
  }
  const replies = (await execPipeline(pipeline)).flatMap(scripts.readParked.reply);
  return names.flatMap((name, index) => {
    const [head, ...flat] = replies[index]!;
    if (head!.length > 0) {
      errors.push({ stream: queue.keys.delayed(name), error: head!.toString() });
      return [];
    }
    const parked: ParkedJob[] = [];
    const stride = 2 + PARKED_FIELDS.length;
    for (let i = 0; i + stride <= flat.length; i += stride) {
      const [jobName, reservedBy, reservedUntil, attempts, maxAttempts] = flat
        .slice(i + 2, i + 2 + PARKED_FIELDS.length)
        .map((value) => (value === null ? null : bytesToText(value)));
      parked.push({
        queue: name,
        jobId: jobIdAsRead(flat[i]!.toString()),
        untilSeconds: Number(flat[i + 1]!.toString()),
        name: jobName ?? null,
        reservedBy: reservedBy!,
        reservedUntil: reservedUntil ?? '',
        attempts: attempts ?? null,
        maxAttempts: maxAttempts ?? null,
      });
    }
    return parked;
  });
}

function mostCommon(values: number[]): number | null {
  const tally = new Map<number, number>();
  for (const value of values) tally.set(value, (tally.get(value) ?? 0) + 1);
  let best: number | null = null;
  for (const [value, count] of tally) if (best === null || count > tally.get(best)! || (count === tally.get(best)! && value < best)) best = value;
  return best;
}

/**
 * Holders whose claims imply timeouts further apart than a second's
 * rounding: the spec's parking hazard. A worker with a short timeout that
 * reclaims a longer-timeout holder's job parks it until that deadline; the
 * reverse leaves a dead holder's job waiting longer than the claim said.
 */
export function findParkingHazard(holders: readonly HolderGroup[]): ParkingHazard | null {
  const timed = holders.flatMap(({ holder, timeoutSeconds }) => (holder !== null && timeoutSeconds !== null ? [{ holder, timeoutSeconds }] : []));
  if (timed.length < 2) return null;
  timed.sort((a, b) => a.timeoutSeconds - b.timeoutSeconds || a.holder.localeCompare(b.holder));
  return timed.at(-1)!.timeoutSeconds - timed[0]!.timeoutSeconds > TIMEOUT_TOLERANCE_SECONDS ? { holders: timed } : null;
}

/**
 * Pending entries found elsewhere (the overview's candidates for "stuck")
 * joined with their job hashes and classified exactly as the reservations
 * page classifies its rows. `now` is the server's clock, unix seconds.
 */
export function classifyPendingEntries(queue: RedisQueue, entries: readonly PendingEntry[], now: number, { batchSize = 100 } = {}): Promise<ReservationRow[]> {
  return queue.attempt(async () => {
    const jobs = await readEntryJobs(queue, entries, batchSize);
    return entries.map((pending, index) => classify(pending, jobs[index]!, now, queue.keys));
  });
}

/**
 * Every reservation (of one queue, when `filter` names one): each level
 * stream's pending entries (XPENDING, paged) joined with their job hashes,
 * classified, and the jobs parked in the delayed sets until their holder's
 * deadline, grouped by the worker that holds them. Reads only, in bounded
 * pipelined batches; never creates a group. Filtered by a queue, the limits
 * apply to that queue alone, so entries beyond the first `maxEntries` of all
 * queues can be seen.
 */
export function readReservations(queue: RedisQueue, limits: ReservationLimits = {}, filter: ReservationsFilter = {}): Promise<Reservations> {
  const { pageSize = 100, maxEntries = 1000, maxQueues = 1000, maxLevels = 100, batchSize = 100, maxDelayed = 1000 } = limits;
  return queue.attempt(async () => {
    const errors: Reservations['errors'] = [];
    const { names: known, truncated: queuesTruncated } =
      filter.among === undefined
        ? await queue.registeredQueueNames(maxQueues)
        : { names: filter.among.slice(0, maxQueues), truncated: filter.among.length > maxQueues };
    const names = filter.queue === undefined ? known : [filter.queue];
    const pipeline = queue.redis.pipeline().time();
    for (const name of names) pipeline.zrevrange(queue.keys.levels(name), 0, maxLevels - 1);
    const [time, ...levelReplies] = await settlePipeline(pipeline);
    if (time instanceof Error) throw time;
    const now = Number((time as [string, string])[0]);
    const streams = names.flatMap((name, index) => {
      const levels = levelReplies[index];
      if (levels instanceof Error) {
        errors.push({ stream: queue.keys.levels(name), error: levels.message });
        return [];
      }
      return (levels as string[]).map((level) => ({ queue: name, level, stream: queue.keys.stream(name, level) }));
    });

    const { entries, truncated } = await readPending(queue, streams, pageSize, maxEntries, errors);
    const jobs = await readEntryJobs(queue, entries, batchSize);
    const parked = await readParked(queue, names, maxDelayed, now, errors);

    const rows = entries.map((pending, index) => classify(pending, jobs[index]!, now, queue.keys));

    const byHolder = new Map<string | null, ReservationRow[]>();
    for (const row of rows) {
      // A tombstone or a mismatch is an entry nobody holds, whatever a hash may say.
      const holder = row.state === 'running' || row.state === 'overdue' ? row.reservedBy : null;
      const held = byHolder.get(holder);
      if (held) held.push(row);
      else byHolder.set(holder, [row]);
    }
    const parkedBy = new Map<string, ParkedJob[]>();
    for (const job of parked) {
      parkedBy.set(job.reservedBy, [...(parkedBy.get(job.reservedBy) ?? []), job]);
      if (!byHolder.has(job.reservedBy)) byHolder.set(job.reservedBy, []);
    }
    const holders: HolderGroup[] = [...byHolder.entries()]
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
      .map(([holder, held]) => ({
        holder,
        // Entries delivered in one millisecond go by entry id as Redis orders them: as text, 1-10 would sort before 1-9.
        rows: held.sort((a, b) => a.deliveredAtMs - b.deliveredAtMs || compareStreamIds(a.entry, b.entry)),
        parked: (holder === null ? [] : (parkedBy.get(holder) ?? [])).sort((a, b) => a.untilSeconds - b.untilSeconds || compareJobIds(a.jobId, b.jobId)),
        held: held.length,
        timeoutSeconds: mostCommon(held.flatMap((row) => (row.timeoutSeconds === null ? [] : [row.timeoutSeconds]))),
      }));
    const counts: Record<ReservationState, number> = { running: 0, overdue: 0, tombstone: 0, mismatch: 0 };
    for (const row of rows) counts[row.state] += 1;
    return {
      holders,
      counts,
      total: rows.length,
      parkedTotal: parked.length,
      parkingHazard: findParkingHazard(holders),
      truncated: truncated || (filter.queue === undefined && queuesTruncated),
      errors,
      queuesRead: names.length,
      queues: known,
      queue: filter.queue ?? null,
      now,
    };
  });
}

/**
 * Page `number` (from 1) of `size` rows of `reservations`, in the order the
 * whole read shows them: holders by name, each holder's longest held first.
 * A page past the last is the last, so a page left open while entries are
 * acknowledged still shows rows. The figures (counts, holders' totals, the
 * parking hazard) stay those of the whole read.
 */
export function pageOfReservations(reservations: Reservations, number: number, size: number): ReservationsPage {
  const count = Math.max(1, Math.ceil(reservations.total / size));
  const shown = Math.min(Math.max(1, number), count);
  const start = (shown - 1) * size;
  const end = Math.min(start + size, reservations.total);
  const holders: HolderGroup[] = [];
  let offset = 0;
  for (const group of reservations.holders) {
    const rows = group.rows.slice(Math.max(0, start - offset), Math.max(0, end - offset));
    // Parked jobs are no entries to page through: the first page shows them all, so a holder with only parked jobs is not lost.
    const parked = shown === 1 ? group.parked : [];
    if (rows.length > 0 || parked.length > 0) holders.push({ ...group, rows, parked });
    offset += group.rows.length;
  }
  return { ...reservations, holders, page: { number: shown, count, size, first: end > start ? start + 1 : 0, last: end } };
}

/** A reservation row in the layout-neutral shape, its holder and claim kept in `claim`. */
function expiringOf(row: ReservationRow, now: number): ExpiringReservation {
  const deadline = Number(row.reservedUntil);
  const expiresAt = row.reservedUntil !== '' && Number.isFinite(deadline) && deadline > 0 ? deadline : null;
  return {
    id: row.jobId === null ? '' : String(row.jobId),
    name: row.name,
    attempts: Number(row.attempts ?? 0) || 0,
    // The level is the claim's: the page shows it beside the queue.
    priority: null,
    expiresAt,
    reservedSince: Math.floor(row.deliveredAtMs / 1000),
    expired: row.state === 'overdue' || (expiresAt !== null && expiresAt <= now),
    note: null,
    claim: {
      queue: row.queue,
      level: row.level,
      stream: row.stream,
      entry: row.entry,
      jobId: row.jobId,
      state: row.state,
      mismatch: row.mismatch,
      holder: row.reservedBy,
      reservedUntil: row.reservedUntil,
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      idleMs: row.idleMs,
      deliveries: row.deliveries,
      timeoutSeconds: row.timeoutSeconds,
    },
  };
}

function parkedOf(job: ParkedJob): ParkedReservation {
  return {
    queue: job.queue,
    jobId: job.jobId,
    name: job.name,
    holder: job.reservedBy,
    reservedUntil: job.reservedUntil,
    untilSeconds: job.untilSeconds,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
  };
}

/** One page of StaticPHP's reservations in the shape every layout's reservations page reads: no rows by queue, every row in its holder's group. */
export function expiringPageOf(reservations: ReservationsPage): ExpiringReservationsPage {
  const { now } = reservations;
  return {
    now,
    queues: [],
    byHolder: {
      groups: reservations.holders.map((group) => ({
        holder: group.holder,
        rows: group.rows.map((row) => expiringOf(row, now)),
        parked: group.parked.map(parkedOf),
        held: group.held,
        timeoutSeconds: group.timeoutSeconds,
      })),
      counts: reservations.counts,
      total: reservations.total,
      parkedTotal: reservations.parkedTotal,
      parkingHazard: reservations.parkingHazard,
      truncated: reservations.truncated,
      errors: reservations.errors,
      queuesRead: reservations.queuesRead,
      queueNames: reservations.queues,
      queue: reservations.queue,
      window: reservations.page,
    },
  };
}

/**
 * The reservations page's reader for StaticPHP: every pending entry (of one
 * queue, when the scope names one) read whole, grouped by holder, and the
 * page of PAGE_ROWS rows asked for cut from it.
 */
export function staticphpReservations(queue: RedisQueue, limits: ReservationLimits = {}): ExpiringReservationsReader {
  return {
    read: async ({ queue: name, among, page }) =>
      expiringPageOf(pageOfReservations(await readReservations(queue, limits, { queue: name, ...(among === undefined ? {} : { among }) }), page, PAGE_ROWS)),
  };
}

/** StaticPHP's claim repairs: the driver's own scripts, each re-checking the hand-out and the hash the operator saw. */
export function staticphpClaimRepairs(queue: RedisQueue): ClaimRepairs {
  return {
    release: (seen) => releaseReservation(queue, seen),
    fail: (seen, reason) => failReservation(queue, seen, reason),
    cleanUp: (seen) => cleanTombstone(queue, seen),
  };
}
