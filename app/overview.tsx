'use client';

import { ThroughputChart } from '@/components/charts/throughput-chart';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { AttentionSummary } from '@/components/queues/attention-summary';
import { LayoutLimits } from '@/components/queues/layout-limits';
import { NoQueues } from '@/components/queues/no-queues';
import { OverviewFilterForm } from '@/components/queues/overview-filter-form';
import { QueuesTable } from '@/components/queues/queues-table';
import { ThresholdSummary } from '@/components/queues/threshold-summary';
import { EvictionWarning } from '@/components/redis/eviction-warning';
import { ServerFacts } from '@/components/redis/server-facts';
import { formatCount } from '@/components/ui/format-count';
import { Banner } from '@/components/ui/banner';
import { Pager } from '@/components/ui/pager';
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { UtcTime } from '@/components/ui/utc-time';
import { overviewQuery, overviewSearch, type Overview as OverviewData, type OverviewFreshness, type OverviewRequest } from '@/lib/queries/overview';
import { ratesInWords, sampledRates } from '@/lib/queries/throughput';
import { failedHref, overviewHref } from '@/lib/routes';
import type { Route } from 'next';

/** The table of the page's queues, what finds the others, and the pages of the ones found. */
function QueuesOfPage({ overview, request }: { overview: OverviewData; request: OverviewRequest }) {
  const hrefOf = (page: number) => `${overviewHref}${overviewSearch({ ...request, page })}` as Route;
  const pager = (label: string) => <Pager label={label} rows="Queues" window={overview.page} total={overview.matched} hrefOf={hrefOf} />;
  return (
    <>
      <OverviewFilterForm request={request} />
      {overview.matched === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No queue’s name contains <span className="font-mono">{request.filter}</span>. Clear the filter to list{' '}
          {overview.queueCount === 1 ? 'the one queue' : `all ${formatCount(overview.queueCount)} queues`} again.
        </p>
      ) : (
        <>
          {pager('Pages of queues')}
          <QueuesTable
            rows={overview.queues}
            totals={overview.totals}
            throughput={overview.throughput}
            sampled={overview.absent.throughput === undefined}
            waitSampled={overview.absent.throughputGaps?.wait === undefined}
            now={overview.now}
          />
          {pager('Pages of queues, after the table')}
        </>
      )}
    </>
  );
}

/** Said when the latest tick's read of every queue failed: the figures below are from an earlier one. */
function FailedTickBanner({ freshness }: { freshness: OverviewFreshness }) {
  if (freshness.failedRead === undefined) return null;
  return (
    <Banner title="The latest read of the queues failed">
      {freshness.failedRead.error}
      <span className="mt-1 block">
        What is shown below was read at <UtcTime ms={freshness.readAt} />; it updates again as soon as a read succeeds.
      </span>
    </Banner>
  );
}

/**
 * The overview's live body, polled: what every queue adds up to and which
 * need attention, one page of the queues (found by name and ordered as the
 * operator asks, `request`) with their counts, throughput and alert state,
 * the failed jobs and the Redis server.
 */
export function Overview({ request }: { request: OverviewRequest }) {
  const view = useLiveQuery(overviewQuery(request));
  const overview = view.data;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Queues</h1>
      <LiveErrorBanner title="Cannot read the queues" view={view} />
      {overview === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the queues…</p>
      ) : (
        <>
          <FailedTickBanner freshness={overview.freshness} />
          <AttentionSummary attention={overview.attention} now={overview.now} />
          <ThresholdSummary over={overview.attention.over} />
          <EvictionWarning policy={overview.server.maxmemoryPolicy} />
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Stat label="Pending" value={overview.totals.pending} />
            <Stat label="Delayed" value={overview.totals.delayed} />
            <Stat label="Reserved" value={overview.totals.reserved} />
            {overview.failed === null ? (
              <Stat label="Failed jobs" value={null} note={overview.absent.failedJobs} />
            ) : (
              <Stat label="Failed jobs" value={overview.failed} href={failedHref} />
            )}
          </div>
          <LayoutLimits absent={overview.absent} />
          {overview.queueCount > 0 ? (
            <>
              <QueuesOfPage overview={overview} request={request} />
              {overview.absent.throughput === undefined && (
                <Section
                  title="Throughput"
                  description={`${ratesInWords(sampledRates(overview.absent.throughputGaps))} jobs per second and the pending backlog of every queue together over the last 15 minutes, sampled by the dashboard every few seconds.`}
                >
                  <ThroughputChart
                    points={overview.throughput}
                    label="Throughput of every queue, last 15 minutes"
                    rates={sampledRates(overview.absent.throughputGaps)}
                  />
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
