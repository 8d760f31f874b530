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

/** One queue's figures for the overview's marks (lua/laravel/read-attention-3.lua); a score null where its set is empty. */
export interface LaravelAttentionFigures {
  now: number;
  ready: number;
  dueDelayed: number;
  oldestDelayedAt: number | null;
  oldestReservedUntil: number | null;
  /** reservations expired at least `stuckSeconds` */
  stuckReservations: number;
}

export const readAttention = luaScript({
  file: 'laravel/read-attention-3.lua',
  keys: ['ready', 'delayed', 'reserved'],
  args: ['stuckSeconds'],
  reply: (reply): LaravelAttentionFigures => {
    const [now, ready, dueDelayed, oldestDelayed, oldestReserved, stuckReservations] = flatReply(reply);
    const scoreOf = (score: string | number | undefined) => (score === '' || score === undefined ? null : Number(score));
    return {
      now: Number(now),
      ready: Number(ready),
      dueDelayed: Number(dueDelayed),
      oldestDelayedAt: scoreOf(oldestDelayed),
      oldestReservedUntil: scoreOf(oldestReserved),
      stuckReservations: Number(stuckReservations),
    };
  },
});
