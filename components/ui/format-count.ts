const counts = new Intl.NumberFormat('en');

/** A job count as the dashboard prints it (1,234): fixed locale, so server and tests agree. */
export function formatCount(value: number): string {
  return counts.format(value);
}
