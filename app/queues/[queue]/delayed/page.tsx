import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { dueTimelineQuery } from '@/lib/queries/layout-pages';
import { getQueryClient } from '@/lib/queries/query-client';
import { delayedOfQueueHref, queueFromMetadataParam, queueFromSegment, type PageSearchParams } from '@/lib/routes';
import { addressedPage, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { readDueTimelinePage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { NotAQueueName } from '@/components/queues/queue-heading';
import { DueTimelineView } from './due-timeline-view';

// Read from Redis on every request; a cached page would show a stale timeline.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ queue: string }>;
  searchParams: Promise<PageSearchParams>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Delayed jobs of ${queueFromMetadataParam((await params).queue)} · QueueLens` };
}

export default async function DelayedPage({ params, searchParams }: Props) {
  const [segment, query] = await Promise.all([params.then(({ queue }) => queue), searchParams]);
  const name = queueFromSegment(segment);
  if (name === null) return <NotAQueueName segment={segment} />;
  const { address, elsewhere } = await addressedPage(query, {
    title: (
      <>
        Delayed jobs of <span className="font-mono">{name}</span>
      </>
    ),
    what: 'This list',
    because: 'whose queue of that name is another queue, so its delayed jobs are not shown',
    path: delayedOfQueueHref(name),
    instead: (here) => `Show the delayed jobs of ${name} on ${here} instead`,
  });
  if (elsewhere !== null) return elsewhere;
  const lacks = await absentCapability('dueTimeline');
  if (lacks !== null) return <LayoutLacks title={`Delayed jobs of ${name}`} sentence={lacks} />;
  const queryClient = getQueryClient();
  const [repairs] = await Promise.all([offeredLineRepairs(), prefetchLiveQuery(queryClient, dueTimelineQuery(name), () => readDueTimelinePage(name))]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      <DueTimelineView name={name} repairs={repairs} />
    </HydrationBoundary>
  );
}
