import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { dueTimelineQuery, jobLineQuery } from '@/lib/queries/layout-pages';
import { queueDetailQuery } from '@/lib/queries/queue-detail';
import { chartRangeFromParam, queueHistoryQuery, type HistoryRange } from '@/lib/queries/throughput';
import { getQueryClient } from '@/lib/queries/query-client';
import { queueFromMetadataParam, queueFromSegment } from '@/lib/routes';
import { pageParams, readDueTimelinePage, readJobLinePage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readQueuePage } from '@/lib/server/queue-detail';
import { readQueueHistory } from '@/lib/server/throughput';
import { JobLineView } from './job-line-view';
import { NotAQueueName, QueueDetailView } from './queue-detail';

// Read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ queue: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Queue ${queueFromMetadataParam((await params).queue)} · QueueLens` };
}

export default async function QueuePage({ params, searchParams }: Props) {
  const segment = (await params).queue;
  const { range: rangeParam } = await searchParams;
  // The chart's range is in the address, so a link shows the same range.
  const range = chartRangeFromParam(typeof rangeParam === 'string' ? rangeParam : null);
  const name = queueFromSegment(segment);
  if (name === null) return <NotAQueueName segment={segment} />;
  if ((await absentCapability('queueDetail')) !== null) return <JobLinePage name={name} page={pageParams.safeParse(await searchParams).data?.page ?? 1} chartRange={range} />;
  const queryClient = getQueryClient();
  await Promise.all([
    prefetchLiveQuery(queryClient, queueDetailQuery(name), () => readQueuePage(name)),
    // The delayed timeline's glance (components/delayed/delayed-compact.tsx) arrives drawn too.
    prefetchLiveQuery(queryClient, dueTimelineQuery(name), () => readDueTimelinePage(name)),
    prefetchLiveQuery(queryClient, queueHistoryQuery(name, range), () => readQueueHistory(name, range)),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <QueueDetailView name={name} chartRange={range} />
    </HydrationBoundary>
  );
}

/** The queue's page for a layout without StaticPHP's queue detail: its line, when it has one, and its throughput where the layout samples it. */
async function JobLinePage({ name, page, chartRange }: { name: string; page: number; chartRange: HistoryRange }) {
  const [lacks, unsampled] = await Promise.all([absentCapability('jobLine'), absentCapability('throughput')]);
  if (lacks !== null) return <LayoutLacks title={name} sentence={lacks} />;
  const queryClient = getQueryClient();
  await Promise.all([
    prefetchLiveQuery(queryClient, jobLineQuery(name, page), () => readJobLinePage(name, page)),
    unsampled === null && prefetchLiveQuery(queryClient, queueHistoryQuery(name, chartRange), () => readQueueHistory(name, chartRange)),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <JobLineView name={name} page={page} chartRange={unsampled === null ? chartRange : null} />
    </HydrationBoundary>
  );
}
