import { changedFlag, luaScript } from '../../redis/lua-script';
import { restoredJobsReply } from '../trash';

// Every yii2 script's keys are one channel's, named in its header as Yii2Keys
// names them (`entries` and `index` stand for whichever hash or index a
// repair is for), so a call can pass `keys.byName` and the wrapper takes the
// keys its script reads.

/** An array reply's elements: integers as numbers, bulk strings as strings (Buffers where the script is read as bytes), nested arrays as arrays. */
function elements(reply: unknown): unknown[] {
  return reply as unknown[];
}

/** A bulk string or integer of a reply as text ('' stays ''). */
function text(value: unknown): string {
  return String(value);
}

/** A bulk string that is '' where the key holds nothing for the id, else the number it spells. */
function numberOrNull(value: unknown): number | null {
  const spelled = text(value);
  return spelled.length > 0 ? Number(spelled) : null;
}

/** One job as the read scripts answer it (jobRow of lua/includes/yii2-read.lua). */
export interface Yii2JobRow {
  /** decimal text: PHP's ids are 64-bit */
  id: string;
  /** the sorted set's score as Redis printed it; '' for a row of the stock list */
  score: string;
  /** reservations made so far; 0 when it has no entry */
  attempts: number;
  /** ng: the priority stored for it; null when none is (the default applies) */
  storedPriority: number | null;
  /** the message's stored length; -1 when the message is gone */
  length: number;
  /** the message's first bytes; empty when not read */
  head: Buffer;
  /** false when the message is longer than the copy limit and was left unread */
  headRead: boolean;
}

function jobRows(reply: unknown): Yii2JobRow[] {
  return elements(reply).map((row) => {
    const [id, score, attempts, priority, length, head, read] = elements(row);
    return {
      id: text(id),
      score: text(score),
      attempts: Number(text(attempts)) || 0,
      storedPriority: numberOrNull(priority),
      length: Number(length),
      head: head as Buffer,
      headRead: Number(read) === 1,
    };
  });
}

/** ng's settings as the scripts that place a job take them (ARGV 1..5), after the driver's name. */
const PLACEMENT = ['driver', 'defaultPriority', 'agingMs', 'retryKeepsPlace', 'delayKeepsPlace'] as const;

/** The keys of the scripts that put a job into line from one sorted set (lineKeysFrom of lua/includes/yii2-line.lua), that set third. */
function lineKeysFrom<const From extends string>(from: From) {
  return ['waiting', 'prioritized', from, 'priorities', 'marker', 'seq', 'ranks', 'movingLock'] as const;
}

export const readCounts = luaScript({
  file: 'yii2/read-counts-6.lua',
  keys: ['waiting', 'prioritized', 'delayed', 'reserved', 'messageId', 'messages'],
  args: [],
  reply: (reply) => {
    const [waiting, prioritized, delayed, dueDelayed, reserved, expiredReserved, messageId, messages, now] = elements(reply);
    return {
      /** the stock list's length (under ng: the jobs awaiting takeover) */
      waitingList: Number(waiting),
      prioritized: Number(prioritized),
      delayed: Number(delayed),
      dueDelayed: Number(dueDelayed),
      reserved: Number(reserved),
      expiredReserved: Number(expiredReserved),
      /** decimal text, '' when unset */
      messageId: text(messageId),
      messages: Number(messages),
      now: Number(now),
    };
  },
});

export const readLine = luaScript({
  file: 'yii2/read-line-7.lua',
  keys: ['waiting', 'prioritized', 'attempts', 'priorities', 'messages', 'delayed', 'reserved'],
  args: ['driver', 'lineOffset', 'lineLimit', 'takeoverOffset', 'takeoverLimit', 'headBytes', 'copyLimit'],
  // Messages are PHP serialize() output, binary as often as not.
  bytes: true,
  reply: (reply) => {
    const [now, lineTotal, takeoverTotal, lineRows, takeoverRows, dueDelayed, expiredReserved] = elements(reply);
    return {
      now: Number(now),
      lineTotal: Number(lineTotal),
      /** -1 for stock */
      takeoverTotal: Number(takeoverTotal),
      lineRows: jobRows(lineRows),
      takeoverRows: jobRows(takeoverRows),
      dueDelayed: Number(dueDelayed),
      expiredReserved: Number(expiredReserved),
    };
  },
});

export const readReservations = luaScript({
  file: 'yii2/read-reservations-4.lua',
  keys: ['reserved', 'attempts', 'priorities', 'messages'],
  args: ['offset', 'limit', 'headBytes', 'copyLimit'],
  bytes: true,
  reply: (reply) => {
    const [now, total, expired, rows] = elements(reply);
    return { now: Number(now), total: Number(total), expired: Number(expired), rows: jobRows(rows) };
  },
});

export const readDelayed = luaScript({
  file: 'yii2/read-delayed-4.lua',
  keys: ['delayed', 'attempts', 'priorities', 'messages'],
  args: ['limit', 'headBytes', 'copyLimit'],
  /** `count, seconds` of each bucket scale, in order */
  rest: 'scales',
  bytes: true,
  reply: (reply) => {
    const [now, total, overdue, oldestDue, later, rows, counts] = elements(reply);
    return {
      now: Number(now),
      total: Number(total),
      overdue: Number(overdue),
      /** the earliest due score at or before now; null when none is due */
      oldestDueAt: numberOrNull(oldestDue),
      later: Number(later),
      rows: jobRows(rows),
      /** one count per bucket, the scales' buckets one after another */
      counts: elements(counts).map(Number),
    };
  },
});

export const readJob = luaScript({
  file: 'yii2/read-job-9.lua',
  keys: ['messages', 'waiting', 'prioritized', 'delayed', 'reserved', 'attempts', 'priorities', 'ranks', 'messageId'],
  args: ['id', 'headBytes', 'maxScan'],
  bytes: true,
  reply: (reply) => {
    const [
      now,
      length,
      head,
      attempts,
      priority,
      rank,
      waitingPlace,
      waitingLength,
      prioritizedRank,
      prioritizedScore,
      prioritizedTotal,
      delayed,
      reserved,
      messageId,
    ] = elements(reply);
    return {
      now: Number(now),
      /** -1 when the message is gone */
      length: Number(length),
      head: head as Buffer,
      attempts: Number(text(attempts)) || 0,
      storedPriority: numberOrNull(priority),
      /** ng with an `original` position: `<joined ms>:<seq>` */
      rank: text(rank) || null,
      /** from the tail, 1 runs next; 0 when not among the first `maxScan` */
      waitingPlace: Number(waitingPlace),
      waitingLength: Number(waitingLength),
      /** ng's line: its rank from 0 and its score, null when it is not in it */
      prioritized: Number(prioritizedRank) >= 0 ? { rank: Number(prioritizedRank), score: text(prioritizedScore) } : null,
      prioritizedTotal: Number(prioritizedTotal),
      delayedUntil: numberOrNull(delayed),
      reservedUntil: numberOrNull(reserved),
      /** decimal text, '' when unset */
      messageId: text(messageId),
    };
  },
});

/** One job as read-job-9.lua reads it. */
export type Yii2JobRead = ReturnType<typeof readJob.reply>;

export const doctorReadMessages = luaScript({
  file: 'yii2/doctor-read-messages-1.lua',
  keys: ['messages'],
  args: ['cursor', 'count'],
  reply: (reply) => {
    const [cursor, ...entries] = elements(reply);
    return {
      cursor: text(cursor),
      /** each message's id and its `<ttr>;` prefix's digits, null when it has none */
      messages: entries.map((entry) => {
        const [id, ttr] = elements(entry);
        return { id: text(id), ttr: text(ttr) || null };
      }),
    };
  },
});

export const remove = luaScript({
  file: 'yii2/remove-10.lua',
  keys: ['messages', 'waiting', 'prioritized', 'delayed', 'reserved', 'attempts', 'priorities', 'ranks', 'movingLock', 'trashIndex'],
  args: ['id', 'trashPrefix', 'keepSeconds', 'maxEntries', 'maxBytes', 'who', 'via', 'channel', 'holder', 'reach'],
  reply: changedFlag,
});

export const restore = luaScript({
  file: 'yii2/restore-11.lua',
  keys: ['messages', 'waiting', 'prioritized', 'delayed', 'attempts', 'priorities', 'ranks', 'marker', 'seq', 'movingLock', 'trashIndex'],
  args: [...PLACEMENT, 'trashPrefix', 'holder'],
  rest: 'ids',
  reply: restoredJobsReply,
});

export const release = luaScript({
  file: 'yii2/release-8.lua',
  keys: lineKeysFrom('reserved'),
  /** `reservations`: 'expired', or 'live' for a holder known to be gone */
  args: [...PLACEMENT, 'id', 'reservations'],
  reply: changedFlag,
});

export const runNow = luaScript({ file: 'yii2/run-now-8.lua', keys: lineKeysFrom('delayed'), args: [...PLACEMENT, 'id'], reply: changedFlag });

export const promoteDue = luaScript({
  file: 'yii2/promote-due-8.lua',
  keys: lineKeysFrom('delayed'),
  args: [...PLACEMENT, 'limit'],
  reply: (reply) => {
    const [moved, stillDue] = elements(reply);
    return { moved: Number(moved), stillDue: Number(stillDue) };
  },
});

export const requeueOrphan = luaScript({
  file: 'yii2/requeue-orphan-10.lua',
  keys: ['messages', 'waiting', 'prioritized', 'delayed', 'reserved', 'priorities', 'marker', 'seq', 'ranks', 'movingLock'],
  args: [...PLACEMENT, 'id'],
  reply: changedFlag,
});

export const dropDangling = luaScript({ file: 'yii2/drop-dangling-2.lua', keys: ['messages', 'index'], args: ['id'], reply: changedFlag });

export const cleanLeaked = luaScript({ file: 'yii2/clean-leaked-2.lua', keys: ['messages', 'entries'], args: ['id'], reply: changedFlag });

export const dropStuckLock = luaScript({ file: 'yii2/drop-stuck-lock-1.lua', keys: ['movingLock'], args: [], reply: changedFlag });

export const raiseMessageId = luaScript({ file: 'yii2/raise-message-id-1.lua', keys: ['messageId'], args: ['highest'], reply: changedFlag });

export const armMarker = luaScript({ file: 'yii2/arm-marker-2.lua', keys: ['prioritized', 'marker'], args: [], reply: changedFlag });

/** What lua/yii2/copy-10.lua did: the new job's id, or why it made none. */
export type Yii2CopyOutcome = { outcome: 'copied'; id: string } | { outcome: 'gone' | 'no-ttr' | 'not-json' | 'bad-edit' };

export const copy = luaScript({
  file: 'yii2/copy-10.lua',
  keys: ['messageId', 'messages', 'waiting', 'prioritized', 'delayed', 'priorities', 'ranks', 'marker', 'seq', 'movingLock'],
  /** `edited` 1 with the new `body` (after the TTR prefix), else 0 and '' */
  args: [...PLACEMENT, 'id', 'delaySeconds', 'edited', 'body'],
  reply: (reply): Yii2CopyOutcome => {
    const [outcome, id] = elements(reply).map(text);
    return outcome === 'copied' ? { outcome, id: id! } : { outcome: outcome as Exclude<Yii2CopyOutcome['outcome'], 'copied'> };
  },
});
