import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { FailedJobs } from '@/components/failed/failed-jobs';
import { FAILED_PAGE_SIZE, failedPageQuery, filterFromParams, isFiltered } from '@/lib/queries/failed';
import { getQueryClient } from '@/lib/queries/query-client';
import { readFailed, readFailedFilterQueues, readFailedRetry } from '@/lib/server/failed';
import { prefetchLiveQuery } from '@/lib/server/live';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Failed jobs · QueueLens' };

export default async function FailedPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.failed);
  if (elsewhere !== null) return elsewhere;
  const lacks = (await absentCapability('failedPages')) ?? (await absentCapability('failedJobs'));
  if (lacks !== null) return <LayoutLacks title={'Failed jobs'} sentence={lacks} />;
  const single = singleSearchParams(params);
  const filter = filterFromParams(single);
  const requested = Number.parseInt(single.get('page') ?? '1', 10);
  const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;

  const queryClient = getQueryClient();
  // A filtered view polls the newest page too: it tells when new failures arrived since the search.
  const offset = isFiltered(filter) ? 0 : (page - 1) * FAILED_PAGE_SIZE;
  const [, queues, retry] = await Promise.all([
    prefetchLiveQuery(queryClient, failedPageQuery(offset), () => readFailed(offset, FAILED_PAGE_SIZE)),
    readFailedFilterQueues(),
    readFailedRetry(),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      {/* Unreadable (Redis away): QueueLens's own retry is offered, and refused with the reason if the layout turns out to lack it. */}
      <FailedJobs
        filter={filter}
        page={page}
        queues={queues.ok ? queues.data : []}
        retry={retry.ok ? retry.data : { here: true, everyJobAbsent: null, maxAttempts: true }}
      />
    </HydrationBoundary>
  );
}
