import { execPipeline } from '../../redis/pipeline';
import { BATCH_SIZE } from '../../shapes/failed-jobs';
import type { RestoreOutcome, TrashPage, TrashRow, TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import type { RedisQueue } from './redis-queue';
import * as scripts from './scripts';

/** The trash's rows the Trash page shows at most at once. */
export const TRASH_PAGE_LIMIT = 200;

function rowOf(id: string, trashedAt: number, where: Record<string, string>, job: (string | null)[]): TrashRow {
  const [name, queue, error] = job;
  return {
    id,
    name: name ?? '',
    queue: queue ?? where.queue ?? '',
    from: where.from ?? '',
    score: where.score ?? '',
    error: error ?? '',
    who: where.who ?? '',
    via: where.via ?? '',
    trashedAt,
    expiresAt: Number(where.until ?? 0),
  };
}

/**
 * One page of the trash, newest first: the index read once, then every row's
 * two hashes in one pipeline. An entry whose keys expired before the next
 * forget trimmed the index is left out.
 */
export async function readTrashPage(queue: RedisQueue, settings: TrashSettings, offset: number, limit: number): Promise<TrashPage> {
  const keys = queue.trashKeys(settings.dashboardPrefix);
  const count = Math.min(Math.max(limit, 1), TRASH_PAGE_LIMIT);
  return queue.attempt(async () => {
    // The server's clock, which the scripts stamp and expire by.
    const [now] = await queue.redis.time();
    const liveSince = (Number(now) - settings.keepSeconds) * 1000;
    const [entries, total] = await Promise.all([
      queue.redis.zrevrange(keys.index, offset, offset + count - 1, 'WITHSCORES'),
      queue.redis.zcount(keys.index, `(${liveSince}`, '+inf'),
    ]);
    const ids = entries.filter((_, index) => index % 2 === 0);
    const pipeline = queue.redis.pipeline();
    for (const id of ids) {
      pipeline.hgetall(keys.where(id));
      pipeline.hmget(keys.job(id), 'name', 'queue', 'error');
    }
    const replies = ids.length === 0 ? [] : await execPipeline(pipeline);
    const rows = ids.flatMap((id, index) => {
      const where = replies[index * 2] as Record<string, string>;
      if (Object.keys(where).length === 0) return [];
      return [rowOf(id, Math.floor(Number(entries[index * 2 + 1]) / 1000), where, replies[index * 2 + 1] as (string | null)[])];
    });
    return { rows, total, keepSeconds: settings.keepSeconds, maxEntries: settings.maxEntries, now: Number(now) };
  });
}

/** Restores these ids, BATCH_SIZE per script call (lua/staticphp/restore-2.lua). */
export async function restoreFromTrash(queue: RedisQueue, settings: TrashSettings, ids: readonly string[]): Promise<{ id: string; outcome: RestoreOutcome }[]> {
  const keys = queue.trashKeys(settings.dashboardPrefix);
  return queue.attempt(async () => {
    const outcomes: { id: string; outcome: RestoreOutcome }[] = [];
    for (let start = 0; start < ids.length; start += BATCH_SIZE) {
      const batch = ids.slice(start, start + BATCH_SIZE);
      outcomes.push(
        ...(await scripts.restore.run(queue.redis, {
          failed: queue.keys.failed,
          trashIndex: keys.index,
          prefix: queue.keys.prefix,
          trashPrefix: keys.prefix,
          ids: batch,
        })),
      );
    }
    return outcomes;
  });
}

/** StaticPHP's trash: what its forget kept, listed and put back. */
export function staticphpTrash(queue: RedisQueue): TrashBin {
  return {
    list: (settings, offset, limit) => readTrashPage(queue, settings, offset, limit),
    restore: (settings, ids) => restoreFromTrash(queue, settings, ids),
  };
}
