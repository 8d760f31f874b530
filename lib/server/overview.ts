import 'server-only';
import { readServerInfo } from '@/lib/inspect/server-info';
import type { Overview } from '@/lib/queries/overview';
import { readQueue, type ReadResult } from './queue';
import { readThroughputGlance } from './throughput';

/** The overview, for GET /api/overview and the page's prefetch. */
export function readOverview(): Promise<ReadResult<Overview>> {
  return readQueue(async (queue) => {
    const [queues, failed, server] = await Promise.all([queue.stats(), queue.failedCount(), readServerInfo(queue)]);
    const throughput = await readThroughputGlance(queue, queues.map((row) => row.queue));
    return { queues, failed, server, throughput };
  });
}
