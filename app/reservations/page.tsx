import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { getQueryClient } from '@/lib/queries/query-client';
import { expiringReservationsQuery } from '@/lib/queries/layout-pages';
import { reservationsQuery, reservationsScopeFromParams, type ReservationsScope } from '@/lib/queries/reservations';
import { readExpiringReservationsPage } from '@/lib/server/layout-pages';
import { prefetchLiveQuery } from '@/lib/server/live';
import { readReservationsPage } from '@/lib/server/reservations';
import { ExpiringReservationsView } from './expiring-reservations-view';
import { ReservationsView } from './reservations-view';

// Read from Redis on every request; a cached page would show claims that have moved on.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Reservations · QueueLens' };

export default async function ReservationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const scope = reservationsScopeFromParams({
    get: (name) => {
      const value = params[name];
      return typeof value === 'string' ? value : null;
    },
  });
  if ((await absentCapability('reservations')) !== null) return <ExpiringReservationsPage scope={scope} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, reservationsQuery(scope), () => readReservationsPage(scope));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ReservationsView scope={scope} />
    </HydrationBoundary>
  );
}

/** The reservations page for a layout that records no holder: each reservation with its expiry, when the layout has them. */
async function ExpiringReservationsPage({ scope }: { scope: ReservationsScope }) {
  const lacks = await absentCapability('expiringReservations');
  if (lacks !== null) return <LayoutLacks title="Reservations" sentence={lacks} />;
  const queryClient = getQueryClient();
  const [repairs] = await Promise.all([offeredLineRepairs(), prefetchLiveQuery(queryClient, expiringReservationsQuery(scope), () => readExpiringReservationsPage(scope))]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ExpiringReservationsView scope={scope} repairs={repairs} />
    </HydrationBoundary>
  );
}
