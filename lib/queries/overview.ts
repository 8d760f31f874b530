import type { ServerInfo } from '../inspect/server-info';
import type { QueueStats } from '../queue/redis-queue';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';
import type { ThroughputGlance } from './throughput';

/** GET /api/overview: every queue's counts, the failed count, the Redis server's facts and a glance at throughput. */
export interface Overview {
  queues: QueueStats[];
  failed: number;
  server: ServerInfo;
  throughput: ThroughputGlance;
}

export const OVERVIEW_PATH = '/api/overview';

export function overviewQuery() {
  return liveQueryOptions<Overview>(queryKeys.overview.all, OVERVIEW_PATH);
}
