import type { ServerInfo } from '../inspect/server-info';
import type { QueueStats } from '../queue/redis-queue';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

/** GET /api/overview: every queue's counts, the failed count and the Redis server's facts. */
export interface Overview {
  queues: QueueStats[];
  failed: number;
  server: ServerInfo;
}

export const OVERVIEW_PATH = '/api/overview';

export function overviewQuery() {
  return liveQueryOptions<Overview>(queryKeys.overview.all, OVERVIEW_PATH);
}
