import 'server-only';
import { readFailedTotals } from '@/lib/dashboard/history';
import { formatMetrics } from '@/lib/dashboard/metrics';
import { sampleThroughput } from '@/lib/inspect/throughput';
import type { QueueCounts } from '@/lib/layouts/adapter';
import { readCapability, readLayout, type ReadResult } from './queue';
import { throughputKeysOf } from './throughput';

/** GET /api/metrics: every queue's figures in the Prometheus text format, read fresh (a scrape is its own sample). */
export function readMetrics(): Promise<ReadResult<string>> {
  return readCapability('throughput', async (queue, connection) => {
    const keys = throughputKeysOf(queue);
    const [sample, failedTotals, failedJobs] = await Promise.all([
      sampleThroughput(queue),
      queue.attempt(() => readFailedTotals(queue.redis, keys)),
      queue.failedCount(),
    ]);
    return formatMetrics({ connection: connection.name, sample, failedTotals, failedJobs, alerts: connection.alerts });
  });
}

/** GET /api/stats: every queue's figures by the rule of the layout's driver's own report (StaticPHP's stats()). */
export function readStats(): Promise<ReadResult<QueueCounts[]>> {
  return readLayout(async (layout) => (await layout.counts()).queues, ['stats']);
}
