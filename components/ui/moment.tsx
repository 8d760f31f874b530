import { formatRelative, formatUtc, isoOf } from './format-moment';

/**
 * A moment of the queue in UTC and how far it is from the server's `now`
 * (both unix seconds from the same read): `12:00:03 UTC (in 25 s)`. Rendered
 * alike by server and browser, since neither reads its own clock.
 */
export function UtcMoment({ seconds, now }: { seconds: number; now: number }) {
  return (
    <>
      <time dateTime={isoOf(seconds)} className="whitespace-nowrap">
        {formatUtc(seconds, now)}
      </time>{' '}
      <span className="whitespace-nowrap text-zinc-500 dark:text-zinc-400">({formatRelative(seconds, now)})</span>
    </>
  );
}
