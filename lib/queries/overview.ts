import type { ThresholdCrossing } from '../dashboard/alerts';
import type { QueueMark } from '../dashboard/marks';
import type { ServerInfo } from '../inspect/server-info';
import type { QueueStats } from '../queue/redis-queue';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';
import type { HistoryPoint, ThroughputGaps, ThroughputGlance } from './throughput';

/** One queue's row on the overview: its counts, its throughput at a glance, the alert thresholds it is over and what needs attention. */
export interface OverviewQueue extends QueueStats, ThroughputGlance {
  crossed: ThresholdCrossing[];
  /** what is wrong with the queue, each with the page that fixes it; none for a healthy queue */
  marks: QueueMark[];
  /** its failures over the last `minutes` (its failing mark's window); `atLeast` when more failed than one poll reads; null where the layout cannot tell */
  failedRecently: { count: number; minutes: number; atLeast: boolean } | null;
}

/** What the connection's layout cannot tell the overview, each in the sentence shown instead. */
export interface OverviewAbsent {
  failedJobs?: string;
  attention?: string;
  throughput?: string;
  /** what the sampled throughput does not hold, where it is sampled */
  throughputGaps?: ThroughputGaps;
}

/** GET /api/overview: every registered queue's row, empty ones included, the failed count, the Redis server's facts and every queue's throughput together over the last 15 minutes. */
export interface Overview {
  /** the connection's layout: its driver and what of the database it covers */
  layout: string;
  absent: OverviewAbsent;
  queues: OverviewQueue[];
  /** null where the layout keeps no failed jobs */
  failed: number | null;
  server: ServerInfo;
  throughput: HistoryPoint[];
  /** the Redis server's clock when the marks were judged, unix seconds */
  now: number;
}

export const OVERVIEW_PATH = '/api/overview';

export function overviewQuery() {
  return liveQueryOptions<Overview>(queryKeys.overview.all, OVERVIEW_PATH);
}
