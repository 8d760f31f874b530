import type { RedisConnection } from '../../redis/connection';
import type { RestoredJob, TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { jobHashOf, readJobHash } from '../job-hash-read';
import { heldPrefixesOf, type HeldForRead } from '../held-prefixes';
import { keptBytesColumns, layoutTrashKeys, readTrashPage, restoreInBatches, trashShelf, type TrashedJobColumns, type TrashShelf } from '../trash';
import { horizonRowOf, type HorizonFailedJobs } from './horizon';
import type { LaravelKeys } from './keys';
import { laravelNameOfHead } from './payload';
import { restoreHorizonTrashed, restoreTrashed } from './scripts';

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

/** Fields of a kept Horizon record a page of the trash reads at most: its name, queue and the exception's first line. */
const TRASHED_RECORD_FIELDS = 32;

/** A forgotten Horizon failed job is kept as its whole job hash (lua/laravel/horizon-forget-failed-2.lua): a row reads it as the failed list does. */
function horizonColumns(connection: RedisConnection): TrashedJobColumns {
  const reads = new Map<string, HeldForRead>();
  return {
    queue: (pipeline, jobKey, id) => {
      const read = heldPrefixesOf(connection).heldFor(jobKey, TRASHED_PAYLOAD_LIMIT, TRASHED_RECORD_FIELDS);
      reads.set(id, read);
      readJobHash.queue(pipeline, read.call);
    },
    read: (reply, id) => {
      const read = reads.get(id);
      if (!Array.isArray(reply) || read === undefined) return { name: '', queue: '', error: '' };
      const row = horizonRowOf(id, 0, jobHashOf(readJobHash.reply(reply), read));
      return { name: row.name, queue: row.queue, error: row.errorFirstLine };
    },
  };
}

/** The trash's shelves: the payloads Laravel's remove kept, and, where Horizon is read, the failed records its forget kept (under Horizon's prefix). */
function shelvesOf(connection: RedisConnection, keys: LaravelKeys, horizon: HorizonFailedJobs | null, dashboardPrefix: string): TrashShelf[] {
  const removed = trashShelf(layoutTrashKeys(keys.prefix, dashboardPrefix), trashedColumns(connection));
  if (horizon === null) return [removed];
  return [removed, trashShelf(layoutTrashKeys(horizon.keys.prefix, dashboardPrefix), horizonColumns(connection))];
}

/**
 * Puts these ids back where Laravel keeps them, BATCH_SIZE per script call:
 * from Horizon's shelf first (lua/laravel/horizon-restore-2.lua), then what
 * is not there from the removed payloads' (lua/laravel/restore-1.lua). Both
 * list ids as they are: a Horizon id is the payload's uuid, a removed
 * payload's its RedisQueue id (32 random characters), so one id is on one
 * shelf, unless a payload without an `id` was removed under the uuid of a
 * failed job that is also kept: then the failed record is restored first.
 */
function restoreJobs(connection: RedisConnection, keys: LaravelKeys, horizon: HorizonFailedJobs | null, settings: TrashSettings, ids: readonly string[]) {
  const trash = layoutTrashKeys(keys.prefix, settings.dashboardPrefix);
  return restoreInBatches(connection, ids, async (batch) => {
    const fromHorizon = horizon === null ? [] : await restoreHorizon(connection, horizon, settings, batch);
    const left = batch.filter((id) => !fromHorizon.some((done) => done.id === id && done.outcome !== 'gone'));
    const fromQueues =
      left.length === 0
        ? []
        : await restoreTrashed.run(connection.redis, { trashIndex: trash.index, trashPrefix: trash.prefix, laravelPrefix: keys.prefix, ids: left });
    return batch.map((id) => fromQueues.find((done) => done.id === id) ?? fromHorizon.find((done) => done.id === id)!);
  });
}

function restoreHorizon(connection: RedisConnection, horizon: HorizonFailedJobs, settings: TrashSettings, ids: string[]): Promise<RestoredJob[]> {
  const trash = layoutTrashKeys(horizon.keys.prefix, settings.dashboardPrefix);
  return restoreHorizonTrashed.run(connection.redis, {
    failedIndex: horizon.keys.failedIndex,
    trashIndex: trash.index,
    trashPrefix: trash.prefix,
    horizonPrefix: horizon.keys.prefix,
    ids,
  });
}

/**
 * Laravel's trash: the payloads its remove kept, listed by their names and
 * put back where Laravel's own push, later or migrate would; and, where
 * Horizon is read, the failed records its forget kept, put back on
 * Horizon's failed list.
 */
export function laravelTrash(connection: RedisConnection, keys: LaravelKeys, horizon: HorizonFailedJobs | null): TrashBin {
  return {
    list: (settings, offset, limit, filter) =>
      readTrashPage(connection, shelvesOf(connection, keys, horizon, settings.dashboardPrefix), settings, offset, limit, filter),
    restore: (settings, ids) => restoreJobs(connection, keys, horizon, settings, ids),
    listedId: (_queue, id) => id,
  };
}
