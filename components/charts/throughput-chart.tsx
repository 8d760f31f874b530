'use client';

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { perSecond, type HistoryPoint } from '@/lib/queries/throughput';

const HEIGHT = 260;

/** The chart's columns: time in unix seconds, then each series, null where unknown. */
function columnsOf(points: readonly HistoryPoint[]): uPlot.AlignedData {
  return [
    points.map((point) => point.at / 1000),
    points.map((point) => perSecond(point.processed, point.seconds)),
    points.map((point) => perSecond(point.pushed, point.seconds)),
    points.map((point) => perSecond(point.failed, point.seconds)),
    points.map((point) => point.pending),
  ];
}

function rate(_chart: uPlot, value: number | null): string {
  return value === null ? '—' : `${value.toFixed(value < 10 ? 2 : 1)}/s`;
}

function count(_chart: uPlot, value: number | null): string {
  return value === null ? '—' : Math.round(value).toLocaleString('en-US');
}

function options(width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    // The legend shows each series' value under the cursor: the hover values.
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, rate: { auto: true, range: (_chart, min, max) => [0, Math.max(1, max, min)] }, jobs: { auto: true } },
    series: [
      {},
      { label: 'Processed', scale: 'rate', stroke: '#2563eb', width: 2, value: rate },
      { label: 'Pushed', scale: 'rate', stroke: '#16a34a', width: 1.5, value: rate },
      { label: 'Failed', scale: 'rate', stroke: '#dc2626', width: 1.5, value: rate },
      { label: 'Pending', scale: 'jobs', stroke: '#a1a1aa', width: 1, dash: [4, 4], value: count },
    ],
    axes: [{}, { scale: 'rate', label: 'jobs per second', size: 60 }, { scale: 'jobs', side: 1, label: 'pending', size: 60, grid: { show: false } }],
  };
}

/**
 * Processed, pushed and failed per second and the pending backlog over
 * time, drawn by uPlot (a canvas that stays quick with thousands of
 * points); the legend under it gives each figure at the hovered moment.
 * `label` names the chart for screen readers.
 */
export function ThroughputChart({ points, label }: { points: readonly HistoryPoint[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const made = new uPlot(options(element.clientWidth), [[], [], [], [], []], element);
    chart.current = made;
    const resize = new ResizeObserver(() => made.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      made.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setData(columnsOf(points));
  }, [points]);

  return <figure role="figure" aria-label={label} ref={container} className="w-full overflow-hidden rounded-md border border-zinc-200 bg-white p-2 text-xs dark:border-zinc-800 dark:bg-zinc-900" />;
}
