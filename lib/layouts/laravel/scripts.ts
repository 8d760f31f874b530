import { changedFlag, flatBytesReply, flatReply, luaScript, replyRows } from '../../redis/lua-script';
import { parseSeenPlace } from '../../shapes/job-location';
import { findChunkReply } from '../find-in-jobs';
import { restoredJobsReply } from '../trash';

/** Where find-job-3.lua found a job, with the payload's exact bytes; or that it did not, and whether it looked everywhere. */
export type FoundLaravelJob =
  | { place: 'ready'; position: number; payload: Buffer; now: number; length: number }
  | { place: 'delayed' | 'reserved'; score: number; payload: Buffer; now: number }
  | { place: 'none'; complete: boolean; now: number };

/** Where a look-up's next step starts (find-job-3.lua's `structure` … `cut`). */
export interface JobLookUpCursor {
  structure: number;
  looked: number;
  position: string;
  anchor: Buffer | string;
  cut: boolean;
  /** bytes per payload the steps before read (0: none yet), so that a step's first read is sized for them */
  perElement: number;
  /** near a place seen: the first payload the walk away from the tail read, where the walk towards it goes on from ('' until then) */
  boundary: Buffer | string;
}

export const JOB_LOOK_UP_START: JobLookUpCursor = { structure: 1, looked: 0, position: '', anchor: '', cut: false, perElement: 0, boundary: '' };

/** One step of a look-up: the answer, or where the next step starts. */
export type JobLookUpStep = FoundLaravelJob | { place: 'more'; next: JobLookUpCursor };

export const findJob = luaScript({
  file: 'laravel/find-job-3.lua',
  keys: ['ready', 'reserved', 'delayed'],
  args: [
    'idNeedle',
    'uuidNeedle',
    'limit',
    'budget',
    'byteBudget',
    'structure',
    'looked',
    'position',
    'anchor',
    'cut',
    'nearFrom',
    'nearIndex',
    'perElement',
    'boundary',
    'nearLength',
  ],
  // The payload's exact bytes: a repair hands them back to the script that removes or moves them; the anchor and boundary go back as they were read.
  bytes: true,
  reply: (reply): JobLookUpStep => {
    const [place, at, third, fourth, fifth, sixth, seventh, eighth] = flatBytesReply(reply);
    const name = String(place);
    if (name === 'more')
      return {
        place: 'more',
        next: {
          structure: Number(at),
          looked: Number(third),
          position: String(fourth),
          anchor: fifth as Buffer,
          cut: String(sixth) === '1',
          perElement: Number(seventh),
          boundary: eighth as Buffer,
        },
      };
    if (name === 'none') return { place: 'none', complete: Number(at) === 1, now: Number(third) };
    const now = Number(fourth);
    if (name === 'ready') return { place: 'ready', position: Number(at), payload: third as Buffer, now, length: Number(fifth) };
    return { place: name === 'delayed' ? 'delayed' : 'reserved', score: Number(String(at)), payload: third as Buffer, now };
  },
});

export const remove = luaScript({
  file: 'laravel/remove-4.lua',
  keys: ['ready', 'delayed', 'reserved', 'trashIndex'],
  args: ['payload', 'id', 'queue', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via', 'reach'],
  reply: changedFlag,
});

export const restoreTrashed = luaScript({
  file: 'laravel/restore-1.lua',
  keys: ['trashIndex'],
  args: ['trashPrefix', 'laravelPrefix'],
  rest: 'ids',
  reply: restoredJobsReply,
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

export const reclaim = luaScript({
  file: 'laravel/reclaim-1.lua',
  keys: ['reserved'],
  args: ['payload'],
  reply: changedFlag,
});

export const expireHorizonHash = luaScript({
  file: 'laravel/horizon-expire-1.lua',
  keys: ['job'],
  args: ['status', 'seconds'],
  reply: changedFlag,
});

export const findPayloads = luaScript({
  file: 'laravel/find-payloads-1.lua',
  keys: ['index'],
  args: ['kind', 'position', 'count', 'field', 'window', 'id', 'text', 'ignoreCase', 'timeFrom', 'timeUntil', 'timeScale', 'wholeUpTo'],
  rest: 'spellings',
  // A payload window is bytes written by somebody else's code, cut anywhere.
  bytes: true,
  reply: (reply) =>
    findChunkReply(reply, 6, (at) => ({
      id: String(at(0)),
      name: String(at(1)),
      field: String(at(2)) as 'id' | 'name' | 'payload',
      value: at(3) as Buffer,
      /** the whole payload, where it was asked for and is short enough; empty otherwise */
      whole: at(4) as Buffer,
      /** where it was found: in a list, its index from the tail; in a set, its score */
      near: parseSeenPlace(String(at(5))),
    })),
});

/** A payload Laravel's pop fails on (problem), or an overdue one it can take (problem ''), as read-doctor-page-1.lua lists them. */
export interface DoctorPageRow {
  problem: string;
  /** the payload's id, else its uuid, else '' */
  id: string;
  /** '' in the ready list */
  score: string;
  /** the payload's SHA-1 when it has no id, else '' */
  digest: string;
}

export const readDoctorPage = luaScript({
  file: 'laravel/read-doctor-page-1.lua',
  keys: ['structure'],
  args: ['kind', 'offset', 'count', 'byteBudget', 'overdueBefore', 'listOverdue'],
  reply: (reply) => {
    const [examined, ended, overdue, ...rest] = flatReply(reply);
    const rows = replyRows(rest, 4, (at): DoctorPageRow => ({ problem: String(at(0)), id: String(at(1)), score: String(at(2)), digest: String(at(3)) }));
    return { examined: Number(examined), ended: Number(ended) === 1, overdue: Number(overdue), rows };
  },
});

export const alignNotify = luaScript({
  file: 'laravel/align-notify-2.lua',
  keys: ['ready', 'notify'],
  args: ['direction', 'limit'],
  reply: (reply) => {
    const [changed, stillApart] = flatReply(reply);
    return { changed: Number(changed), stillApart: Number(stillApart) };
  },
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

export const forgetHorizonFailed = luaScript({
  file: 'laravel/horizon-forget-failed-2.lua',
  keys: ['failedIndex', 'trashIndex'],
  args: ['horizonPrefix', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via'],
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
  reply: restoredJobsReply,
});

/** What lua/laravel/copy-4.lua did: the new job's id, or why it made none. */
export type LaravelCopyOutcome = { outcome: 'copied'; id: string } | { outcome: 'gone' | 'not-json' };

export const copy = luaScript({
  file: 'laravel/copy-4.lua',
  keys: ['ready', 'delayed', 'reserved', 'notify'],
  args: ['payload', 'newId', 'newUuid', 'delaySeconds', 'readyAt'],
  reply: (reply): LaravelCopyOutcome => {
    const [outcome, id] = (reply as unknown[]).map(String);
    return outcome === 'copied' ? { outcome, id: id! } : { outcome: outcome as 'gone' | 'not-json' };
  },
});

/** What lua/laravel/horizon-retry-1.lua did with one failed id. */
export type HorizonRetryRow =
  | { id: string; outcome: 'retried'; newId: string; queue: string }
  | { id: string; outcome: 'refused'; why: string }
  | { id: string; outcome: 'not-failed' | 'missing' | 'skipped' | 'unreached' };

export const retryHorizonFailed = luaScript({
  file: 'laravel/horizon-retry-1.lua',
  keys: ['failedIndex'],
  args: ['horizonPrefix', 'laravelPrefix', 'byteBudget', 'skipRetried'],
  // Each failed id followed by the uuid its retry gets.
  rest: 'idsAndNewIds',
  reply: (reply) =>
    replyRows(flatReply(reply), 4, (at): HorizonRetryRow => {
      const [id, outcome, detail] = [String(at(0)), String(at(1)), String(at(2))];
      if (outcome === 'retried') return { id, outcome, newId: detail, queue: String(at(3)) };
      if (outcome === 'refused') return { id, outcome, why: detail };
      return { id, outcome: outcome as 'not-failed' | 'missing' | 'skipped' | 'unreached' };
    }),
});

/** What lua/laravel/horizon-read-throughput-2.lua read of one queue's finished jobs in Horizon's metrics. */
export interface HorizonQueueCounted {
  /** Horizon's count since its last snapshot */
  now: number;
  /** the score (second) of the newest snapshot, null when there is none */
  newestSnapshotAt: string | null;
  /** what the snapshots newer than the one given moved out of the count */
  moved: number;
  /** snapshots that were not JSON, counted as 0 */
  unreadable: number;
}

export const readHorizonThroughput = luaScript({
  file: 'laravel/horizon-read-throughput-2.lua',
  keys: ['counts', 'snapshots'],
  args: ['counted'],
  reply: (reply): HorizonQueueCounted => {
    const [now, newest, moved, unreadable] = flatReply(reply);
    return { now: Number(now) || 0, newestSnapshotAt: newest === '' ? null : String(newest), moved: Number(moved), unreadable: Number(unreadable) };
  },
});
