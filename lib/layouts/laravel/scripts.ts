import { changedFlag, flatBytesReply, flatReply, luaScript, replyRows } from '../../redis/lua-script';
import type { RestoreOutcome } from '../../shapes/trash';

/** Where find-job-3.lua found a job, with the payload's exact bytes; or that it did not, and whether it looked everywhere. */
export type FoundLaravelJob =
  | { place: 'ready'; position: number; payload: Buffer; now: number }
  | { place: 'delayed' | 'reserved'; score: number; payload: Buffer; now: number }
  | { place: 'none'; complete: boolean; now: number };

export const findJob = luaScript({
  file: 'laravel/find-job-3.lua',
  keys: ['ready', 'delayed', 'reserved'],
  args: ['idNeedle', 'uuidNeedle', 'searchLimit'],
  // The payload's exact bytes: a repair hands them back to the script that removes or moves them.
  bytes: true,
  reply: (reply): FoundLaravelJob => {
    const [place, at, third, fourth] = flatBytesReply(reply);
    const name = String(place);
    if (name === 'none') return { place: 'none', complete: Number(at) === 1, now: Number(third) };
    const now = Number(fourth);
    if (name === 'ready') return { place: 'ready', position: Number(at), payload: third as Buffer, now };
    return { place: name === 'delayed' ? 'delayed' : 'reserved', score: Number(String(at)), payload: third as Buffer, now };
  },
});

export const remove = luaScript({
  file: 'laravel/remove-4.lua',
  keys: ['ready', 'delayed', 'reserved', 'trashIndex'],
  args: ['payload', 'id', 'queue', 'trashPrefix', 'keepSeconds', 'maxEntries', 'who', 'via'],
  reply: changedFlag,
});

export const restoreTrashed = luaScript({
  file: 'laravel/restore-1.lua',
  keys: ['trashIndex'],
  args: ['trashPrefix', 'laravelPrefix'],
  rest: 'ids',
  reply: (reply) => replyRows(flatReply(reply), 2, (at) => ({ id: String(at(0)), outcome: String(at(1)) as RestoreOutcome })),
});

export const moveDue = luaScript({
  file: 'laravel/move-due-3.lua',
  keys: ['delayed', 'ready', 'notify'],
  args: ['limit'],
  reply: (reply) => {
    const [moved, stillDue] = flatReply(reply);
    return { moved: Number(moved), stillDue: Number(stillDue) };
  },
});

export const moveToReady = luaScript({
  file: 'laravel/move-to-ready-3.lua',
  keys: ['source', 'ready', 'notify'],
  args: ['payload', 'when'],
  reply: changedFlag,
});

export const forgetHorizonFailed = luaScript({
  file: 'laravel/horizon-forget-failed-2.lua',
  keys: ['failedIndex', 'trashIndex'],
  args: ['horizonPrefix', 'trashPrefix', 'keepSeconds', 'maxEntries', 'who', 'via'],
  rest: 'ids',
  reply: (reply) => {
    const [forgotten, kept] = flatReply(reply);
    return { forgotten: Number(forgotten), kept: Number(kept) };
  },
});

export const restoreHorizonTrashed = luaScript({
  file: 'laravel/horizon-restore-2.lua',
  keys: ['failedIndex', 'trashIndex'],
  args: ['trashPrefix', 'horizonPrefix'],
  rest: 'ids',
  reply: (reply) => replyRows(flatReply(reply), 2, (at) => ({ id: String(at(0)), outcome: String(at(1)) as RestoreOutcome })),
});
