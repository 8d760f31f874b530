import type { ExpiringReservationsPage } from '../layouts/pages';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

/** Which reservations a page shows: page `page` (from 1), of one queue's when `queue` is set. */
export interface ReservationsScope {
  queue?: string;
  page: number;
}

/** The scope in a URL's search params (`/reservations?queue=…&page=…`); a page that is no whole number above 0 is the first. */
export function reservationsScopeFromParams(params: { get(name: string): string | null }): ReservationsScope {
  const queue = params.get('queue')?.trim() || undefined;
  const page = Number(params.get('page'));
  return { queue, page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
}

/** The scope's search params, the first page and no queue left out. */
export function reservationsSearch({ queue, page }: ReservationsScope): string {
  const params = new URLSearchParams();
  if (queue !== undefined) params.set('queue', queue);
  if (page > 1) params.set('page', String(page));
  return params.size > 0 ? `?${params}` : '';
}

/** GET /api/reservations?queue=&page=: one page of the reservations, with their expiry, and grouped by the worker holding them where the layout records it. */
export function reservationsQuery(scope: ReservationsScope) {
  return liveQueryOptions<ExpiringReservationsPage>(
    queryKeys.reservations.page(scope.queue ?? '', scope.page),
    `/api/reservations${reservationsSearch(scope)}`,
  );
}
