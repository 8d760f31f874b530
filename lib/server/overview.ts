import 'server-only';
import { crossedThresholds, thresholdsFor } from '@/lib/dashboard/alerts';
import { readServerInfo } from '@/lib/inspect/server-info';
import type { Overview } from '@/lib/queries/overview';
import { readQueue, type ReadResult } from './queue';
import { readThroughputGlance } from './throughput';

/** The overview, for GET /api/overview and the page's prefetch: each queue judged against its connection's alert thresholds. */
export function readOverview(): Promise<ReadResult<Overview>> {
  return readQueue(async (queue, connection) => {
    const [counts, failed, server] = await Promise.all([queue.stats(), queue.failedCount(), readServerInfo(queue)]);
    const throughput = await readThroughputGlance(queue, connection, counts.map((row) => row.queue));
    const queues = counts.map((row, index) => {
      const glance = throughput.queues[index]!;
      // A queue whose keys could not be read has no figures to judge.
      const crossed = row.error === undefined ? crossedThresholds(thresholdsFor(connection.alerts, row.queue), { backlog: row.total, waitSeconds: glance.waitSeconds }) : [];
      return { ...row, ...glance, crossed };
    });
    return { queues, failed, server, throughput: throughput.total };
  }, ['overview']);
}
