import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { overviewQuery, overviewRequestFromParams } from '@/lib/queries/overview';
import { getQueryClient } from '@/lib/queries/query-client';
import { overviewHref, singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { addressedConnection } from '@/lib/server/addressed-connection';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readOverview } from '@/lib/server/overview';
import { ConnectionNamedInAddress, shownElsewhere } from '@/app/connection-in-address';
import { Overview } from './overview';

// Counts are read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

export default async function OverviewPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const address = await addressedConnection(params);
  const elsewhere = shownElsewhere(address, params, {
    title: 'Queues',
    what: 'This overview',
    because: 'whose queues are others, so they are not shown',
    path: overviewHref,
    instead: (here) => `Show the queues of ${here} instead`,
  });
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
