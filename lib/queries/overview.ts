import type { ThresholdCrossing } from '../dashboard/alerts';
import type { ServerInfo } from '../inspect/server-info';
import type { QueueStats } from '../queue/redis-queue';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';
import type { HistoryPoint, ThroughputGlance } from './throughput';

/** One queue's row on the overview: its counts, its throughput at a glance and the alert thresholds it is over. */
export interface OverviewQueue extends QueueStats, ThroughputGlance {
  crossed: ThresholdCrossing[];
}

/** GET /api/overview: every queue's row, the failed count, the Redis server's facts and every queue's throughput together over the last 15 minutes. */
export interface Overview {
  queues: OverviewQueue[];
  failed: number;
  server: ServerInfo;
  throughput: HistoryPoint[];
}

export const OVERVIEW_PATH = '/api/overview';

export function overviewQuery() {
  return liveQueryOptions<Overview>(queryKeys.overview.all, OVERVIEW_PATH);
}
