import type { RedisConnection } from '../../redis/connection';
import type { TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { readJobHash } from '../job-hash-read';
import type { HeldForRead } from '../held-prefixes';
import { readTrashPage, restoreInBatches, trashShelf, type TrashedJobColumns } from '../trash';
import { failedRowOf, type MarkoFailedJobs } from './failed';
import type { MarkoKeys } from './keys';
import { markoJobSummaryOf, markoRowRead } from './reads';
import { readFailedRecords, restoreTrashed } from './scripts';

/** Bytes of each trashed record a page of the trash reads: enough for its queue and class, and its exception's first line from where it begins. */
const TRASHED_RECORD_LIMIT = 16 * 1024;

/**
 * marko keeps two kinds of job in its trash: a forgotten failed record (a
 * hash of one field, its id, holding the record's bytes), read as the failed
 * list reads one; and a removed job's own hash, renamed there whole, read as
 * a queue's rows read one. Made per page read: it holds each job hash's read
 * between queueing it and reading its reply.
 */
function trashedColumns(connection: RedisConnection): TrashedJobColumns {
  const jobReads = new Map<string, HeldForRead>();
  return {
    queue: (pipeline, jobKey, id, from) => {
      if (from === 'failed') return void readFailedRecords.queue(pipeline, { failedJobs: jobKey, limit: TRASHED_RECORD_LIMIT, ids: [id] });
      const read = markoRowRead(connection, jobKey);
      jobReads.set(id, read);
      readJobHash.queue(pipeline, read.call);
    },
    read: (reply, id, from) => {
      const jobRead = jobReads.get(id);
      if (from !== 'failed' && jobRead !== undefined) return { name: markoJobSummaryOf(id, reply, jobRead).className, queue: '', error: '' };
      const [record] = readFailedRecords.reply(reply);
      if (!record?.found) return { name: '', queue: '', error: '' };
      const row = failedRowOf(id, 0, record.length, record.head, record.exception);
      return { name: row.name ?? '', queue: row.queue, error: row.error };
    },
  };
}

/** Puts these ids back where marko keeps them, BATCH_SIZE per script call (lua/marko/restore-3.lua). */
function restoreJobs(connection: RedisConnection, keys: MarkoKeys, failed: MarkoFailedJobs, settings: TrashSettings, ids: readonly string[]) {
  const trash = failed.trashKeys(settings.dashboardPrefix);
  return restoreInBatches(connection, ids, (batch) =>
    restoreTrashed.run(connection.redis, {
      failedJobs: keys.failedJobs,
      failedIndex: keys.failedIndex,
      trashIndex: trash.index,
      trashPrefix: trash.prefix,
      markoPrefix: keys.prefix,
      ids: batch,
    }),
  );
}

/** marko's trash: the failed records its forget kept and the jobs its remove kept, listed and put back. */
export function markoTrash(connection: RedisConnection, keys: MarkoKeys, failed: MarkoFailedJobs): TrashBin {
  return {
    list: (settings, offset, limit, filter) =>
      readTrashPage(connection, [trashShelf(failed.trashKeys(settings.dashboardPrefix), trashedColumns(connection))], settings, offset, limit, filter),
    restore: (settings, ids) => restoreJobs(connection, keys, failed, settings, ids),
    listedId: (_queue, id) => id,
  };
}
