import 'server-only';
import { readFailedTotals } from '@/lib/dashboard/history';
import { formatMetrics } from '@/lib/dashboard/metrics';
import { sampleThroughput } from '@/lib/inspect/throughput';
import type { QueueStats } from '@/lib/queue/redis-queue';
import { readQueue, type ReadResult } from './queue';
import { throughputKeysOf } from './throughput';

/** GET /api/metrics: every queue's figures in the Prometheus text format, read fresh (a scrape is its own sample). */
export function readMetrics(): Promise<ReadResult<string>> {
  return readQueue(async (queue, connection) => {
    const keys = throughputKeysOf(queue);
    const [sample, failedTotals, failedJobs] = await Promise.all([
      sampleThroughput(queue),
      queue.attempt(() => readFailedTotals(queue.redis, keys)),
      queue.failedCount(),
    ]);
    return formatMetrics({ connection: connection.name, sample, failedTotals, failedJobs, alerts: connection.alerts });
  });
}

/** GET /api/stats: stats() as the driver reports it. */
export function readStats(): Promise<ReadResult<QueueStats[]>> {
  return readQueue((queue) => queue.stats(), ['stats']);
}
