import type { RedisConnection } from '../../redis/connection';
import type { TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { readTrashPage, restoreInBatches, type TrashedJobColumns } from '../trash';
import { failedRowOf, type MarkoFailedJobs } from './failed';
import type { MarkoKeys } from './keys';
import { readFailedRecords, restoreFailed } from './scripts';

/** Bytes of each trashed record a page of the trash reads: enough for its queue and class, and its exception's first line from where it begins. */
const TRASHED_RECORD_LIMIT = 16 * 1024;

/** A trashed marko failed record is a hash of one field, its id, holding the record's bytes: read as the failed list reads one. */
const FAILED_RECORD_COLUMNS: TrashedJobColumns = {
  queue: (pipeline, jobKey, id) => readFailedRecords.queue(pipeline, { failedJobs: jobKey, limit: TRASHED_RECORD_LIMIT, ids: [id] }),
  read: (reply, id) => {
    const [record] = readFailedRecords.reply(reply);
    if (!record?.found) return { name: '', queue: '', error: '' };
    const row = failedRowOf(id, 0, record.length, record.head, record.exception);
    return { name: row.name ?? '', queue: row.queue, error: row.error };
  },
};

/** Puts these ids back among the failed records, BATCH_SIZE per script call (lua/marko/restore-3.lua). */
function restoreRecords(connection: RedisConnection, keys: MarkoKeys, failed: MarkoFailedJobs, settings: TrashSettings, ids: readonly string[]) {
  const trash = failed.trashKeys(settings.dashboardPrefix);
  return restoreInBatches(connection, ids, (batch) =>
    restoreFailed.run(connection.redis, {
      failedJobs: keys.failedJobs,
      failedIndex: keys.failedIndex,
      trashIndex: trash.index,
      trashPrefix: trash.prefix,
      ids: batch,
    }),
  );
}

/** marko's trash: the failed records its forget kept, listed and put back. */
export function markoTrash(connection: RedisConnection, keys: MarkoKeys, failed: MarkoFailedJobs): TrashBin {
  return {
    list: (settings, offset, limit) => readTrashPage(connection, failed.trashKeys(settings.dashboardPrefix), FAILED_RECORD_COLUMNS, settings, offset, limit),
    restore: (settings, ids) => restoreRecords(connection, keys, failed, settings, ids),
  };
}
