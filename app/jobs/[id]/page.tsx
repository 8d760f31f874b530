import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { jobDetailQuery } from '@/lib/queries/job-detail';
import { jobSnapshotQuery } from '@/lib/queries/layout-pages';
import { getQueryClient } from '@/lib/queries/query-client';
import { parseJobId, parseJobIdText } from '@/lib/routes';
import { readJobPage } from '@/lib/server/job-detail';
import { jobSnapshotParams, readJobSnapshotPage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { JobDetailView, NotAJobId } from './job-detail';
import { JobSnapshotView } from './job-snapshot-view';

// Read from Redis on every request; a cached page would show a stale job.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseJobIdText((await params).id);
  return { title: id === null ? 'Not a job id · QueueLens' : `Job ${id} · QueueLens` };
}

export default async function JobPage({ params, searchParams }: Props) {
  const segment = (await params).id;
  const text = parseJobIdText(segment);
  if (text === null) return <NotAJobId segment={segment} />;
  if ((await absentCapability('jobDetail')) !== null) return <JobSnapshotPage id={text} queue={jobSnapshotParams.safeParse(await searchParams).data?.queue} />;
  const id = parseJobId(segment);
  if (id === null) return <NotAJobId segment={segment} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, jobDetailQuery(id), () => readJobPage(id));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <JobDetailView id={id} />
    </HydrationBoundary>
  );
}

/** The job page for a layout without StaticPHP's job hashes: its snapshot by id (decimal, or text such as marko’s UUIDs), when the layout has one. */
async function JobSnapshotPage({ id, queue }: { id: string; queue?: string }) {
  const lacks = await absentCapability('jobSnapshot');
  if (lacks !== null) return <LayoutLacks title={`Job ${id}`} sentence={lacks} />;
  const queryClient = getQueryClient();
  const [repairs] = await Promise.all([offeredLineRepairs(), prefetchLiveQuery(queryClient, jobSnapshotQuery(id, queue), () => readJobSnapshotPage(id, queue))]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <JobSnapshotView id={id} queue={queue} repairs={repairs} />
    </HydrationBoundary>
  );
}
