const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/**
 * A moment as the reader's clock shows it. The server renders in its own
 * zone and locale, the browser in the reader's: the text may differ on
 * hydration, and the browser's is the right one.
 */
export function LocalTime({ ms }: { ms: number }) {
  return (
    <time dateTime={new Date(ms).toISOString()} suppressHydrationWarning>
      {timeOfDay.format(ms)}
    </time>
  );
}
