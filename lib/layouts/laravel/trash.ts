import type { RedisConnection } from '../../redis/connection';
import type { TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { keptBytesColumns, layoutTrashKeys, readTrashPage, restoreInBatches, trashShelf, type TrashedJobColumns } from '../trash';
import type { LaravelKeys } from './keys';
import { laravelNameOfHead } from './payload';
import { restoreTrashed } from './scripts';

/**
 * Bytes of each kept payload a page of the trash reads: its name is near the
 * top (displayName comes second, after the uuid), and a payload can be
 * megabytes (data.command is the serialized job, models and all).
 */
const TRASHED_PAYLOAD_LIMIT = 4 * 1024;

/** A removed Laravel job is kept as a hash of one field, its id, holding the payload's bytes (lua/laravel/remove-4.lua): a row reads its first bytes for its name. */
function trashedColumns(connection: RedisConnection): TrashedJobColumns {
  return keptBytesColumns(connection, TRASHED_PAYLOAD_LIMIT, (head, length) => laravelNameOfHead(head, length) ?? '');
}

/** Puts these ids back where Laravel keeps them, BATCH_SIZE per script call (lua/laravel/restore-1.lua). */
function restoreJobs(connection: RedisConnection, keys: LaravelKeys, settings: TrashSettings, ids: readonly string[]) {
  const trash = layoutTrashKeys(keys.prefix, settings.dashboardPrefix);
  return restoreInBatches(connection, ids, (batch) =>
    restoreTrashed.run(connection.redis, { trashIndex: trash.index, trashPrefix: trash.prefix, laravelPrefix: keys.prefix, ids: batch }),
  );
}

/** Laravel's trash: the payloads its remove kept, listed by their names and put back where Laravel's own push, later or migrate would. */
export function laravelTrash(connection: RedisConnection, keys: LaravelKeys): TrashBin {
  return {
    list: (settings, offset, limit, filter) =>
      readTrashPage(
        connection,
        [trashShelf(layoutTrashKeys(keys.prefix, settings.dashboardPrefix), trashedColumns(connection))],
        settings,
        offset,
        limit,
        filter,
      ),
    restore: (settings, ids) => restoreJobs(connection, keys, settings, ids),
    listedId: (_queue, id) => id,
  };
}
