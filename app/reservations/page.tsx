import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { getQueryClient } from '@/lib/queries/query-client';
import { singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { reservationsQuery, reservationsScopeFromParams } from '@/lib/queries/reservations';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readReservationsPage } from '@/lib/server/reservations';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { ReservationsView } from './reservations-view';

// Read from Redis on every request; a cached page would show claims that have moved on.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Reservations · QueueLens' };

export default async function ReservationsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.reservations);
  if (elsewhere !== null) return elsewhere;
  const scope = reservationsScopeFromParams(singleSearchParams(params));
  const lacks = await absentCapability('expiringReservations');
  if (lacks !== null) return <LayoutLacks title="Reservations" sentence={lacks} />;
  const queryClient = getQueryClient();
  const [line, claims] = await Promise.all([
    offeredLineRepairs(),
    absentCapability('claimRepairs'),
    prefetchLiveQuery(queryClient, reservationsQuery(scope), () => readReservationsPage(scope)),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      <ReservationsView scope={scope} repairs={{ line, claims }} />
    </HydrationBoundary>
  );
}
