import 'server-only';
import { readFailedTotals } from '@/lib/dashboard/history';
import { formatMetrics } from '@/lib/dashboard/metrics';
import { isAbsent, type QueueCounts } from '@/lib/layouts/adapter';
import type { Connection } from '@/lib/dashboard/connections';
import type { MetricsInput } from '@/lib/dashboard/metrics';
import { getLayout, readCapability, readJudgement, readLayout, type ReadResult } from './queue';
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
 * Every queue's marks, as the overview judges them, for a scrape: shared for
 * a second with other scrapes (a judgement over a minute or more does not
 * change in one); null where the layout judges none.
 */
async function readMarks(connection: Connection): Promise<MetricsInput['marks']> {
  const { attention } = await getLayout(connection);
  if (isAbsent(attention)) return null;
  const now = await readJudgement(connection, ['metrics-marks'], async () => {
    const judged = await attention.read({ everyQueue: true }, connection.marks);
    return new Map(judged.queues.map((row, index) => [row.queue, (judged.attention[index]?.marks ?? []).map((mark) => mark.kind)]));
  });
  return { now, rules: connection.marks };
}

/** GET /api/stats: every queue's figures by the rule of the layout's driver's own report (StaticPHP's stats()). */
export function readStats(): Promise<ReadResult<QueueCounts[]>> {
  return readLayout(async (layout) => (await layout.counts()).queues, ['stats']);
}
