import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { isJobNotFound } from '@/lib/layouts/pages';
import { jobSnapshotQuery } from '@/lib/queries/layout-pages';
import { getQueryClient } from '@/lib/queries/query-client';
import { jobHref, parseJobId, parseJobIdText, type PageSearchParams } from '@/lib/routes';
import { jobSnapshotParams, readJobSnapshotPage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { addressedPage, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { JobView, NotAJobId } from './job-view';

// Read from Redis on every request; a cached page would show a stale job.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<PageSearchParams>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseJobIdText((await params).id);
  return { title: id === null ? 'Not a job id · QueueLens' : `Job ${id} · QueueLens` };
}

/** What a job id is on a layout whose jobs are hashes numbered by one counter, and on any other. */
const NUMBERED_ID_RULE = 'a job id is a whole number above 0';
const TEXT_ID_RULE = 'a job id is a whole number above 0, or the letters, digits and -_.: of an application’s id';

/**
 * One job by its id (decimal, or text such as marko’s UUIDs), when the
 * connection's layout reads jobs by id; when its address names another
 * connection than this browser's, only that: the same id there is most
 * likely another job.
 */
export default async function JobPage({ params, searchParams }: Props) {
  const [segment, search] = await Promise.all([params.then(({ id }) => id), searchParams]);
  const { address, elsewhere } = await addressedPage(search, {
    title: `Job ${segment}`,
    what: 'This job',
    because: `whose job ${segment} may be another job, so it is not shown`,
    path: jobHref(segment),
    instead: (here) => `Open job ${segment} on ${here} instead`,
  });
  if (elsewhere !== null) return elsewhere;
  return (
    <>
      <ConnectionNamedInAddress address={address} />
      {await theJob(segment, search)}
    </>
  );
}

/** The job itself, or why it cannot be shown. */
async function theJob(segment: string, searchParams: PageSearchParams) {
  // Known without Redis: a layout whose jobs are numbered hashes takes whole numbers only.
  const numbered = (await absentCapability('jobHashFields')) === null;
  const id = numbered ? (parseJobId(segment) === null ? null : segment) : parseJobIdText(segment);
  if (id === null) return <NotAJobId segment={segment} rule={numbered ? NUMBERED_ID_RULE : TEXT_ID_RULE} />;
  const lacks = await absentCapability('jobSnapshot');
  if (lacks !== null) return <LayoutLacks title={`Job ${id}`} sentence={lacks} />;
  const { queue, near } = jobSnapshotParams.safeParse(searchParams).data ?? {};
  const [read, repairs, unpushed, uncopied] = await Promise.all([
    readJobSnapshotPage(id, queue, near),
    offeredLineRepairs(),
    absentCapability('runner'),
    absentCapability('jobCopies'),
  ]);
  // Answered 404 with ./not-found.tsx, which says what was looked for (and shows the job should it come back).
  if (read.ok && isJobNotFound(read.data)) notFound();
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, jobSnapshotQuery(id, queue, near), async () => read);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <JobView id={id} queue={queue} near={near} repairs={repairs} pushes={unpushed === null} copies={uncopied} />
    </HydrationBoundary>
  );
}
