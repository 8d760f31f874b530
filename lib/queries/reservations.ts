import type { ReservationsPage } from '../inspect/reservations';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { HolderGroup, ParkedJob, ParkingHazard, ReservationRow, ReservationsPage, ReservationState } from '../inspect/reservations';

/**
 * Rows a page of reservations shows. A row is about 2.2 KB of HTML (the row
 * and its share of the hydration data) and most of a page's rendering time:
 * at 50 rows a page was 155–170 KB and fifty requests at once took 1.8–2.4 s
 * at p95 on the 2-core benchmark machine, where the whole list of a thousand
 * was 1.79 MB and 5.8 s.
 */
export const RESERVATIONS_PAGE_SIZE = 25;

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

/** GET /api/reservations?queue=&page=: one page of the pending entries, classified and grouped by the worker holding them. */
export function reservationsQuery(scope: ReservationsScope) {
  return liveQueryOptions<ReservationsPage>(queryKeys.reservations.page(scope.queue ?? '', scope.page), `/api/reservations${reservationsSearch(scope)}`);
}
