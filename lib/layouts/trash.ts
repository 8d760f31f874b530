import type { ChainableCommander } from 'ioredis';
import { dashboardKeys, DEFAULT_DASHBOARD_PREFIX, trashKeys, type TrashKeys } from '../dashboard/keys';
import type { RedisConnection } from '../redis/connection';
import { replyRows } from '../redis/lua-script';
import { execPipeline } from '../redis/pipeline';
import { heldPrefixesOf, type HeldForRead } from './held-prefixes';
import { jobHashOf, readJobHash } from './job-hash-read';
import { BATCH_SIZE } from '../shapes/failed-jobs';
import {
  isTrashFiltered,
  matchesTrashFilter,
  NO_TRASH_FILTER,
  type RestoredJob,
  type RestoreOutcome,
  type TrashFilter,
  type TrashPage,
  type TrashRow,
  type TrashSettings,
  type TrashWrite,
} from '../shapes/trash';

/*
 * What every layout's trash shares: the arguments its forget script takes,
 * restoring in bounded batches, and reading a page of it.
 */

/** The trash of the driver keys under `driverPrefix`, under QueueLens's `dashboardPrefix` (lib/dashboard/keys.ts). */
export function layoutTrashKeys(driverPrefix: string, dashboardPrefix: string): TrashKeys {
  return trashKeys(dashboardKeys(dashboardPrefix), driverPrefix);
}

/**
 * The trash arguments of a forget or remove script, for the driver keys under
 * `driverPrefix`. Without a trash they keep nothing (0 s): the script then
 * deletes as the driver does, and the trash's index key is never written.
 */
export function trashArguments(driverPrefix: string, trash: TrashWrite | undefined) {
  const keys = layoutTrashKeys(driverPrefix, trash?.dashboardPrefix ?? DEFAULT_DASHBOARD_PREFIX);
  return {
    trashIndex: keys.index,
    trashPrefix: keys.prefix,
    keepSeconds: trash?.keepSeconds ?? 0,
    maxEntries: trash?.maxEntries ?? 0,
    maxBytes: trash?.maxBytes ?? 0,
    who: trash?.who ?? '',
    via: trash?.via ?? '',
  };
}

/** The reply of every restore script (lua/includes/trash.lua restoreEach): id, outcome and queue for each id asked for, as text. */
export function restoredJobsReply(reply: unknown): RestoredJob[] {
  return replyRows(reply as unknown[], 3, (at) => ({ id: String(at(0)), outcome: String(at(1)) as RestoreOutcome, queue: String(at(2)) }));
}

/** Restores `ids` BATCH_SIZE per call of `restoreBatch` (one script call each), over `connection`. */
export function restoreInBatches(
  connection: RedisConnection,
  ids: readonly string[],
  restoreBatch: (batch: string[]) => Promise<RestoredJob[]>,
): Promise<RestoredJob[]> {
  return connection.attempt(async () => {
    const outcomes: RestoredJob[] = [];
    for (let start = 0; start < ids.length; start += BATCH_SIZE) outcomes.push(...(await restoreBatch(ids.slice(start, start + BATCH_SIZE))));
    return outcomes;
  });
}

/** The trash's rows the Trash page shows at most at once. */
export const TRASH_PAGE_LIMIT = 200;

/** A trashed job's own columns, read by one command from its key in the trash as its layout keeps it there. */
export interface TrashedJobColumns {
  /** queues the one read of job `id` (kept at `jobKey`, taken `from` where its where-hash says) on `pipeline` */
  queue(pipeline: ChainableCommander, jobKey: string, id: string, from: string): void;
  /** the columns from that read's reply */
  read(reply: unknown, id: string, from: string): Pick<TrashRow, 'name' | 'queue' | 'error'>;
}

/** A hash QueueLens keeps one job's bytes in has one field, its id: a key with more is not one it wrote, and is not read. */
const KEPT_BYTES_FIELDS = 1;

/**
 * The columns of a trash that keeps each job as a hash of one field, its id,
 * holding the job's bytes (a yii2 message, a Laravel payload): its first
 * `limit` bytes, read as a job page reads a job hash
 * (lua/shared/read-job-1.lua: a hash field has no ranged read, so a long one
 * is copied whole once inside Redis but crosses the network as `limit`
 * bytes, and not copied again while its first bytes are held,
 * held-prefixes.ts), for the name `nameOf` finds in them. Made per page
 * read: it holds each read between queueing it and reading its reply.
 */
export function keptBytesColumns(connection: RedisConnection, limit: number, nameOf: (head: Buffer, length: number) => string): TrashedJobColumns {
  const reads = new Map<string, HeldForRead>();
  return {
    queue: (pipeline, jobKey, id) => {
      const read = heldPrefixesOf(connection).heldFor(jobKey, limit, KEPT_BYTES_FIELDS);
      reads.set(id, read);
      readJobHash.queue(pipeline, read.call);
    },
    read: (reply, id) => {
      const read = reads.get(id);
      const hash = Array.isArray(reply) && read !== undefined ? jobHashOf(readJobHash.reply(reply), read) : { type: 'none' };
      const kept = 'fields' in hash ? hash.fields.find((field) => field.name === id) : undefined;
      // The queue is the where-hash's.
      return { name: kept === undefined ? '' : nameOf(kept.prefix, kept.bytes), queue: '', error: '' };
    },
  };
}

/**
 * One trash index of a layout and how its jobs are read: a layout with one
 * trash has one shelf; yii2 has one per channel (each in its channel's hash
 * slot), and lists its ids qualified by the channel (`listedId`).
 */
export interface TrashShelf {
  keys: TrashKeys;
  columns: TrashedJobColumns;
  /** the id a row of this shelf is listed, and restored, under */
  listedId(id: string): string;
}

/** A shelf whose ids are listed as they are. */
export function trashShelf(keys: TrashKeys, columns: TrashedJobColumns): TrashShelf {
  return { keys, columns, listedId: (id) => id };
}

/** One entry of a shelf's index, as the page lists it. */
interface ShelfEntry {
  shelf: TrashShelf;
  id: string;
  trashedMs: number;
}

/** Index entries a filtered read looks at per round trip: one ZREVRANGE and as many small HMGETs per shelf. */
const FILTER_CHUNK = 1000;

/**
 * The newest `offset + count` entries of every shelf, merged by when they
 * were trashed (one shelf is paged in Redis), and how many are live: one
 * round trip.
 */
async function newestEntries(connection: RedisConnection, shelves: readonly TrashShelf[], liveSince: number, offset: number, count: number) {
  const single = shelves.length === 1;
  const [start, skip] = single ? [offset, 0] : [0, offset];
  const pipeline = connection.redis.pipeline();
  for (const { keys } of shelves) pipeline.zcount(keys.index, `(${liveSince}`, '+inf');
  // No range for a count of 0: ZREVRANGE's stop of offset - 1 would be -1, the whole index.
  if (count > 0) for (const { keys } of shelves) pipeline.zrevrange(keys.index, start, offset + count - 1, 'WITHSCORES');
  const replies = await execPipeline(pipeline);
  const entries = shelves
    .flatMap((shelf, at) => pairsOf((replies[shelves.length + at] ?? []) as string[]).map(([id, score]) => ({ shelf, id, trashedMs: Number(score) })))
    .sort((a, b) => b.trashedMs - a.trashedMs)
    .slice(skip, skip + count);
  return { entries, total: shelves.reduce((sum, _, at) => sum + Number(replies[at]), 0) };
}

/**
 * The entries whose where-hash matches `filter`, newest first, and how many
 * match: every shelf's index walked whole, FILTER_CHUNK entries a round trip
 * (the index holds at most QUEUELENS_TRASH_MAX entries, 10,000 by default).
 */
async function filteredEntries(connection: RedisConnection, shelves: readonly TrashShelf[], filter: TrashFilter, offset: number, count: number) {
  const matches: ShelfEntry[] = [];
  for (const shelf of shelves) {
    for (let start = 0; ; start += FILTER_CHUNK) {
      const chunk = pairsOf(await connection.redis.zrevrange(shelf.keys.index, start, start + FILTER_CHUNK - 1, 'WITHSCORES'));
      if (chunk.length === 0) break;
      const pipeline = connection.redis.pipeline();
      for (const [id] of chunk) pipeline.hmget(shelf.keys.where(id), 'queue', 'from', 'who');
      const wheres = (await execPipeline(pipeline)) as (string | null)[][];
      chunk.forEach(([id, score], index) => {
        const [queue, from, who] = wheres[index]!;
        // An entry whose where-hash expired (from is null) is past its time: left out, as an unfiltered page leaves it.
        if (typeof from === 'string' && matchesTrashFilter(filter, { queue: queue ?? '', from, who: who ?? '' })) {
          matches.push({ shelf, id, trashedMs: Number(score) });
        }
      });
      if (chunk.length < FILTER_CHUNK) break;
    }
  }
  matches.sort((a, b) => b.trashedMs - a.trashedMs);
  return { entries: matches.slice(offset, offset + count), total: matches.length };
}

/**
 * One page of a layout's trash, newest first, narrowed by `filter` (each
 * shelf's index read once without one, walked whole with one), then every
 * row's where-hash in one pipeline, then its job's columns in another (a
 * layout keeps a job by what it was taken from). An entry whose keys
 * expired before the next forget trimmed the index is left out. A `limit` of
 * 0 reads no row: the counts alone, in two round trips.
 */
export async function readTrashPage(
  connection: RedisConnection,
  shelves: readonly TrashShelf[],
  settings: TrashSettings,
  offset: number,
  limit: number,
  filter: TrashFilter = NO_TRASH_FILTER,
): Promise<TrashPage> {
  const count = Math.min(Math.max(limit, 0), TRASH_PAGE_LIMIT);
  return connection.attempt(async () => {
    // The server's clock, which the scripts stamp and expire by.
    const [now] = await connection.redis.time();
    const liveSince = (Number(now) - settings.keepSeconds) * 1000;
    const [{ entries, total }, bytes] = await Promise.all([
      isTrashFiltered(filter) ? filteredEntries(connection, shelves, filter, offset, count) : newestEntries(connection, shelves, liveSince, offset, count),
      keptBytes(connection, shelves),
    ]);
    const wherePipeline = connection.redis.pipeline();
    for (const { shelf, id } of entries) wherePipeline.hgetall(shelf.keys.where(id));
    const wheres = entries.length === 0 ? [] : ((await execPipeline(wherePipeline)) as Record<string, string>[]);
    const kept = entries.flatMap((entry, index) => (Object.keys(wheres[index]!).length === 0 ? [] : [{ ...entry, where: wheres[index]! }]));
    const columnPipeline = connection.redis.pipeline();
    for (const { shelf, id, where } of kept) shelf.columns.queue(columnPipeline, shelf.keys.job(id), id, where.from ?? '');
    const replies = kept.length === 0 ? [] : await execPipeline(columnPipeline);
    const rows = kept.map(({ shelf, id, trashedMs, where }, index) =>
      rowOf(shelf.listedId(id), Math.floor(trashedMs / 1000), where, shelf.columns.read(replies[index], id, where.from ?? '')),
    );
    const { keepSeconds, maxEntries, maxBytes } = settings;
    return { rows, total, keepSeconds, maxEntries, maxBytes, bytes, now: Number(now) };
  });
}

/** The memory every shelf's kept jobs take, as the byte bound counts it: a GET a shelf, pipelined (yii2's shelves are in their channels' slots, which one MGET could not span). */
async function keptBytes(connection: RedisConnection, shelves: readonly TrashShelf[]): Promise<number> {
  if (shelves.length === 0) return 0;
  const totals = await execPipeline(shelves.reduce((pipeline, shelf) => pipeline.get(shelf.keys.bytes), connection.redis.pipeline()));
  return Math.max(
    0,
    totals.reduce<number>((sum, total) => sum + Number(total ?? 0), 0),
  );
}

/** A WITHSCORES reply as (member, score) pairs. */
function pairsOf(reply: readonly string[]): [string, string][] {
  return reply.flatMap((member, index) => (index % 2 === 0 ? [[member, reply[index + 1]!] as [string, string]] : []));
}

function rowOf(id: string, trashedAt: number, where: Record<string, string>, job: Pick<TrashRow, 'name' | 'queue' | 'error'>): TrashRow {
  return {
    id,
    name: job.name,
    queue: job.queue || (where.queue ?? ''),
    from: where.from ?? '',
    score: where.score ?? '',
    error: job.error,
    who: where.who ?? '',
    via: where.via ?? '',
    trashedAt,
    expiresAt: Number(where.until ?? 0),
  };
}
