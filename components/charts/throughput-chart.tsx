'use client';

import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatUtc } from '@/components/ui/format-moment';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { perSecond, type HistoryPoint, type RateSeries } from '@/lib/queries/throughput';
import { useDarkScheme } from './use-dark-scheme';
import { utcAxisLabels, utcLegendMoment } from './utc-axis';

const HEIGHT = 260;

/** The chart's columns: time in unix seconds, then each series the layout samples (`rates`) and the backlog, null where unknown. */
function columnsOf(points: readonly HistoryPoint[], rates: readonly RateSeries[]): uPlot.AlignedData {
  return [
    points.map((point) => point.at / 1000),
    ...rates.map((series) => points.map((point) => perSecond(point[series], point.seconds))),
    points.map((point) => point.pending),
  ];
}

const RATE_LABELS: Record<RateSeries, string> = { processed: 'Processed', pushed: 'Pushed', failed: 'Failed' };

function rate(_chart: uPlot | null, value: number | null): string {
  return value === null ? '—' : `${value.toFixed(value < 10 ? 2 : 1)}/s`;
}

function count(_chart: uPlot | null, value: number | null): string {
  return value === null ? '—' : Math.round(value).toLocaleString('en-US');
}

/** Colours for what the canvas draws itself: the page's text and rule colours and series that keep 3:1 against its background, light and dark. */
interface Palette {
  text: string;
  grid: string;
  processed: string;
  pushed: string;
  failed: string;
  pending: string;
}

// Tailwind's zinc-700/200 and 600-shades of the series on white; zinc-300/700 and 400-shades on zinc-900.
const LIGHT: Palette = { text: '#3f3f46', grid: '#e4e4e7', processed: '#2563eb', pushed: '#16a34a', failed: '#dc2626', pending: '#71717a' };
const DARK: Palette = { text: '#d4d4d8', grid: '#3f3f46', processed: '#60a5fa', pushed: '#4ade80', failed: '#f87171', pending: '#a1a1aa' };

function options(UPlot: typeof uPlot, width: number, palette: Palette, rates: readonly RateSeries[]): uPlot.Options {
  const axis = { stroke: palette.text, grid: { stroke: palette.grid, width: 1 }, ticks: { stroke: palette.grid, width: 1 } };
  return {
    width,
    height: HEIGHT,
    // The legend shows each series' value under the cursor: the hover values.
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    // Ticks fall on UTC minutes, hours and days, whatever the browser's zone.
    tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, rate: { auto: true, range: (_chart, min, max) => [0, Math.max(1, max, min)] }, jobs: { auto: true } },
    series: [
      { label: 'Time', value: (_chart, seconds: number | null) => (seconds === null ? '—' : utcLegendMoment(seconds)) },
      ...rates.map((series) => ({ label: RATE_LABELS[series], scale: 'rate', stroke: palette[series], width: series === 'processed' ? 2 : 1.5, value: rate })),
      { label: 'Pending', scale: 'jobs', stroke: palette.pending, width: 1, dash: [4, 4], value: count },
    ],
    axes: [
      { ...axis, values: (_chart, splits, _axis, _space, step) => utcAxisLabels(splits, step) },
      { ...axis, scale: 'rate', label: 'jobs per second', size: 60 },
      { ...axis, scale: 'jobs', side: 1, label: 'pending', size: 60, grid: { show: false } },
    ],
  };
}

/**
 * uPlot's module, fetched once and only when a chart is about to be seen. Evaluating it costs a phone a
 * few hundred milliseconds (it makes the page's first Intl formatters, which load the locale's data), and
 * the overview draws its chart below the queues table: a page that loaded it with the rest of its code
 * answered that much later to its first tap (issue 29). Its script is added by Next's nonced loader,
 * which the policy's 'strict-dynamic' trusts.
 */
let uPlotModule: Promise<typeof uPlot> | undefined;
function loadUPlot(): Promise<typeof uPlot> {
  uPlotModule ??= import('uplot').then((loaded) => loaded.default);
  return uPlotModule;
}

/**
 * How far below the screen a chart starts loading: two screens' height, so that it is drawn before it is scrolled
 * to, and a chart in a desktop's first screens (and its test's) loads at once; one three phone screens down waits.
 */
const LOAD_AHEAD = '0px 0px 200% 0px';

// The table under the chart lists the newest samples: enough to read the recent trend, few enough to read at all.
const TABLE_ROWS = 60;

/** The chart's figures as a table, newest first, for a screen reader or anyone who wants the numbers; closed until asked for. */
function FiguresTable({ points, label, rates }: { points: readonly HistoryPoint[]; label: string; rates: readonly RateSeries[] }) {
  // Its rows are made only while it is open: closed, they were hundreds of elements to hydrate and to render again at every poll.
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-2 text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-blue-700 dark:text-blue-300">
        The figures as a table{points.length > TABLE_ROWS ? ` (the newest ${TABLE_ROWS} of ${points.length} samples)` : ''}
      </summary>
      {open && <FiguresTableBody points={points} label={label} rates={rates} />}
    </details>
  );
}

function FiguresTableBody({ points, label, rates }: { points: readonly HistoryPoint[]; label: string; rates: readonly RateSeries[] }) {
  const newest = points.slice(-TABLE_ROWS).reverse();
  const now = points.at(-1)!.at / 1000;
  return (
    <div className="mt-2">
      <DataTable
        label={`${label}, as a table`}
        minWidthClass="min-w-[32rem]"
        head={
          <>
            <HeaderCell>Sampled at</HeaderCell>
            {rates.map((series) => (
              <HeaderCell key={series} numeric>
                {RATE_LABELS[series]}
              </HeaderCell>
            ))}
            <HeaderCell numeric>Pending</HeaderCell>
          </>
        }
      >
        {newest.map((point) => (
          <tr key={point.at}>
            <Cell>{formatUtc(point.at / 1000, now)}</Cell>
            {rates.map((series) => (
              <Cell key={series} numeric>
                {rate(null, perSecond(point[series], point.seconds))}
              </Cell>
            ))}
            <Cell numeric>{count(null, point.pending)}</Cell>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

/**
 * Processed, pushed and failed (`rates`: those the layout samples) per second and the pending backlog over time, drawn by uPlot (a canvas that stays quick with thousands of
 * points) in the page's light or dark colours; the legend under it gives
 * each figure at the hovered moment, and a table under that the figures
 * themselves. `label` names the chart for screen readers.
 */
export function ThroughputChart({ points, label, rates }: { points: readonly HistoryPoint[]; label: string; rates: readonly RateSeries[] }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const dark = useDarkScheme();
  // The newest points, for a chart made again when the scheme changes.
  const latest = useRef(points);
  // The series as one string: a chart is made again when they change, not at every render's new array.
  const shown = rates.join(',');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const series = shown.split(',') as RateSeries[];
    let made: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    let gone = false;
    const draw = (UPlot: typeof uPlot) => {
      if (gone) return;
      made = new UPlot(options(UPlot, element.clientWidth, dark ? DARK : LIGHT, series), columnsOf(latest.current, series), element);
      chart.current = made;
      const drawn = made;
      resize = new ResizeObserver(() => drawn.setSize({ width: element.clientWidth, height: HEIGHT }));
      resize.observe(element);
    };
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        near.disconnect();
        loadUPlot().then(draw, (error: unknown) => console.error('The throughput chart could not load uPlot', error));
      },
      { rootMargin: LOAD_AHEAD },
    );
    near.observe(element);
    return () => {
      gone = true;
      near.disconnect();
      resize?.disconnect();
      made?.destroy();
      chart.current = null;
    };
  }, [dark, shown]);

  useEffect(() => {
    latest.current = points;
    chart.current?.setData(columnsOf(points, shown.split(',') as RateSeries[]));
  }, [points, shown]);

  return (
    <div>
      <figure
        role="figure"
        aria-label={label}
        ref={container}
        // The drawn chart's height held from the first paint, so that nothing below moves when it arrives: the
        // canvas, the padding and border, and uPlot's legend (three lines on a phone, one from sm).
        style={{ '--plot-height': `${HEIGHT}px` } as CSSProperties}
        className="min-h-[calc(var(--plot-height)_+_107px)] w-full overflow-hidden rounded-md border border-zinc-200 bg-white p-2 text-xs sm:min-h-[calc(var(--plot-height)_+_48px)] dark:border-zinc-800 dark:bg-zinc-900"
      />
      {points.length > 0 && <FiguresTable points={points} label={label} rates={rates} />}
    </div>
  );
}
