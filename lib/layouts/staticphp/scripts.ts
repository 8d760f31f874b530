import { assertScriptSucceeded, changedFlag, flatReply as flat, luaScript } from '../../redis/lua-script';
import { restoredJobsReply } from '../trash';
import type { RequeueOutcome } from '../../shapes/failed-jobs';
import type { EditRetryOutcome } from '../adapter';
import type { JobHash } from '../../shapes/job-hash';
import { pairsToRecord, toJobHash } from './job';

export type { EditRetryOutcome };

/*
 * One typed wrapper per script of lua/staticphp/, keys and arguments named
 * as each script's header names them. Keys a script derives from data (a job
 * id read from a stream, a queue name) are built inside it from `prefix`.
 */

/** A job a reserve claimed, as RESERVE's reply names it: `{id, entry id, {field, value, …}, branch}`. */
export interface Claim {
  /** decimal text: an id past 2^53 must not be rounded before it is refused */
  id: string;
  entry: string;
  fields: JobHash;
  /** taken back from an idle holder (XAUTOCLAIM) rather than read fresh */
  reclaimed: boolean;
}

/** RESERVE's reply: the job claimed, or null when the queue had nothing to hand out. */
function claimOf(reply: unknown): Claim | null {
  if (!Array.isArray(reply)) return null;
  const [id, entry, fields, branch] = reply as [string, string, unknown[], string];
  return { id: String(id), entry: String(entry), fields: toJobHash(pairsToRecord(fields)), reclaimed: branch === 'reclaimed' };
}

/** A repair that re-checks what the operator saw: `{1, detail?}` when done, `{0, reason}` when it changed meanwhile. */
export interface CheckedRepairReply {
  done: boolean;
  /** the new entry id when done (release), the reason when not */
  detail: string | undefined;
}

function checkedRepairOf(reply: unknown): CheckedRepairReply {
  const [code, detail] = flat(reply);
  return { done: Number(code) === 1, detail: detail === undefined ? undefined : String(detail) };
}

/** Ids in a script's reply, as numbers: the driver refuses to carry ids past 2^53. */
function ids(list: unknown): number[] {
  return (list as (string | number)[]).map(Number);
}

export const push = luaScript({
  file: 'staticphp/push-5.lua',
  keys: ['seq', 'queues', 'levels', 'delayed', 'stream'],
  args: ['prefix', 'queue', 'name', 'payload', 'maxAttempts', 'priority', 'uniqueKey', 'delaySeconds'],
  // {id, 1} for a new job, {id, 0} when a live unique key collapsed the push into the job holding it.
  reply: (reply) => Number(flat(reply)[0]),
});

export const reserve = luaScript({
  file: 'staticphp/reserve-2.lua',
  keys: ['delayed', 'levels'],
  args: ['prefix', 'queue', 'group', 'workerId', 'timeoutSeconds', 'promoteLimit'],
  reply: claimOf,
});

export const complete = luaScript({
  file: 'staticphp/complete-3.lua',
  keys: ['stream', 'delayed', 'job'],
  args: ['prefix', 'group', 'id', 'entry', 'reservedBy', 'reservedUntil'],
  reply: changedFlag,
});

export const release = luaScript({
  file: 'staticphp/release-3.lua',
  keys: ['stream', 'delayed', 'job'],
  args: ['prefix', 'group', 'id', 'entry', 'reservedBy', 'reservedUntil', 'delaySeconds', 'error'],
  reply: changedFlag,
});

export const fail = luaScript({
  file: 'staticphp/fail-4.lua',
  keys: ['stream', 'delayed', 'failed', 'job'],
  args: ['prefix', 'group', 'id', 'entry', 'reservedBy', 'reservedUntil', 'error'],
  reply: changedFlag,
});

export const settleAndReserve = luaScript({
  file: 'staticphp/settle-and-reserve-6.lua',
  keys: ['stream', 'delayed', 'failed', 'job', 'nextDelayed', 'nextLevels'],
  args: [
    'prefix',
    'group',
    'how',
    'id',
    'entry',
    'reservedBy',
    'reservedUntil',
    'delaySeconds',
    'error',
    'nextQueue',
    'workerId',
    'timeoutSeconds',
    'promoteLimit',
  ],
  // The reserve half refuses on its own (a level's stream of the wrong type), after the settle stood.
  reply: (reply) => {
    const [settled, next] = reply as [number, unknown];
    return { settled: settled === 1, next: claimOf(assertScriptSucceeded(next)) };
  },
});

export const requeue = luaScript({
  file: 'staticphp/requeue-2.lua',
  keys: ['failed', 'queues'],
  args: ['prefix', 'maxAttempts'],
  rest: 'ids',
  reply: (reply): RequeueOutcome => {
    const [requeued, notFailed, missing, queues] = reply as [unknown, unknown, unknown, unknown[]];
    return { requeued: ids(requeued), notFailed: ids(notFailed), missing: ids(missing), queues: queues.map(String) };
  },
});

export const editAndRetry = luaScript({
  file: 'staticphp/edit-retry-3.lua',
  keys: ['failed', 'queues', 'trashIndex'],
  args: ['prefix', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via', 'id', 'seen', 'edited', 'maxAttempts'],
  reply: (reply) => {
    const [outcome, kept, queue] = reply as [string, number, string];
    // The queue the job went back to: what the retry touched.
    return { outcome: String(outcome) as EditRetryOutcome, kept: Number(kept) === 1, queue: outcome === 'retried' ? String(queue) : null };
  },
});

export const forget = luaScript({
  file: 'staticphp/forget-2.lua',
  keys: ['failed', 'trashIndex'],
  args: ['prefix', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via'],
  rest: 'ids',
  reply: (reply) => {
    const [forgotten, kept] = flat(reply);
    return { forgotten: Number(forgotten), kept: Number(kept) };
  },
});

export const restore = luaScript({
  file: 'staticphp/restore-2.lua',
  keys: ['failed', 'trashIndex'],
  args: ['prefix', 'trashPrefix'],
  rest: 'ids',
  reply: restoredJobsReply,
});

export const releaseReservation = luaScript({
  file: 'staticphp/release-reservation-3.lua',
  keys: ['stream', 'levels', 'job'],
  args: ['group', 'id', 'entry', 'reservedBy', 'reservedUntil', 'attempts', 'level', 'prefix'],
  reply: checkedRepairOf,
});

export const failReservation = luaScript({
  file: 'staticphp/fail-reservation-4.lua',
  keys: ['stream', 'delayed', 'failed', 'job'],
  args: ['prefix', 'group', 'id', 'entry', 'reservedBy', 'reservedUntil', 'attempts', 'error'],
  reply: checkedRepairOf,
});

export const cleanTombstone = luaScript({
  file: 'staticphp/clean-tombstone-1.lua',
  keys: ['stream'],
  args: ['prefix', 'group', 'entry', 'id'],
  reply: checkedRepairOf,
});

export const promoteDue = luaScript({
  file: 'staticphp/promote-due-2.lua',
  keys: ['delayed', 'levels'],
  args: ['prefix', 'queue', 'limit'],
  reply: (reply) => {
    const [promoted, vanished, remaining] = reply as [unknown, unknown, number];
    return { promoted: ids(promoted), vanished: ids(vanished), remainingDue: Number(remaining) };
  },
});

/** RUN NOW's answer, as lua/staticphp/run-now-3.lua's header lists them. */
export type RunNowReply =
  | { outcome: 'promoted'; entry: string; level: string }
  | { outcome: 'held'; holder: string; until: number }
  | { outcome: 'not-delayed' | 'gone' }
  | { outcome: 'unknown'; answer: string };

export const runNow = luaScript({
  file: 'staticphp/run-now-3.lua',
  keys: ['delayed', 'levels', 'job'],
  args: ['prefix', 'queue', 'id'],
  reply: (reply): RunNowReply => {
    const [outcome, first, second] = flat(reply);
    if (outcome === 'promoted') return { outcome, entry: String(first), level: String(second) };
    if (outcome === 'held') return { outcome, holder: String(first), until: Number(second) };
    if (outcome === 'not-delayed' || outcome === 'gone') return { outcome };
    return { outcome: 'unknown', answer: String(outcome) };
  },
});

export const doctorRequeueOrphan = luaScript({
  file: 'staticphp/doctor-requeue-orphan-3.lua',
  keys: ['job', 'failed', 'queues'],
  args: ['prefix', 'id'],
  reply: changedFlag,
});

export const doctorDropTombstone = luaScript({
  file: 'staticphp/doctor-drop-tombstone-1.lua',
  keys: ['stream'],
  args: ['prefix', 'group', 'entry'],
  reply: changedFlag,
});

export const doctorClearEntry = luaScript({
  file: 'staticphp/doctor-clear-entry-1.lua',
  keys: ['job'],
  args: ['prefix', 'id', 'entry'],
  reply: changedFlag,
});

export const doctorDropFailed = luaScript({
  file: 'staticphp/doctor-drop-failed-1.lua',
  keys: ['failed'],
  args: ['prefix', 'id'],
  reply: changedFlag,
});

export const doctorFreeUnique = luaScript({
  file: 'staticphp/doctor-free-unique-1.lua',
  keys: ['unique'],
  args: ['prefix', 'uniqueKey', 'id'],
  reply: changedFlag,
});

export const doctorDropLevel = luaScript({
  file: 'staticphp/doctor-drop-level-1.lua',
  keys: ['levels'],
  args: ['prefix', 'queue', 'level'],
  reply: changedFlag,
});

export const doctorFailInvalidPayload = luaScript({
  file: 'staticphp/doctor-fail-invalid-payload-2.lua',
  keys: ['job', 'failed'],
  args: ['prefix', 'group', 'id', 'error'],
  reply: changedFlag,
});

export const doctorRaiseSeq = luaScript({
  file: 'staticphp/doctor-raise-seq-1.lua',
  keys: ['seq'],
  args: ['prefix', 'to'],
  reply: changedFlag,
});

export const readFailedOfQueue = luaScript({
  file: 'staticphp/read-failed-of-queue-1.lua',
  keys: ['failed'],
  args: ['prefix', 'queue', 'start', 'count', 'limit'],
  reply: (reply) => {
    const [looked, ...pairs] = flat(reply);
    const matches: { id: string; score: string }[] = [];
    for (let i = 0; i + 1 < pairs.length; i += 2) matches.push({ id: String(pairs[i]), score: String(pairs[i + 1]) });
    return { looked: Number(looked), matches };
  },
});

/** stats()'s figures of one queue, as the counting scripts read them. */
export interface CountedFigures {
  pending: number;
  delayed: number;
  reserved: number;
}

/** One queue's figures of read-counts-1.lua, or the first reply Redis refused while reading them. */
export type QueueCountsReply = CountedFigures | { error: string };

export const readCounts = luaScript({
  file: 'staticphp/read-counts-1.lua',
  // Not read: it routes the call, in a cluster, to the server holding the prefix's keys.
  keys: ['queues'],
  args: ['prefix', 'group'],
  rest: 'queueNames',
  reply: (reply) =>
    (reply as ([number, number, number] | [string])[]).map((row): QueueCountsReply => {
      if (row.length === 1) return { error: row[0] };
      const [pending, delayed, reserved] = row;
      return { pending, delayed, reserved };
    }),
});

/** One queue's counts and attention figures as read-queue-figures-1.lua answers them; '' where the header says none. */
export type QueueFiguresReply =
  | {
      counts: CountedFigures;
      oldestReady: string;
      lastDelivered: string;
      due: number;
      oldestDue: string;
      newestHeld: string;
      /** {level, entry id, idle ms, deliveries, …} */
      heldLong: (string | number)[];
    }
  | { error: string };

export const readQueueFigures = luaScript({
  file: 'staticphp/read-queue-figures-1.lua',
  // Not read: it routes the call, in a cluster, to the server holding the prefix's keys.
  keys: ['queues'],
  args: ['prefix', 'group', 'waitedSeconds', 'heldMs', 'heldRead'],
  rest: 'queueNames',
  reply: (reply) =>
    (reply as ([number, number, number, string, string, number, string, number | string, (string | number)[]] | [string])[]).map((row): QueueFiguresReply => {
      if (row.length === 1) return { error: row[0] };
      const [pending, delayed, reserved, oldestReady, lastDelivered, due, oldestDue, newestHeld, heldLong] = row;
      return { counts: { pending, delayed, reserved }, oldestReady, lastDelivered, due: Number(due), oldestDue, newestHeld: String(newestHeld), heldLong };
    }),
});

export const readRecentFailures = luaScript({
  file: 'staticphp/read-recent-failures-1.lua',
  keys: ['failed'],
  args: ['prefix', 'since', 'limit', 'errorBytes'],
  // Queue names and errors are shown whatever their encoding.
  bytes: true,
  reply: (reply) => {
    const [truncated, groups] = reply as [number, [Buffer, Buffer, Buffer, Buffer[]][]];
    return { truncated: truncated === 1, groups: groups.map(([queue, newestId, newestError, scores]) => ({ queue, newestId, newestError, scores })) };
  },
});

export const readReservationJobs = luaScript({
  file: 'staticphp/read-reservation-jobs-1.lua',
  // Not read: it routes the call, in a cluster, to the server holding the prefix's keys.
  keys: ['queues'],
  args: ['prefix', 'fieldCount'],
  /** the `fieldCount` fields to read, then one (queue, level, entry id) triple per pending entry */
  rest: 'fieldsThenEntries',
  // Job names are shown whatever their encoding.
  bytes: true,
  // Per entry: {} (no job), {job id, '', value, …} or {job id, error} (not a hash).
  reply: (reply) => reply as (Buffer | null)[][],
});

export const readParked = luaScript({
  file: 'staticphp/read-parked-1.lua',
  // Not read: it routes the call, in a cluster, to the server holding the prefix's keys.
  keys: ['queues'],
  args: ['prefix', 'now', 'perQueue', 'fieldCount'],
  /** the `fieldCount` fields to return, then the queues to look in */
  rest: 'fieldsThenQueues',
  // Job names are shown whatever their encoding.
  bytes: true,
  // Per queue: {'', id, until, value, …} or {error} when its delayed set is no sorted set.
  reply: (reply) => reply as (Buffer | null)[][],
});
