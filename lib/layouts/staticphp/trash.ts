import type { RestoredJob, TrashFilter, TrashPage, TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { readTrashPage as readLayoutTrashPage, restoreInBatches, trashShelf, type TrashedJobColumns } from '../trash';
import type { RedisQueue } from './redis-queue';
import * as scripts from './scripts';

/** A trashed StaticPHP job is its own hash, renamed there whole: its columns are three of its fields. */
const JOB_HASH_COLUMNS: TrashedJobColumns = {
  queue: (pipeline, jobKey) => void pipeline.hmget(jobKey, 'name', 'queue', 'error'),
  read: (fields) => {
    const [name, queue, error] = fields as (string | null)[];
    return { name: name ?? '', queue: queue ?? '', error: error ?? '' };
  },
};

/** One page of StaticPHP's trash, newest first, narrowed by `filter`. */
export function readTrashPage(queue: RedisQueue, settings: TrashSettings, offset: number, limit: number, filter?: TrashFilter): Promise<TrashPage> {
  return readLayoutTrashPage(queue, [trashShelf(queue.trashKeys(settings.dashboardPrefix), JOB_HASH_COLUMNS)], settings, offset, limit, filter);
}

/** Restores these ids, BATCH_SIZE per script call (lua/staticphp/restore-2.lua). */
export function restoreFromTrash(queue: RedisQueue, settings: TrashSettings, ids: readonly string[]): Promise<RestoredJob[]> {
  const keys = queue.trashKeys(settings.dashboardPrefix);
  return restoreInBatches(queue, ids, (batch) =>
    scripts.restore.run(queue.redis, { failed: queue.keys.failed, trashIndex: keys.index, prefix: queue.keys.prefix, trashPrefix: keys.prefix, ids: batch }),
  );
}

/** StaticPHP's trash: what its forget kept, listed and put back. */
export function staticphpTrash(queue: RedisQueue): TrashBin {
  return {
    list: (settings, offset, limit, filter) => readTrashPage(queue, settings, offset, limit, filter),
    listedId: (_queue, id) => id,
    restore: (settings, ids) => restoreFromTrash(queue, settings, ids),
  };
}
