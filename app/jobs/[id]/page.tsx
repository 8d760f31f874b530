import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { jobDetailQuery } from '@/lib/queries/job-detail';
import { getQueryClient } from '@/lib/queries/query-client';
import { parseJobId } from '@/lib/routes';
import { readJobPage } from '@/lib/server/job-detail';
import { prefetchLiveQuery } from '@/lib/server/live';
import { JobDetailView, NotAJobId } from './job-detail';

// Read from Redis on every request; a cached page would show a stale job.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseJobId((await params).id);
  return { title: id === null ? 'Not a job id · QueueLens' : `Job ${id} · QueueLens` };
}

export default async function JobPage({ params }: Props) {
  const segment = (await params).id;
  const id = parseJobId(segment);
  if (id === null) return <NotAJobId segment={segment} />;
  const lacks = await absentCapability('jobDetail');
  if (lacks !== null) return <LayoutLacks title={`Job ${id}`} sentence={lacks} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, jobDetailQuery(id), () => readJobPage(id));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <JobDetailView id={id} />
    </HydrationBoundary>
  );
}
