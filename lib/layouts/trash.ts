import type { ChainableCommander } from 'ioredis';
import { DEFAULT_DASHBOARD_PREFIX, type TrashKeys } from '../dashboard/keys';
import type { RedisConnection } from '../redis/connection';
import { execPipeline } from '../redis/pipeline';
import { BATCH_SIZE } from '../shapes/failed-jobs';
import type { RestoreOutcome, TrashPage, TrashRow, TrashSettings, TrashWrite } from '../shapes/trash';

/*
 * What every layout's trash shares: the arguments its forget script takes,
 * restoring in bounded batches, and reading a page of it.
 */

/**
 * The trash arguments of a forget script, from the layout's trash keys for a
 * dashboard prefix. Without a trash they keep nothing (0 s): the script then
 * deletes as the driver does, and the trash's index key is never written.
 */
export function trashArguments(trashKeysOf: (dashboardPrefix: string) => TrashKeys, trash: TrashWrite | undefined) {
  const keys = trashKeysOf(trash?.dashboardPrefix ?? DEFAULT_DASHBOARD_PREFIX);
  return {
    trashIndex: keys.index,
    trashPrefix: keys.prefix,
    keepSeconds: trash?.keepSeconds ?? 0,
    maxEntries: trash?.maxEntries ?? 0,
    who: trash?.who ?? '',
    via: trash?.via ?? '',
  };
}

/** Restores `ids` BATCH_SIZE per call of `restoreBatch` (one script call each), over `connection`. */
export function restoreInBatches(
  connection: RedisConnection,
  ids: readonly string[],
  restoreBatch: (batch: string[]) => Promise<{ id: string; outcome: RestoreOutcome }[]>,
): Promise<{ id: string; outcome: RestoreOutcome }[]> {
  return connection.attempt(async () => {
    const outcomes: { id: string; outcome: RestoreOutcome }[] = [];
    for (let start = 0; start < ids.length; start += BATCH_SIZE) outcomes.push(...(await restoreBatch(ids.slice(start, start + BATCH_SIZE))));
    return outcomes;
  });
}

/** The trash's rows the Trash page shows at most at once. */
export const TRASH_PAGE_LIMIT = 200;

/** A trashed job's own columns, read by one command from its key in the trash as its layout keeps it there. */
export interface TrashedJobColumns {
  /** queues the one read of job `id` (kept at `jobKey`) on `pipeline` */
  queue(pipeline: ChainableCommander, jobKey: string, id: string): void;
  /** the columns from that read's reply */
  read(reply: unknown, id: string): Pick<TrashRow, 'name' | 'queue' | 'error'>;
}

/**
 * One page of a layout's trash, newest first: the index read once, then
 * every row's where-hash and its job's columns in one pipeline. An entry
 * whose keys expired before the next forget trimmed the index is left out.
 */
export async function readTrashPage(
  connection: RedisConnection,
  keys: TrashKeys,
  columns: TrashedJobColumns,
  settings: TrashSettings,
  offset: number,
  limit: number,
): Promise<TrashPage> {
  const count = Math.min(Math.max(limit, 1), TRASH_PAGE_LIMIT);
  return connection.attempt(async () => {
    // The server's clock, which the scripts stamp and expire by.
    const [now] = await connection.redis.time();
    const liveSince = (Number(now) - settings.keepSeconds) * 1000;
    const [entries, total] = await Promise.all([
      connection.redis.zrevrange(keys.index, offset, offset + count - 1, 'WITHSCORES'),
      connection.redis.zcount(keys.index, `(${liveSince}`, '+inf'),
    ]);
    const ids = entries.filter((_, index) => index % 2 === 0);
    const pipeline = connection.redis.pipeline();
    for (const id of ids) {
      pipeline.hgetall(keys.where(id));
      columns.queue(pipeline, keys.job(id), id);
    }
    const replies = ids.length === 0 ? [] : await execPipeline(pipeline);
    const rows = ids.flatMap((id, index) => {
      const where = replies[index * 2] as Record<string, string>;
      if (Object.keys(where).length === 0) return [];
      const job = columns.read(replies[index * 2 + 1], id);
      return [rowOf(id, Math.floor(Number(entries[index * 2 + 1]) / 1000), where, job)];
    });
    return { rows, total, keepSeconds: settings.keepSeconds, maxEntries: settings.maxEntries, now: Number(now) };
  });
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
