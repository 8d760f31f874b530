import { QueueError } from '../redis/errors';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Reads `Y-m-d` or `Y-m-d H:i:s` as UTC into unix seconds, the way the PHP
 * driver reads queue forget --before. Anything else, a date that does not
 * exist (2026-02-30) included, throws.
 */
export function parseUtcDateToSeconds(text: string): number {
  const match = DATE_TIME.exec(text);
  if (match) {
    const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => Number(part ?? 0));
    const date = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
    const roundTrips =
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month! - 1 &&
      date.getUTCDate() === day &&
      date.getUTCHours() === hour &&
      date.getUTCMinutes() === minute &&
      date.getUTCSeconds() === second;
    if (roundTrips) return date.getTime() / 1000;
  }
  throw new QueueError(`Cannot read the date "${text}": expected Y-m-d or Y-m-d H:i:s, in UTC`);
}

/** Unix seconds as `Y-m-d H:i:s` in UTC, the spelling of created_at and failed_at. */
export function formatUtcSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}
