import 'server-only';
import { readServerInfo } from '@/lib/inspect/server-info';
import type { Overview } from '@/lib/queries/overview';
import { readQueue, type ReadResult } from './queue';

/** The overview, for GET /api/overview and the page's prefetch. */
export function readOverview(): Promise<ReadResult<Overview>> {
  return readQueue(async (queue) => {
    const [queues, failed, server] = await Promise.all([queue.stats(), queue.failedCount(), readServerInfo(queue)]);
    return { queues, failed, server };
  });
}
