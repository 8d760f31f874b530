import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { NotAQueueName } from '@/components/queues/queue-heading';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { dueTimelineQuery, jobLineQuery } from '@/lib/queries/layout-pages';
import { chartRangeFromParam, queueHistoryQuery } from '@/lib/queries/throughput';
import { overviewQuery, queueTriageRequest } from '@/lib/queries/overview';
import { getQueryClient } from '@/lib/queries/query-client';
import { queueFromMetadataParam, queueFromSegment, queueHref, type PageSearchParams } from '@/lib/routes';
import { pageParams, readDueTimelinePage, readJobLinePage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readOverview } from '@/lib/server/overview';
import { readQueueHistory } from '@/lib/server/throughput';
import { addressedPage, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { JobLineView } from './job-line-view';

// Read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ queue: string }>;
  searchParams: Promise<PageSearchParams>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Queue ${queueFromMetadataParam((await params).queue)} · QueueLens` };
}

/** One queue's page: its triage line, its line, and its throughput and delayed glance where the layout has them, all arriving drawn. */
export default async function QueuePage({ params, searchParams }: Props) {
  const segment = (await params).queue;
  const query = await searchParams;
  // The chart's range is in the address, so a link shows the same range.
  const chartRange = chartRangeFromParam(typeof query.range === 'string' ? query.range : null);
  const name = queueFromSegment(segment);
  if (name === null) return <NotAQueueName segment={segment} />;
  const { address, elsewhere } = await addressedPage(query, {
    title: (
      <>
        Queue <span className="font-mono">{name}</span>
      </>
    ),
    what: 'This queue',
    because: 'whose queue of that name is another queue, so it is not shown',
    path: queueHref(name),
    instead: (here) => `Open ${name} on ${here} instead`,
  });
  if (elsewhere !== null) return elsewhere;
  const page = pageParams.safeParse(query).data?.page ?? 1;
  const [lacks, unsampled, undelayed, unpushed, repairs] = await Promise.all([
    absentCapability('jobLine'),
    absentCapability('throughput'),
    absentCapability('dueTimeline'),
    absentCapability('runner'),
    offeredLineRepairs(),
  ]);
  if (lacks !== null) return <LayoutLacks title={name} sentence={lacks} />;
  const queryClient = getQueryClient();
  const reading = readJobLinePage(name, page);
  await Promise.all([
    prefetchLiveQuery(queryClient, jobLineQuery(name, page), () => reading),
    unsampled === null && prefetchLiveQuery(queryClient, queueHistoryQuery(name, chartRange), () => readQueueHistory(name, chartRange)),
    undelayed === null && prefetchLiveQuery(queryClient, dueTimelineQuery(name), () => readDueTimelinePage(name)),
    prefetchLiveQuery(queryClient, overviewQuery(queueTriageRequest(name)), () => readOverview(queueTriageRequest(name))),
  ]);
  // A queue the layout says the connection does not have: ./not-found.tsx answers 404 and names it.
  const line = await reading;
  if (!line.ok && line.status === 404) notFound();
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      <JobLineView
        name={name}
        page={page}
        chartRange={unsampled === null ? chartRange : null}
        delayed={undelayed === null}
        pushes={unpushed === null}
        repairs={repairs}
      />
    </HydrationBoundary>
  );
}
