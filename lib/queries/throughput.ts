import type { HistoryPoint, HistoryRange } from '../dashboard/history';
import type { HistoryResolution } from '../dashboard/keys';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { HistoryPoint, HistoryRange };

/** The ranges a queue's chart offers, shortest first: every range history keeps. */
export const CHART_RANGES = ['15m', '1h', '24h', '7d'] as const satisfies readonly HistoryRange[];

/** The range a queue's chart opens on (and the page prefetches): an hour of 5-second points. */
export const DEFAULT_CHART_RANGE: HistoryRange = '1h';

/** GET /api/queues/{queue}/history?range=: one queue's throughput points over the range, oldest first. */
export interface QueueHistory {
  queue: string;
  range: HistoryRange;
  resolution: HistoryResolution;
  points: HistoryPoint[];
}

/** The overview's glance at throughput: every queue together over the last 15 minutes, and each queue's processed/s for a sparkline. */
export interface ThroughputGlance {
  total: HistoryPoint[];
  queues: { queue: string; processedPerSecond: (number | null)[]; waitSeconds: number | null }[];
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
