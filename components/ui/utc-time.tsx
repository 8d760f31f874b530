/**
 * A moment of the browser's clock (when a read answered) in the dashboard's
 * one clock: UTC, 24-hour, `09:58:24 UTC`, as every queue time is shown.
 * Server and browser render it alike, whatever their zones and locales.
 */
export function UtcTime({ ms }: { ms: number }) {
  const iso = new Date(ms).toISOString();
  return <time dateTime={iso}>{`${iso.slice(11, 19)} UTC`}</time>;
}
