import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { getQueryClient } from '@/lib/queries/query-client';
import { reservationsHref, singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { addressedConnection } from '@/lib/server/addressed-connection';
import { reservationsQuery, reservationsScopeFromParams } from '@/lib/queries/reservations';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readReservationsPage } from '@/lib/server/reservations';
import { ConnectionNamedInAddress, shownElsewhere } from '@/app/connection-in-address';
import { ReservationsView } from './reservations-view';

// Read from Redis on every request; a cached page would show claims that have moved on.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Reservations · QueueLens' };

export default async function ReservationsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const address = await addressedConnection(params);
  const elsewhere = shownElsewhere(address, params, {
    title: 'Reservations',
    what: 'This list',
    because: 'whose reservations are others, so they are not shown',
    path: reservationsHref,
    instead: (here) => `Show the reservations of ${here} instead`,
  });
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
