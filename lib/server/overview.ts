import 'server-only';
import { crossedThresholds, thresholdsFor } from '@/lib/dashboard/alerts';
import { isAbsent } from '@/lib/layouts/adapter';
import { readServerInfo } from '@/lib/redis/server-info';
import { overviewPage, type QueuesOverviewPage } from '@/lib/dashboard/overview-page';
import type { Overview, OverviewAbsent, OverviewQueue, OverviewRequest } from '@/lib/queries/overview';
import { readJudgement, readLayout, type ReadResult } from './queue';
import { gapsOf, readThroughputGlance } from './throughput';

const NO_GLANCE = { processedPerSecond: [], waitSeconds: null };

/** The overview of every queue, before a viewer's page is taken from it. */
type EveryQueueOverview = Omit<Overview, keyof QueuesOverviewPage> & { queues: OverviewQueue[] };

/**
 * The overview, for GET /api/overview and the page's prefetch: one page of
 * the connection's queues as `request` asks (lib/dashboard/overview-page.ts),
 * taken from one read of every queue that the viewers polling at the same
 * moment share.
 */
export async function readOverview(request: OverviewRequest): Promise<ReadResult<Overview>> {
  const every = await readEveryQueue();
  return every.ok ? { ok: true, data: { ...every.data, ...overviewPage(every.data.queues, request) } } : every;
}

/**
 * Every queue of the connection's layout, empty ones included (StaticPHP's
 * stats() leaves those out, as the PHP driver does; the overview's rows must
 * not come and go), each judged against its connection's alert thresholds
 * and, where the layout can tell, marked where it needs attention. What the
 * layout cannot tell is said, not shown as zeros. The marks may be a second
 * old (see readJudgement); the counts are read for every request.
 */
function readEveryQueue(): Promise<ReadResult<EveryQueueOverview>> {
  return readLayout(
    async (layout, connection) => {
      const { queues: counts, failed } = await layout.counts({ everyQueue: true });
      const names = counts.map((row) => row.queue);
      const { attention: marking, throughput: sampled } = layout;
      const [attention, throughput, server, now] = await Promise.all([
        isAbsent(marking) ? null : readJudgement(connection, ['overview-attention'], () => marking.read(counts, failed ?? 0, connection.marks)),
        isAbsent(sampled) ? null : readThroughputGlance(sampled, connection, names),
        readServerInfo(layout.connection),
        layout.connection.attempt(async () => Number((await layout.connection.redis.time())[0])),
      ]);
      const absent: OverviewAbsent = {
        ...(isAbsent(layout.failedJobs) ? { failedJobs: layout.failedJobs.absent } : {}),
        ...(isAbsent(marking) ? { attention: marking.absent } : {}),
        ...(isAbsent(sampled) ? { throughput: sampled.absent } : { throughputGaps: gapsOf(sampled) }),
      };
      const queues = counts.map((row, index) => {
        const glance = throughput?.queues[index] ?? NO_GLANCE;
        const { marks, failedRecently, error } = attention?.queues[index] ?? { marks: [], failedRecently: null, error: undefined };
        const unread = row.error ?? error;
        // A queue whose keys could not be read has no figures to judge.
        const crossed =
          unread === undefined ? crossedThresholds(thresholdsFor(connection.alerts, row.queue), { backlog: row.total, waitSeconds: glance.waitSeconds }) : [];
        return { ...row, ...glance, error: unread, crossed, marks, failedRecently };
      });
      return { layout: layout.description, absent, queues, failed, server, throughput: throughput?.total ?? [], now };
    },
    ['overview'],
  );
}
