/**
 * The time axis of the throughput charts in the dashboard's one clock: UTC
 * and 24-hour, as the header's "updated" and every queue time are shown.
 * uPlot's own labels follow the browser's zone and its 12-hour clock, so a
 * chart read beside the header would seem shifted by the reader's offset.
 */

const DAY = 86_400;

function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/**
 * One label per tick (`splits`, unix seconds) for ticks `step` seconds
 * apart: `12:00:05` when they are seconds apart, `12:05` when minutes or
 * hours apart, `12-01` (month-day) when days apart. When the ticks cross
 * midnight at an hour's step, a tick on midnight says its day instead, so a
 * 7-day chart shows where each day begins.
 */
export function utcAxisLabels(splits: readonly number[], step: number): string[] {
  return splits.map((seconds) => {
    const iso = isoOf(seconds);
    if (step >= DAY) return iso.slice(5, 10);
    if (step < 60) return iso.slice(11, 19);
    const crossesDays = splits.length > 0 && isoOf(splits[0]!).slice(0, 10) !== isoOf(splits.at(-1)!).slice(0, 10);
    if (crossesDays && step >= 3600 && iso.slice(11, 16) === '00:00') return iso.slice(5, 10);
    return iso.slice(11, 16);
  });
}

/** The hovered moment in the legend: `2026-12-01 12:00:05 UTC`. */
export function utcLegendMoment(seconds: number): string {
  return `${isoOf(seconds).slice(0, 19).replace('T', ' ')} UTC`;
}
