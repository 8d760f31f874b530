'use client';

import { ThroughputChart } from '@/components/charts/throughput-chart';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { AttentionSummary } from '@/components/queues/attention-summary';
import { LayoutLimits } from '@/components/queues/layout-limits';
import { NoQueues } from '@/components/queues/no-queues';
import { QueuesTable, sumOf } from '@/components/queues/queues-table';
import { ThresholdSummary } from '@/components/queues/threshold-summary';
import { EvictionWarning } from '@/components/redis/eviction-warning';
import { ServerFacts } from '@/components/redis/server-facts';
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { overviewQuery } from '@/lib/queries/overview';
import { failedHref } from '@/lib/routes';

/** The overview's live body: every registered queue's counts, throughput, alert state and what needs attention, the failed jobs and the Redis server, polled. */
export function Overview() {
  const view = useLiveQuery(overviewQuery());
  const overview = view.data;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Queues</h1>
      <LiveErrorBanner title="Cannot read the queues" view={view} />
      {overview === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the queues…</p>
      ) : (
        <>
          <AttentionSummary queues={overview.queues} now={overview.now} />
          <ThresholdSummary queues={overview.queues} />
          <EvictionWarning policy={overview.server.maxmemoryPolicy} />
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Stat label="Pending" value={sumOf(overview.queues, 'pending')} />
            <Stat label="Delayed" value={sumOf(overview.queues, 'delayed')} />
            <Stat label="Reserved" value={sumOf(overview.queues, 'reserved')} />
            {overview.failed === null ? <Stat label="Failed jobs" value={null} note={overview.absent.failedJobs} /> : <Stat label="Failed jobs" value={overview.failed} href={failedHref} />}
          </div>
          <LayoutLimits absent={overview.absent} />
          {overview.queues.length > 0 ? (
            <>
              <QueuesTable
                rows={overview.queues}
                throughput={overview.throughput}
                sampled={overview.absent.throughput === undefined}
                waitSampled={overview.absent.throughputGaps?.wait === undefined}
                now={overview.now}
              />
              {overview.absent.throughput === undefined && (
                <Section
                  title="Throughput"
                  description={`Jobs ${overview.absent.throughputGaps?.failed === undefined ? 'processed, pushed and failed' : 'processed and pushed'} per second and the pending backlog of every queue together over the last 15 minutes, sampled by the dashboard every few seconds.`}
                >
                  <ThroughputChart points={overview.throughput} label="Throughput of every queue, last 15 minutes" showFailed={overview.absent.throughputGaps?.failed === undefined} />
                </Section>
              )}
            </>
          ) : (
            <NoQueues />
          )}
          <ServerFacts server={overview.server} />
        </>
      )}
    </div>
  );
}
