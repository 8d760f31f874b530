/** Every third digit from the right of a run of digits, where a comma goes. */
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * Intl's formatter, made on first need only: the first Intl formatter a page
 * makes loads the browser's locale data, about 35 ms of a phone's CPU (four
 * times that under Lighthouse's throttling) in the task that hydrates the
 * page, and whole counts, nearly all a page prints, do not need it.
 */
let fractions: Intl.NumberFormat | undefined;

/** A job count as the dashboard prints it (1,234): fixed locale, so server and tests agree. */
export function formatCount(value: number): string {
  // -0 is whole but printed "-0" by Intl, and String(-0) is "0".
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value).replace(THOUSANDS, ',');
  fractions ??= new Intl.NumberFormat('en');
  return fractions.format(value);
}

/** A count and its noun, singular for exactly one: "1 job", "1,234 jobs". */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}
