import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { dueTimelineQuery } from '@/lib/queries/layout-pages';
import { getQueryClient } from '@/lib/queries/query-client';
import { queueFromMetadataParam, queueFromSegment } from '@/lib/routes';
import { readDueTimelinePage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { NotAQueueName } from '@/components/queues/queue-heading';
import { DueTimelineView } from './due-timeline-view';

// Read from Redis on every request; a cached page would show a stale timeline.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ queue: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Delayed jobs of ${queueFromMetadataParam((await params).queue)} · QueueLens` };
}

export default async function DelayedPage({ params }: Props) {
  const segment = (await params).queue;
  const name = queueFromSegment(segment);
  if (name === null) return <NotAQueueName segment={segment} />;
  const lacks = await absentCapability('dueTimeline');
  if (lacks !== null) return <LayoutLacks title={`Delayed jobs of ${name}`} sentence={lacks} />;
  const queryClient = getQueryClient();
  const [repairs] = await Promise.all([offeredLineRepairs(), prefetchLiveQuery(queryClient, dueTimelineQuery(name), () => readDueTimelinePage(name))]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <DueTimelineView name={name} repairs={repairs} />
    </HydrationBoundary>
  );
}
