/** Its size in CSS pixels: 15 minutes of 5-second samples (180 values) fit at under a pixel each. */
const WIDTH = 120;
const HEIGHT = 24;

/**
 * A small line of values, oldest first, scaled to its own maximum; a null
 * (a gap in the samples, or no figure before Redis 7) breaks the line. The
 * figure it stands for is in `label`, for screen readers and as a tooltip.
 */
export function Sparkline({ values, label }: { values: readonly (number | null)[]; label: string }) {
  const max = Math.max(0, ...values.filter((value): value is number => value !== null));
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const segments: string[] = [];
  let current: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (current.length > 0) segments.push(current.join(' '));
      current = [];
      return;
    }
    const y = max === 0 ? HEIGHT - 1 : HEIGHT - 1 - (value / max) * (HEIGHT - 2);
    current.push(`${(index * step).toFixed(1)},${y.toFixed(1)}`);
  });
  if (current.length > 0) segments.push(current.join(' '));
  return (
    <svg
      role="img"
      aria-label={label}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="inline-block text-blue-600 dark:text-blue-400"
    >
      <title>{label}</title>
      {segments.map((points, index) => (
        <polyline key={index} points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      ))}
    </svg>
  );
}
