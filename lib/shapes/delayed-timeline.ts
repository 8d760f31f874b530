import type { JobIdAsRead } from './job-ids';

/** How many come due in one stretch of time: scores in (start, end], unix seconds. */
export interface DelayedBucket {
  start: number;
  end: number;
  count: number;
}

export interface DelayedJobView {
  id: JobIdAsRead;
  /** null when the job's hash is gone */
  name: string | null;
  /** the delayed set's score: when it may run, unix seconds */
  dueAt: number;
  /** the hash's attempts so far; 0 when the hash is gone */
  attempts: number;
  /** the hash's priority, which is the level it joins; null when the hash is gone or holds none */
  priority: number | null;
  /**
   * Parked while its holder's claim is live (reserved_until ahead of the
   * server's clock): the worker `holder` may still be running it until
   * `until`, so running it now would run it twice at once. Null otherwise.
   */
  heldBy: { holder: string; until: number } | null;
}

/** Whether anybody seems to be reserving from the queue; see `readDelayedTimeline` for the rule. */
export interface Attendance {
  /** due jobs have waited longer than UNATTENDED_AFTER_SECONDS and no stream handed anything out since */
  unattended: boolean;
  /** the score of the oldest due job, unix seconds; null when none is due */
  oldestOverdueAt: number | null;
  /**
   * The newest `last-delivered-id` among the queue's streams' groups, as ms
   * since the epoch (entry ids carry the ms they were added): a delivery
   * happened at or after it. Null when no stream has a group or none
   * delivered anything.
   */
  lastDeliveredEntryAt: number | null;
}

export interface DelayedTimeline {
  queue: string;
  /** the Redis server's clock, unix seconds */
  now: number;
  /** ids in the delayed set */
  total: number;
  /** score <= now: due, but only a reserve on this queue (or "promote now") moves them */
  overdue: number;
  /** the next hour in 5-minute buckets, the next day in hours, the next week in days */
  hour: DelayedBucket[];
  day: DelayedBucket[];
  week: DelayedBucket[];
  /** due more than a week from now */
  later: number;
  /** soonest first, overdue ones included */
  next: DelayedJobView[];
  attendance: Attendance;
}

/** The buckets a timeline counts in: `count` stretches of `seconds` each, from now. */
export const TIMELINE_SCALES = {
  hour: { count: 12, seconds: 300 },
  day: { count: 24, seconds: 3_600 },
  week: { count: 7, seconds: 86_400 },
} as const;

/**
 * Due jobs waiting this long mean nobody reserves from the queue: a reserve
 * promotes the oldest due ids first, so one in the last minute would have
 * moved them. A minute leaves room for workers that poll slowly or back off.
 */
export const UNATTENDED_AFTER_SECONDS = 60;

/** When the oldest job that waits for a reserve became ready, and the newest delivery's entry time: what "unattended" is judged on. */
export interface WaitingSince {
  /** unix seconds; null when nothing waits */
  oldestWaitingAt: number | null;
  /** ms since the epoch, a lower bound of the last delivery (see Attendance); null when nothing was delivered */
  lastDeliveredEntryAt: number | null;
  /** the Redis server's clock, unix seconds */
  now: number;
}

/**
 * Nobody reserved from the queue for `afterSeconds`: a job has been ready
 * that long and no stream of the queue delivered an entry added since. The
 * delayed page's "unattended" and the overview's "no worker" mark both judge
 * by this.
 */
export function nobodyReservedSince({ oldestWaitingAt, lastDeliveredEntryAt, now }: WaitingSince, afterSeconds: number): boolean {
  if (oldestWaitingAt === null || now - oldestWaitingAt < afterSeconds) return false;
  return lastDeliveredEntryAt === null || lastDeliveredEntryAt < oldestWaitingAt * 1000;
}

/** The buckets of one scale from `now`: `count` stretches of `seconds`, each (start, end]. */
export function bucketsOf(now: number, { count, seconds }: { count: number; seconds: number }) {
  return Array.from({ length: count }, (_, index) => ({ start: now + index * seconds, end: now + (index + 1) * seconds }));
}
