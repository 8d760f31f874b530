import { DISPLAY_LIMIT_BYTES, displayValueOf, type DisplayValue } from '../../shapes/display-text';
import type { DelayedTimeline } from '../../shapes/delayed-timeline';
import { readScoredTimeline } from '../scored-timeline';
import { jobHashOf, jobPageFields, readJobHash } from '../job-hash-read';
import { heldPrefixesOf, type HeldForRead } from '../held-prefixes';
import { execPipeline, settlePipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import { parsePhpSerialized, type PhpParse } from '../php-serialized';
import type { MarkoKeys } from './keys';
import { MARKO_NO_HOLDER } from './absent';
import { jobClassOf, splitSignedPayload, UNVERIFIED_SIGNATURE } from './payload';

/**
 * marko's jobs as the pages read them: a page of a queue's ready list, its
 * delayed timeline, its reservations and one job's detail. Bounded: ranges
 * of a page, and each job hash read inside Redis as its fields' first bytes
 * (lua/shared/read-job-1.lua, shared with StaticPHP's job page).
 */

/** Bytes of each field read for a row of a list: enough for the class at the start of the serialized job. */
const ROW_FIELD_LIMIT = 1024;
/** A job hash with more fields than this is not read (marko's has three). */
const MAX_JOB_FIELDS = 256;
/** Ready-list entries searched for a job's place on its page. */
export const PLACE_SEARCH_LIMIT = 10_000;

/** What a list row shows of a job: from its hash, which is read generically. */
export interface MarkoJobSummary {
  id: string;
  /** false when the id's hash is gone (the doctor reports it) */
  exists: boolean;
  /** the serialized job's class, '' when its payload is no signed PHP object */
  className: string;
  /** the hash's `attempts` field (reservations so far), null when it has none */
  attempts: number | null;
}

/** The read of a row's job hash at `jobKey` (the driver's, or where the trash keeps it), its long values' first bytes held between reads. */
export function markoRowRead(queue: RedisConnection, jobKey: string): HeldForRead {
  return heldPrefixesOf(queue).heldFor(jobKey, ROW_FIELD_LIMIT, MAX_JOB_FIELDS);
}

/** Job `id`'s row from the reply to its `held` read (one of lua/shared/read-job-1.lua, or the pipeline's error). */
export function markoJobSummaryOf(id: string, reply: unknown, held: HeldForRead): MarkoJobSummary {
  const hash = Array.isArray(reply) ? jobHashOf(readJobHash.reply(reply), held) : { type: 'none' };
  if (!('fields' in hash)) return { id, exists: hash.type === 'hash', className: '', attempts: null };
  let className = '';
  for (const field of hash.fields) {
    const payload = splitSignedPayload(field.prefix, field.bytes);
    if (payload) {
      className = jobClassOf(payload.serialized)?.className ?? '';
      break;
    }
  }
  const attempts = hash.fields.find((field) => field.name === 'attempts');
  const count = attempts ? Number(attempts.prefix.toString()) : NaN;
  return { id, exists: true, className, attempts: Number.isFinite(count) ? count : null };
}

async function summariesOf(queue: RedisConnection, keys: MarkoKeys, ids: readonly string[]): Promise<MarkoJobSummary[]> {
  if (ids.length === 0) return [];
  const pipeline = queue.redis.pipeline();
  const held = ids.map((id) => markoRowRead(queue, keys.job(id)));
  for (const read of held) readJobHash.queue(pipeline, read.call);
  const replies = await settlePipeline(pipeline);
  return ids.map((id, i) => markoJobSummaryOf(id, replies[i], held[i]!));
}

export interface MarkoReadyPage {
  queue: string;
  /** the ready list's length */
  total: number;
  offset: number;
  /** in list order from its head: marko's README says "in order" without naming the end a pop takes, so the head is taken to run first */
  jobs: (MarkoJobSummary & { position: number })[];
}

/** `limit` ready jobs of `name` from `offset`, head first. */
export function readReadyJobs(queue: RedisConnection, keys: MarkoKeys, name: string, offset: number, limit: number): Promise<MarkoReadyPage> {
  return queue.attempt(async () => {
    const [total, ids] = (await execPipeline(
      queue.redis
        .pipeline()
        .llen(keys.ready(name))
        .lrange(keys.ready(name), offset, offset + limit - 1),
    )) as [number, string[]];
    const jobs = (await summariesOf(queue, keys, ids)).map((job, i) => ({ ...job, position: offset + i }));
    return { queue: name, total, offset, jobs };
  });
}

/** A delayed job as the timeline lists it. */
export interface MarkoDelayedJob extends MarkoJobSummary {
  /** the delayed set's score: when it becomes available, unix seconds */
  dueAt: number;
  /** a backed-off retry rather than a first run: its hash counts a reservation already */
  retry: boolean;
}

/**
 * lib/shapes/delayed-timeline.ts's DelayedTimeline with marko's jobs. `now`
 * is the Redis server's clock, an approximation of the PHP hosts' clocks,
 * which marko compares by; every pop moves all due jobs, so `attendance`
 * calls a queue unattended when a job has been due for a minute, and marko
 * records no delivery (lastDeliveredEntryAt is null).
 */
export type MarkoDelayedTimeline = Omit<DelayedTimeline, 'next'> & {
  /** soonest first, overdue ones included */
  next: MarkoDelayedJob[];
};

/** One queue's delayed set over time (lib/layouts/scored-timeline.ts) with the next `limit` jobs described from their hashes. */
export function readMarkoDelayedTimeline(queue: RedisConnection, keys: MarkoKeys, name: string, { limit = 20 } = {}): Promise<MarkoDelayedTimeline> {
  return queue.attempt(async () => {
    const timeline = await readScoredTimeline(queue.redis, keys.delayed(name), limit);
    const summaries = await summariesOf(
      queue,
      keys,
      timeline.next.map(({ member }) => member.toString()),
    );
    return { ...timeline, queue: name, next: summaries.map((job, i) => ({ ...job, dueAt: timeline.next[i]!.score, retry: (job.attempts ?? 0) > 0 })) };
  });
}

export interface MarkoReservation extends MarkoJobSummary {
  /** the reserved set's score: when the reservation expires, unix seconds */
  expiresAt: number;
  /** expired by the server's clock: the next pop of this queue puts it back in line */
  expired: boolean;
  /** expiresAt − queue.retry_after, when the connection knows retry_after; null otherwise */
  reservedSince: number | null;
}

export interface MarkoReservations {
  queue: string;
  now: number;
  total: number;
  /** of the whole set, expired by the server's clock */
  expiredTotal: number;
  offset: number;
  reservations: MarkoReservation[];
  holderKnown: false;
  /** what a page says instead of a holder */
  holderAbsent: string;
}

/** `limit` reservations of `name` from `offset`, soonest to expire first. */
export function readMarkoReservations(
  queue: RedisConnection,
  keys: MarkoKeys,
  name: string,
  retryAfter: number | null,
  offset: number,
  limit: number,
): Promise<MarkoReservations> {
  return queue.attempt(async () => {
    const [time, total, flat] = (await execPipeline(
      queue.redis
        .pipeline()
        .time()
        .zcard(keys.reserved(name))
        .zrange(keys.reserved(name), offset, String(offset + limit - 1), 'WITHSCORES'),
    )) as [[string, string], number, string[]];
    const now = Number(time[0]);
    const pairs: [string, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, Number(flat[i + 1])]);
    const [summaries, expiredTotal] = await Promise.all([
      summariesOf(
        queue,
        keys,
        pairs.map(([id]) => id),
      ),
      queue.redis.zcount(keys.reserved(name), '-inf', now),
    ]);
    const reservations = summaries.map((job, i) => {
      const expiresAt = pairs[i]![1];
      return { ...job, expiresAt, expired: expiresAt <= now, reservedSince: retryAfter === null ? null : expiresAt - retryAfter };
    });
    return { queue: name, now, total, expiredTotal, offset, reservations, holderKnown: false, holderAbsent: MARKO_NO_HOLDER };
  });
}

/** A field of the job hash holding a signed payload, split into its parts. */
export interface MarkoSignedField {
  signature: string;
  encoding: 'b64' | 'raw';
  /** the job as a tree, never instantiated; read from the field's first 64 KiB */
  job: PhpParse;
  className: string | null;
  /** the could-not-serialize placeholder marko stores instead of the job */
  placeholder: boolean;
  signatureNote: string;
}

/** Where a job's id is, read from the structures of the queue its hash names. */
export type MarkoJobPlace =
  | { state: 'ready'; position: number }
  | { state: 'delayed'; until: number }
  | { state: 'reserved'; until: number; expired: boolean }
  /** further down a ready list than PLACE_SEARCH_LIMIT, or in none */
  | { state: 'unknown' };

export interface MarkoJobDetail {
  id: string;
  /** every field of the hash, generically: its name and value as text (the first 64 KiB) */
  fields: { name: string; value: DisplayValue; signed: MarkoSignedField | null }[];
  /** the hash's `queue` field, '' when none */
  queue: string;
  place: MarkoJobPlace;
  now: number;
}

/** A field as a page shows it: its first bytes (`prefix`, of `bytes` stored) and, when they are a signed payload, that payload decoded. */
export function markoFieldOf(name: string, prefix: Buffer, bytes: number): MarkoJobDetail['fields'][number] {
  const payload = splitSignedPayload(prefix, bytes);
  const head = payload && jobClassOf(payload.serialized);
  const signed = payload && {
    signature: payload.signature,
    encoding: payload.encoding,
    job: parsePhpSerialized(payload.serialized),
    className: head?.className ?? null,
    placeholder: head?.placeholder ?? false,
    signatureNote: UNVERIFIED_SIGNATURE,
  };
  return { name, value: displayValueOf(prefix, bytes), signed };
}

/** One job's hash, every field shown and a signed payload decoded; null when gone. Throws QueueError when the key is no job hash. */
export function readMarkoJob(queue: RedisConnection, keys: MarkoKeys, id: string): Promise<MarkoJobDetail | null> {
  return queue.attempt(async () => {
    const key = keys.job(id);
    const held = heldPrefixesOf(queue).heldFor(key, DISPLAY_LIMIT_BYTES, MAX_JOB_FIELDS);
    const pipeline = queue.redis.pipeline().time();
    readJobHash.queue(pipeline, held.call);
    const [time, reply] = (await execPipeline(pipeline)) as [[string, string], unknown];
    const read = jobPageFields(key, jobHashOf(readJobHash.reply(reply), held));
    if (read === null) return null;
    const now = Number(time[0]);
    const fields = read.map(({ name, bytes, prefix }) => markoFieldOf(name, prefix, bytes));
    const queueName = read.find((field) => field.name === 'queue')?.prefix.toString() ?? '';
    return { id, fields, queue: queueName, place: queueName === '' ? { state: 'unknown' } : await placeOf(queue, keys, queueName, id, now), now };
  });
}

async function placeOf(queue: RedisConnection, keys: MarkoKeys, name: string, id: string, now: number): Promise<MarkoJobPlace> {
  // One transaction: a pop moving the job between the three reads would otherwise leave it nowhere.
  const [position, delayed, reserved] = (await execPipeline(
    queue.redis.multi().lpos(keys.ready(name), id, 'MAXLEN', PLACE_SEARCH_LIMIT).zscore(keys.delayed(name), id).zscore(keys.reserved(name), id),
  )) as [number | null, string | null, string | null];
  if (reserved !== null) return { state: 'reserved', until: Number(reserved), expired: Number(reserved) <= now };
  if (delayed !== null) return { state: 'delayed', until: Number(delayed) };
  return position !== null ? { state: 'ready', position } : { state: 'unknown' };
}
