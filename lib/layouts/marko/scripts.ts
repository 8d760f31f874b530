import { restoredJobsReply } from '../trash';
import { changedFlag, flatBytesReply as flatBytes, flatReply as flat, luaScript, replyRows as rows } from '../../redis/lua-script';

export const readFailedQueues = luaScript({
  file: 'marko/read-failed-queues-2.lua',
  keys: ['failedJobs', 'failedIndex'],
  args: ['start', 'count', 'byteBudget'],
  reply: (reply) => {
    const [looked, missing, ...pairs] = flat(reply);
    return { looked: Number(looked), missing: Number(missing), byQueue: rows(pairs, 2, (at) => ({ queue: String(at(0)), count: Number(at(1)) })) };
  },
});

export const readFailedRecords = luaScript({
  file: 'marko/read-failed-records-1.lua',
  keys: ['failedJobs'],
  args: ['limit'],
  rest: 'ids',
  // A record's JSON is cut at a byte limit, which may fall inside a character.
  bytes: true,
  reply: (reply) =>
    rows(flatBytes(reply), 4, (at) => ({ found: Number(at(0)) === 1, length: Number(at(1)), head: at(2) as Buffer, exception: at(3) as Buffer })),
});

export const readFailedCheck = luaScript({
  file: 'marko/read-failed-check-2.lua',
  keys: ['failedJobs', 'failedIndex'],
  args: ['source', 'position', 'count'],
  reply: (reply) => {
    const [next, ...values] = flat(reply);
    return {
      next: String(next),
      rows: rows(values, 4, (at) => ({ id: String(at(0)), hasRecord: Number(at(1)), inIndex: Number(at(2)), recordIsJson: Number(at(3)) })),
    };
  },
});

export interface PlaceRow {
  id: string;
  type: string;
  ready: number;
  delayed: number;
  reserved: number;
}

export const readDoctorPage = luaScript({
  file: 'marko/read-doctor-page-3.lua',
  keys: ['ready', 'delayed', 'reserved'],
  args: ['prefix', 'source', 'offset', 'count', 'searchLimit'],
  rest: 'ids',
  reply: (reply): PlaceRow[] =>
    rows(flat(reply), 5, (at) => ({ id: String(at(0)), type: String(at(1)), ready: Number(at(2)), delayed: Number(at(3)), reserved: Number(at(4)) })),
});

export const forgetFailed = luaScript({
  file: 'marko/forget-failed-3.lua',
  keys: ['failedJobs', 'failedIndex', 'trashIndex'],
  args: ['trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via'],
  rest: 'ids',
  reply: (reply) => {
    const [forgotten, kept] = flat(reply);
    return { forgotten: Number(forgotten), kept: Number(kept) };
  },
});

export const restoreTrashed = luaScript({
  file: 'marko/restore-3.lua',
  keys: ['failedJobs', 'failedIndex', 'trashIndex'],
  args: ['trashPrefix', 'markoPrefix'],
  rest: 'ids',
  reply: restoredJobsReply,
});

export const dropIndexEntry = luaScript({
  file: 'marko/doctor-drop-index-entry-2.lua',
  keys: ['failedJobs', 'failedIndex'],
  args: ['id'],
  reply: changedFlag,
});

export const remove = luaScript({
  file: 'marko/remove-5.lua',
  keys: ['ready', 'delayed', 'reserved', 'job', 'trashIndex'],
  args: ['id', 'queue', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via', 'reach'],
  reply: changedFlag,
});

export const releaseExpired = luaScript({ file: 'marko/release-expired-2.lua', keys: ['reserved', 'delayed'], args: ['id'], reply: changedFlag });

export const reclaim = luaScript({ file: 'marko/reclaim-1.lua', keys: ['reserved'], args: ['id'], reply: changedFlag });

export const runNow = luaScript({ file: 'marko/run-now-1.lua', keys: ['delayed'], args: ['id'], reply: changedFlag });
