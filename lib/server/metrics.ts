import 'server-only';
import { readFailedTotals } from '@/lib/dashboard/history';
import { formatMetrics } from '@/lib/dashboard/metrics';
import { isAbsent, type QueueCounts } from '@/lib/layouts/adapter';
import type { Connection } from '@/lib/dashboard/connections';
import type { MetricsInput } from '@/lib/dashboard/metrics';
import { latestOverview } from './overview';
import { getLayout, readCapability, readLayout, type ReadResult } from './queue';
import { throughputKeysOf } from './throughput';

/** GET /api/metrics: every queue's figures in the Prometheus text format, read fresh (a scrape is its own sample). */
export function readMetrics(): Promise<ReadResult<string>> {
  return readCapability('throughput', async (source, connection) => {
    const { failedJobs: failedSet, connection: redis } = source;
    // A layout that keeps no failed jobs has no failure figures to export, rather than zeros that look counted.
    const [sample, failures, marks] = await Promise.all([
      source.sample(),
      isAbsent(failedSet)
        ? null
        : Promise.all([redis.attempt(() => readFailedTotals(redis.redis, throughputKeysOf(source))), failedSet.failedCount()]).then(([totals, jobs]) => ({
            totals,
            jobs,
          })),
      readMarks(connection),
    ]);
    return formatMetrics({
      connection: connection.name,
      sample,
      failures,
      meaning: source.meaning,
      waitSampled: source.waitUnsampled === null,
      alerts: connection.alerts,
      marks,
    });
  });
}

/**
 * Every queue's marks for a scrape: the overview's own, from the tick every
 * viewer is answered from, so that a scrape costs Redis no read of every
 * queue; null where the layout judges none.
 */
async function readMarks(connection: Connection): Promise<MetricsInput['marks']> {
  const layout = await getLayout(connection);
  if (isAbsent(layout.attention)) return null;
  const { latest } = await latestOverview(connection, layout);
  return { now: new Map(latest.value.queues.map((row) => [row.queue, row.marks.map((mark) => mark.kind)])), rules: connection.marks };
}

/** GET /api/stats: every queue's figures by the rule of the layout's driver's own report (StaticPHP's stats()). */
export function readStats(): Promise<ReadResult<QueueCounts[]>> {
  return readLayout(async (layout) => (await layout.counts()).queues, ['stats']);
}
