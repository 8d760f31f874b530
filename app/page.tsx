import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { overviewQuery, overviewRequestFromParams } from '@/lib/queries/overview';
import { getQueryClient } from '@/lib/queries/query-client';
import { singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readOverview } from '@/lib/server/overview';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { Overview } from './overview';

// Counts are read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

export default async function OverviewPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.overview);
  if (elsewhere !== null) return elsewhere;
  const request = overviewRequestFromParams(singleSearchParams(params));
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, overviewQuery(request), () => readOverview(request));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      <Overview request={request} />
    </HydrationBoundary>
  );
}
