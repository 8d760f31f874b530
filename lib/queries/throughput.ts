import type { HistoryPoint, HistoryRange } from '../dashboard/history';
import type { HistoryResolution } from '../dashboard/keys';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { HistoryPoint, HistoryRange };

/** The ranges a queue's chart offers, shortest first: every range history keeps. */
export const CHART_RANGES = ['15m', '1h', '24h', '7d'] as const satisfies readonly HistoryRange[];

/** The range a queue's chart opens on (and the page prefetches): an hour of 5-second points. */
export const DEFAULT_CHART_RANGE: HistoryRange = '1h';

/** The chart range a queue page's `?range=` names; the default for none or one it does not offer, so an old or mistyped link still opens the page. */
export function chartRangeFromParam(value: string | null | undefined): HistoryRange {
  return CHART_RANGES.find((range) => range === value) ?? DEFAULT_CHART_RANGE;
}

/** The figures a layout's throughput samples do not hold, each with the sentence shown instead (and left out of charts and tables). */
export interface ThroughputGaps {
  failed?: string;
  pushed?: string;
  wait?: string;
}

/** The per-second series a throughput chart can draw, in its order. */
export type RateSeries = 'processed' | 'pushed' | 'failed';

/** The series a layout's samples hold: processed always, pushed and failed unless `gaps` says they are not sampled. */
export function sampledRates(gaps: ThroughputGaps | undefined): RateSeries[] {
  return (['processed', 'pushed', 'failed'] as const).filter((series) => series === 'processed' || gaps?.[series] === undefined);
}

/** "Processed, pushed and failed": the series a chart draws, as a sentence begins with them. */
export function ratesInWords(rates: readonly RateSeries[]): string {
  const words = rates.length === 1 ? rates[0]! : `${rates.slice(0, -1).join(', ')} and ${rates.at(-1)}`;
  return words[0]!.toUpperCase() + words.slice(1);
}

/** GET /api/queues/{queue}/history?range=: one queue's throughput points over the range, oldest first. */
export interface QueueHistory {
  queue: string;
  range: HistoryRange;
  resolution: HistoryResolution;
  points: HistoryPoint[];
  gaps: ThroughputGaps;
}

/** A queue's throughput at a glance, as the overview's row shows it: processed/s over the last 15 minutes, oldest first, and the wait at the latest sample. */
export interface ThroughputGlance {
  processedPerSecond: (number | null)[];
  waitSeconds: number | null;
}

export function queueHistoryPath(queue: string, range: HistoryRange): string {
  return `/api/queues/${encodeURIComponent(queue)}/history?range=${range}`;
}

export function queueHistoryQuery(queue: string, range: HistoryRange) {
  return liveQueryOptions<QueueHistory>(queryKeys.queues.history(queue, range), queueHistoryPath(queue, range));
}

/** A point's count per second; null when it is unknown (before Redis 7) or covers no time. */
export function perSecond(count: number | null, seconds: number): number | null {
  return count === null || seconds <= 0 ? null : count / seconds;
}

/** The glance of a series of points: each one's processed/s, and the last one's wait (null with no points). */
export function glanceOf(points: readonly HistoryPoint[]): ThroughputGlance {
  return { processedPerSecond: points.map((point) => perSecond(point.processed, point.seconds)), waitSeconds: points.at(-1)?.waitSeconds ?? null };
}
