import { QueueError } from '../../redis/errors';
import type { RedisConnection } from '../../redis/connection';
import { DEFAULT_YII2_NG_SETTINGS, type Yii2NgSettings } from '../settings';
import type { Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';
import { summarizeMessage, type Yii2MessageSummary } from './message';
import { readLine, type Yii2JobRow } from './scripts';

/** redis-ng's epoch for aging scores: 2025-01-01T00:00:00Z in ms (spec §1.2). */
export const NG_AGING_EPOCH_MS = 1_735_689_600_000;
const STRICT_BAND = 1e12;
const AGING_SEQ_SPAN = 1024;

/** Bytes of each message a list row reads: enough for the TTR and the class name. */
export const ROW_HEAD_BYTES = 512;
/**
 * Messages longer than this are not read for a list row: Redis has no
 * ranged read of a hash field, and copying a 20 MB message into a script
 * holds the server for about a quarter of a second, a hundred times a page.
 * A message this size costs about a millisecond.
 */
export const ROW_COPY_LIMIT_BYTES = 64 * 1024;
/** Rows one page reads at most (the read scripts refuse more too). */
export const MAX_PAGE_ROWS = 100;

/** What an ng `prioritized` score says, decoded with the queue's settings (spec §1.2). */
export interface Yii2NgScore {
  /** the score as Redis printed it */
  score: string;
  /** the join sequence: mod 10^12 (strict) or mod 1024 (aging) */
  seq: number;
  /** strict only: floor(score / 10^12), the priority the job was scored with */
  scorePriority: number | null;
  /**
   * aging only: when the job joined the line, ms since the epoch, from the
   * job's priority and agingMs (which the score alone cannot give)
   */
  joinedAtMs: number | null;
}

/**
 * Decodes an ng score: strict (aging 0) gives priority and seq; aging gives
 * seq and the join time, which needs the job's priority (`priority`, stored
 * or default) and agingMs = round(aging × 1000).
 */
export function decodeNgScore(score: string, priority: number, settings: Yii2NgSettings): Yii2NgScore {
  const value = Number(score);
  if (settings.aging === 0) {
    return { score, seq: value % STRICT_BAND, scorePriority: Math.floor(value / STRICT_BAND), joinedAtMs: null };
  }
  const agingMs = Math.round(settings.aging * 1000);
  return { score, seq: value % AGING_SEQ_SPAN, scorePriority: null, joinedAtMs: Math.floor(value / AGING_SEQ_SPAN) + NG_AGING_EPOCH_MS - priority * agingMs };
}

/** One job as a list row shows it: the indexes' figures and what its message's first bytes say. */
export interface Yii2JobSummary extends Yii2MessageSummary {
  /** decimal text: PHP's ids are 64-bit */
  id: string;
  /** reservations made so far (`<ch>.attempts`); 0 when it has no entry */
  attempts: number;
  /** ng: the stored priority, else the configured default; null for stock */
  priority: number | null;
  /** ng: true when `<ch>.priorities` holds it, false when it is the default */
  priorityStored: boolean;
}

export interface Yii2LineRow extends Yii2JobSummary {
  /** 1 runs next */
  place: number;
  /** ng's line only: the score decoded */
  score: Yii2NgScore | null;
}

export interface Yii2LinePage {
  /** ids in this section in all */
  total: number;
  offset: number;
  rows: Yii2LineRow[];
}

export interface Yii2RunOrder {
  channel: string;
  driver: Yii2Driver;
  /** the Redis server's clock, unix seconds */
  now: number;
  /** stock: the waiting list from its tail; ng: `prioritized`, lowest score first */
  line: Yii2LinePage;
  /**
   * ng only: ids still in the stock waiting list, in the order ng takes
   * them over (up to batchSize per reserve, each joining the line at its
   * priority with a fresh seq); null for stock
   */
  takeover: Yii2LinePage | null;
  /** due delayed jobs and expired reservations, which are in no section yet */
  notInLineYet: Yii2NotInLineYet;
}

/**
 * Jobs the driver moves into the line on its next reserve (ng: or push)
 * that are not in it yet, by the server's clock (spec §2.2): stock RPUSHes
 * them onto the tail, so they run before every row, the expired
 * reservations first; ng scores them into the line by priority.
 */
export interface Yii2NotInLineYet {
  /** delayed jobs due at or before now */
  dueDelayed: number;
  /** reservations expired at or before now */
  expiredReserved: number;
}

export interface Yii2RunOrderPage {
  offset?: number;
  /** 1..100 */
  limit?: number;
  takeoverOffset?: number;
  takeoverLimit?: number;
}

/** A row's shared part. `ng` null means the stock driver: priorities are not its. */
export function summaryOf({ id, attempts, storedPriority, length, head, headRead }: Yii2JobRow, ng: Yii2NgSettings | null): Yii2JobSummary {
  return {
    id,
    attempts,
    priority: ng === null ? null : (storedPriority ?? ng.defaultPriority),
    priorityStored: ng !== null && storedPriority !== null,
    ...summarizeMessage(head, length, headRead),
  };
}

/** The settings a driver reads its scores with: ng's (their defaults when none were given), none for stock. */
export function ngSettingsFor(driver: Yii2Driver, ng: Yii2NgSettings | null): Yii2NgSettings | null {
  return driver === 'yii2-ng' ? (ng ?? DEFAULT_YII2_NG_SETTINGS) : null;
}

/** A page's bounds, checked: whole offsets from 0, limits of 0..100. */
export function pageBounds(offset: number, limit: number): [number, number] {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new QueueError(`The offset must be a whole number from 0, not ${offset}`);
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_PAGE_ROWS)
    throw new QueueError(`The page size must be a whole number from 0 to ${MAX_PAGE_ROWS}, not ${limit}`);
  return [offset, limit];
}

/**
 * One page of a channel's waiting jobs in the order its driver runs them
 * (and, under ng, of the stock list's jobs it has yet to take over), with
 * each job's attempts, priority and class, and how many due delayed jobs
 * and expired reservations will join it, in one read-only script
 * (lua/yii2/read-line-7.lua): a consistent snapshot, bounded by the page.
 * Throws QueueError when a key has the wrong type.
 */
export async function readRunOrder(
  connection: RedisConnection,
  keys: Yii2Keys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
  page: Yii2RunOrderPage = {},
): Promise<Yii2RunOrder> {
  const settings = ngSettingsFor(driver, ng);
  const [offset, limit] = pageBounds(page.offset ?? 0, page.limit ?? MAX_PAGE_ROWS);
  const [takeoverOffset, takeoverLimit] = pageBounds(page.takeoverOffset ?? 0, page.takeoverLimit ?? limit);
  return connection.attempt(async () => {
    const { now, lineTotal, takeoverTotal, lineRows, takeoverRows, dueDelayed, expiredReserved } = await readLine.run(connection.redis, {
      ...keys.byName,
      driver,
      lineOffset: offset,
      lineLimit: limit,
      takeoverOffset,
      takeoverLimit,
      headBytes: ROW_HEAD_BYTES,
      copyLimit: ROW_COPY_LIMIT_BYTES,
    });
    const rowsOf = (rows: Yii2JobRow[], from: number, scored: boolean): Yii2LineRow[] =>
      rows.map((row, index) => {
        const summary = summaryOf(row, settings);
        const score = scored && settings ? decodeNgScore(row.score, summary.priority ?? settings.defaultPriority, settings) : null;
        return { ...summary, place: from + index + 1, score };
      });
    return {
      channel: keys.channel,
      driver,
      now,
      line: { total: lineTotal, offset, rows: rowsOf(lineRows, offset, settings !== null) },
      takeover: settings === null ? null : { total: takeoverTotal, offset: takeoverOffset, rows: rowsOf(takeoverRows, takeoverOffset, false) },
      notInLineYet: { dueDelayed, expiredReserved },
    };
  });
}
