const UNITS = ['bytes', 'KiB', 'MiB', 'GiB'] as const;

/** A size in bytes as people read it (`512 bytes`, `1.5 KiB`); fixed locale, so server and tests agree. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} ${value === 1 ? 'byte' : UNITS[0]}` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
