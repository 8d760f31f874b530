const UNITS = [
  { seconds: 86_400, name: 'd' },
  { seconds: 3_600, name: 'h' },
  { seconds: 60, name: 'min' },
  { seconds: 1, name: 's' },
] as const;

/** A length of time in its largest unit and the next one unless that is zero (`3 d 4 h`, `1 h`), for uptimes and ages. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const index = UNITS.findIndex((unit) => seconds >= unit.seconds);
  const largest = UNITS[index];
  if (largest === undefined) return '0 s';
  const parts = [`${Math.floor(seconds / largest.seconds)} ${largest.name}`];
  const next = UNITS[index + 1];
  const nextCount = next ? Math.floor((seconds % largest.seconds) / next.seconds) : 0;
  if (next && nextCount > 0) parts.push(`${nextCount} ${next.name}`);
  return parts.join(' ');
}
