import type { RedisConnection } from '../../redis/connection';
import type { TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { heldPrefixesOf, type HeldForRead } from '../held-prefixes';
import { jobHashOf, readJobHash } from '../job-hash-read';
import { layoutTrashKeys, readTrashPage, restoreInBatches, type TrashedJobColumns } from '../trash';
import type { LaravelKeys } from './keys';
import { laravelNameOfHead } from './payload';
import { restoreTrashed } from './scripts';

/**
 * Bytes of each kept payload a page of the trash reads: its name is near the
 * top (displayName comes second, after the uuid), and a payload can be
 * megabytes (data.command is the serialized job, models and all).
 */
const TRASHED_PAYLOAD_LIMIT = 4 * 1024;
/** The kept hash has one field, the job id; a key with more is not ours, and not read. */
const MAX_TRASHED_FIELDS = 4;

/**
 * A removed Laravel job is kept as a hash of one field, its id -> the
 * payload's bytes (lua/laravel/remove-4.lua). A hash field has no ranged
 * read, so it is read as a job page reads a job hash
 * (lua/shared/read-job-1.lua): the payload is copied whole once inside
 * Redis but crosses the network as its first TRASHED_PAYLOAD_LIMIT bytes,
 * and a long payload whose first bytes are held already is not copied
 * again (held-prefixes.ts). Made per page read: it holds each read between
 * queueing it and reading its reply.
 */
function trashedColumns(connection: RedisConnection): TrashedJobColumns {
  const reads = new Map<string, HeldForRead>();
  return {
    queue: (pipeline, jobKey, id) => {
      const read = heldPrefixesOf(connection).heldFor(jobKey, TRASHED_PAYLOAD_LIMIT, MAX_TRASHED_FIELDS);
      reads.set(id, read);
      readJobHash.queue(pipeline, read.call);
    },
    read: (reply, id) => {
      const read = reads.get(id);
      const hash = Array.isArray(reply) && read !== undefined ? jobHashOf(readJobHash.reply(reply), read) : { type: 'none' };
      const payload = 'fields' in hash ? hash.fields.find((field) => field.name === id) : undefined;
      // The queue is the where-hash's: a Laravel payload does not name its queue.
      return { name: payload === undefined ? '' : (laravelNameOfHead(payload.prefix, payload.bytes) ?? ''), queue: '', error: '' };
    },
  };
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
    list: (settings, offset, limit) =>
      readTrashPage(connection, layoutTrashKeys(keys.prefix, settings.dashboardPrefix), trashedColumns(connection), settings, offset, limit),
    restore: (settings, ids) => restoreJobs(connection, keys, settings, ids),
  };
}
