import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { overviewQuery } from '@/lib/queries/overview';
import { getQueryClient } from '@/lib/queries/query-client';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readOverview } from '@/lib/server/overview';
import { Overview } from './overview';

// Counts are read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, overviewQuery(), readOverview);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Overview />
    </HydrationBoundary>
  );
}
