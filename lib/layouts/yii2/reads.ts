import { DISPLAY_LIMIT_BYTES } from '../../shapes/display-text';
import { bucketsOf, nobodyReservedSince, TIMELINE_SCALES, UNATTENDED_AFTER_SECONDS, type DelayedTimeline } from '../../shapes/delayed-timeline';
import { QueueError } from '../../redis/errors';
import type { RedisConnection } from '../../redis/connection';
import type { Yii2NgSettings } from '../settings';
import type { Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';
import {
  decodeNgScore,
  MAX_PAGE_ROWS,
  ngSettingsFor,
  pageBounds,
  ROW_COPY_LIMIT_BYTES,
  ROW_HEAD_BYTES,
  summaryOf,
  type Yii2JobSummary,
  type Yii2NgScore,
} from './line';
import { decodeMessage, type Yii2Message } from './message';
import { readDelayed, readJob, readReservations, type Yii2JobRead } from './scripts';

/** Why the reservations of a yii2 channel name nobody, in the words a page shows. */
export const YII2_NO_HOLDER = 'yii2-queue records no holder: a reservation says only when it expires';

/** Why a job id with no message has nothing more to show. */
export const YII2_GONE = 'finished, exhausted, dropped or removed: yii2 keeps nothing of a job once it is done';

export interface Yii2ReservationRow extends Yii2JobSummary {
  /** the reserved set's score: when the reservation runs out, unix seconds */
  expiresAt: number;
  /** expiresAt − the message's TTR (the worker's clock under stock); null when the TTR is unknown */
  reservedSince: number | null;
  /** expiresAt ≤ now: the next reserve (ng: or push) puts it back in line */
  expired: boolean;
}

export interface Yii2Reservations {
  channel: string;
  /** the Redis server's clock, unix seconds */
  now: number;
  total: number;
  live: number;
  expired: number;
  offset: number;
  /** soonest expiry first */
  rows: Yii2ReservationRow[];
  holderKnown: false;
  /** YII2_NO_HOLDER */
  holderAbsent: string;
}

/**
 * One page of a channel's reservations, soonest expiry first, with the
 * live and expired totals, in one read-only script
 * (lua/yii2/read-reservations-4.lua). Neither driver records who holds a
 * reservation: a row says when it expires, since when it is held (by the
 * message's TTR) and how many attempts it is.
 */
export async function readYii2Reservations(
  connection: RedisConnection,
  keys: Yii2Keys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
  page: { offset?: number; limit?: number } = {},
): Promise<Yii2Reservations> {
  const settings = ngSettingsFor(driver, ng);
  const [offset, limit] = pageBounds(page.offset ?? 0, page.limit ?? MAX_PAGE_ROWS);
  return connection.attempt(async () => {
    const { now, total, expired, rows } = await readReservations.run(connection.redis, {
      ...keys.byName,
      offset,
      limit,
      headBytes: ROW_HEAD_BYTES,
      copyLimit: ROW_COPY_LIMIT_BYTES,
    });
    return {
      channel: keys.channel,
      now,
      total,
      live: total - expired,
      expired,
      offset,
      rows: rows.map((row) => {
        const summary = summaryOf(row, settings);
        const expiresAt = Number(row.score);
        return { ...summary, expiresAt, reservedSince: summary.ttr === null ? null : expiresAt - summary.ttr, expired: expiresAt <= now };
      }),
      holderKnown: false,
      holderAbsent: YII2_NO_HOLDER,
    };
  });
}

export interface Yii2DelayedJob extends Yii2JobSummary {
  /** the class name, as a StaticPHP job's name */
  name: string | null;
  /** the delayed set's score: when it is due, unix seconds */
  dueAt: number;
  /** yii2 keeps no holder, so a delayed job is never held */
  heldBy: null;
}

/**
 * The delayed timeline of lib/shapes/delayed-timeline.ts for a yii2
 * channel: the same buckets, overdue count and attendance, with yii2's rows.
 * Attendance judges by the oldest due job alone: both drivers move due jobs
 * on every reserve (ng: and push), and yii2 records no delivery, so
 * `lastDeliveredEntryAt` is always null.
 */
export interface Yii2DelayedTimeline extends Omit<DelayedTimeline, 'next'> {
  next: Yii2DelayedJob[];
}

const SCALES = [TIMELINE_SCALES.hour, TIMELINE_SCALES.day, TIMELINE_SCALES.week];

/**
 * A channel's delayed set over time by the Redis server's clock, as the
 * StaticPHP timeline shows it (buckets of the next hour, day and week, the
 * overdue ones, the next `limit` due), with each job's class, attempts and
 * (ng) priority, in one read-only script (lua/yii2/read-delayed-4.lua): one
 * ZCOUNT per bucket, never the whole set.
 */
export async function readYii2DelayedTimeline(
  connection: RedisConnection,
  keys: Yii2Keys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
  { limit = 20 } = {},
): Promise<Yii2DelayedTimeline> {
  const settings = ngSettingsFor(driver, ng);
  const [, shown] = pageBounds(0, limit);
  return connection.attempt(async () => {
    const { now, total, overdue, oldestDueAt, later, rows, counts } = await readDelayed.run(connection.redis, {
      ...keys.byName,
      limit: shown,
      headBytes: ROW_HEAD_BYTES,
      copyLimit: ROW_COPY_LIMIT_BYTES,
      scales: SCALES.flatMap(({ count, seconds }) => [count, seconds]),
    });
    let bucket = 0;
    const [hour, day, week] = SCALES.map((scale) => bucketsOf(now, scale).map((range) => ({ ...range, count: counts[bucket++] ?? 0 }))) as [
      DelayedTimeline['hour'],
      DelayedTimeline['day'],
      DelayedTimeline['week'],
    ];
    return {
      queue: keys.channel,
      now,
      total,
      overdue,
      hour,
      day,
      week,
      later,
      next: rows.map((row) => {
        const summary = summaryOf(row, settings);
        return { ...summary, name: summary.className, dueAt: Number(row.score), heldBy: null };
      }),
      attendance: {
        unattended: overdue > 0 && nobodyReservedSince({ oldestWaitingAt: oldestDueAt, lastDeliveredEntryAt: null, now }, UNATTENDED_AFTER_SECONDS),
        oldestOverdueAt: oldestDueAt,
        lastDeliveredEntryAt: null,
      },
    };
  });
}

/** Waiting ids LPOS looks at, from the tail, to find a job's place: a longer scan would hold Redis for too long. */
export const MAX_WAITING_SCAN = 100_000;

/** One index that holds a job, and what it says about it. */
export type Yii2JobPlace =
  /** stock: in the waiting list, `place` 1 runs next */
  | { state: 'waiting'; place: number; of: number }
  /** ng: in `prioritized`, `rank` 1 runs next */
  | { state: 'prioritized'; rank: number; of: number; score: Yii2NgScore }
  /** ng: still in the stock waiting list, taken over tail first */
  | { state: 'awaiting-takeover'; place: number; of: number }
  /** `due` once the time has come and no reserve (ng: or push) has moved it yet */
  | { state: 'delayed'; until: number; due: boolean }
  /** `expired` once the time ran out; reservedSince = until − TTR, null when the TTR is unknown */
  | { state: 'reserved'; until: number; expired: boolean; reservedSince: number | null };

/**
 * - placed: in one index, as a job should be;
 * - duplicate: in more than one index, so it will run twice;
 * - orphan: a message in no index: nothing will ever run it;
 * - dangling: in an index, but its message is gone;
 * - unsearched: in no index looked at, but the waiting list is longer than
 *   MAX_WAITING_SCAN and the rest of it was not searched;
 * - gone: no message and in no index.
 */
export type Yii2JobStatus = 'placed' | 'duplicate' | 'orphan' | 'dangling' | 'unsearched' | 'gone';

export interface Yii2JobDetail {
  id: string;
  channel: string;
  /** the Redis server's clock, unix seconds */
  now: number;
  status: Yii2JobStatus;
  /** the status in words, for the page */
  statusText: string;
  /** every index holding the id, in the order waiting, prioritized, delayed, reserved */
  places: Yii2JobPlace[];
  attempts: number;
  /** ng: the stored priority, else the default; null for stock */
  priority: { value: number; stored: boolean } | null;
  /** ng with an `original` position: `<joined ms>:<seq>`, the place the job first took */
  rank: string | null;
  /** the message decoded from its first DISPLAY_LIMIT_BYTES; null when it is gone */
  message: Yii2Message | null;
  /** the job's class, as a StaticPHP job's name */
  name: string | null;
  /** `<ch>.message_id`: the highest id pushed so far, as decimal text; '' when unset */
  lastId: string;
}

function statusOf(places: Yii2JobPlace[], hasMessage: boolean, unsearched: number, lastId: string, id: string): [Yii2JobStatus, string] {
  const where = places.map((place) => place.state).join(', ');
  if (!hasMessage && places.length > 0)
    return ['dangling', `in ${where} with no message: ng discards it when it comes up, and the stock driver's queue/run stops at it`];
  if (places.length > 1) return ['duplicate', `in ${places.length} indexes (${where}): it will run more than once`];
  if (places.length === 1) return ['placed', `in ${where}`];
  if (hasMessage && unsearched > 0) {
    return [
      'unsearched',
      `in no index looked at; the waiting list beyond the first ${MAX_WAITING_SCAN.toLocaleString('en-US')} ids from its run end (${unsearched} more) was not searched`,
    ];
  }
  if (hasMessage) return ['orphan', 'a message in no index: nothing will run it'];
  if (/^\d+$/.test(lastId) && BigInt(id) > BigInt(lastId)) return ['gone', `never pushed: the channel's ids go up to ${lastId}`];
  return ['gone', YII2_GONE];
}

/** Every index the read found the job in, in the order waiting, prioritized, delayed, reserved; `ttr` dates a reservation's start. */
function placesOf(read: Yii2JobRead, settings: Yii2NgSettings | null, priority: { value: number } | null, ttr: number | null): Yii2JobPlace[] {
  const places: Yii2JobPlace[] = [];
  if (read.waitingPlace > 0) places.push({ state: settings === null ? 'waiting' : 'awaiting-takeover', place: read.waitingPlace, of: read.waitingLength });
  if (settings !== null && read.prioritized !== null) {
    places.push({
      state: 'prioritized',
      rank: read.prioritized.rank + 1,
      of: read.prioritizedTotal,
      score: decodeNgScore(read.prioritized.score, priority?.value ?? settings.defaultPriority, settings),
    });
  }
  const { now, delayedUntil, reservedUntil } = read;
  if (delayedUntil !== null) places.push({ state: 'delayed', until: delayedUntil, due: delayedUntil <= now });
  if (reservedUntil !== null) {
    places.push({ state: 'reserved', until: reservedUntil, expired: reservedUntil <= now, reservedSince: ttr === null ? null : reservedUntil - ttr });
  }
  return places;
}

/**
 * Everything about one job of a channel, in one read-only script
 * (lua/yii2/read-job-9.lua), a consistent snapshot: where it is (every
 * index that holds it), its attempts and (ng) priority, and its message
 * decoded from its first DISPLAY_LIMIT_BYTES, read inside Redis with the
 * stored length (never the whole value). Its place in the waiting list is
 * searched among the MAX_WAITING_SCAN ids nearest the run end. Throws
 * QueueError for an id that is not a decimal job id, or a key of the wrong
 * type.
 */
export async function readYii2Job(
  connection: RedisConnection,
  keys: Yii2Keys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
  id: string,
): Promise<Yii2JobDetail> {
  if (!/^[1-9][0-9]{0,19}$/.test(id)) throw new QueueError(`A yii2 job id is a whole number from 1, not "${id}"`);
  const settings = ngSettingsFor(driver, ng);
  return connection.attempt(async () => {
    const read = await readJob.run(connection.redis, { ...keys.byName, id, headBytes: DISPLAY_LIMIT_BYTES, maxScan: MAX_WAITING_SCAN });
    const message = read.length < 0 ? null : decodeMessage(read.head, read.length);
    const priority =
      settings === null
        ? null
        : read.storedPriority !== null
          ? { value: read.storedPriority, stored: true }
          : { value: settings.defaultPriority, stored: false };
    const places = placesOf(read, settings, priority, message?.ttr ?? null);
    const unsearched = read.waitingPlace > 0 ? 0 : Math.max(0, read.waitingLength - MAX_WAITING_SCAN);
    const [status, statusText] = statusOf(places, message !== null, unsearched, read.messageId, id);
    return {
      id,
      channel: keys.channel,
      now: read.now,
      status,
      statusText,
      places,
      attempts: read.attempts,
      priority,
      rank: read.rank,
      message,
      name: message?.className ?? null,
      lastId: read.messageId,
    };
  });
}
