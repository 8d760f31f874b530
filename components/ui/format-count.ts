const counts = new Intl.NumberFormat('en');

/** A job count as the dashboard prints it (1,234): fixed locale, so server and tests agree. */
export function formatCount(value: number): string {
  return counts.format(value);
}

/** A count and its noun, singular for exactly one: "1 job", "1,234 jobs". */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}
