import { formatDuration } from './format-duration';

/**
 * Moments of the queue as the dashboard writes them. The queue's times are
 * the Redis server's clock (unix seconds, or `Y-m-d H:i:s` in UTC), so they
 * are shown in UTC and measured against the server's `now` from the same
 * read, never against the browser's clock, which may be skewed.
 */

function utcParts(seconds: number): { date: string; time: string } {
  const iso = new Date(Math.floor(seconds) * 1000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** `12:00:03 UTC` on the day of `now`, `2026-08-02 12:00:03 UTC` on any other. */
export function formatUtc(seconds: number, now: number): string {
  const moment = utcParts(seconds);
  return moment.date === utcParts(now).date ? `${moment.time} UTC` : `${moment.date} ${moment.time} UTC`;
}

/** How far `seconds` is from `now`: `in 25 s`, `3 min ago`, or `now` within the second. */
export function formatRelative(seconds: number, now: number): string {
  const difference = Math.floor(seconds) - Math.floor(now);
  if (difference === 0) return 'now';
  return difference > 0 ? `in ${formatDuration(difference)}` : `${formatDuration(-difference)} ago`;
}

/** An instant for `<time dateTime>`. */
export function isoOf(seconds: number): string {
  return new Date(Math.floor(seconds) * 1000).toISOString();
}
