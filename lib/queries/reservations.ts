import type { ReservationsPage } from '../inspect/reservations';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { HolderGroup, ParkingHazard, ReservationRow, ReservationsPage, ReservationState } from '../inspect/reservations';

/**
 * Rows a page of reservations shows: about 1.8 KB of HTML each (the row and
 * its share of the hydration data), so a page stays near 100 KB where the
 * whole list of a thousand was 1.8 MB.
 */
export const RESERVATIONS_PAGE_SIZE = 50;

/** Which reservations a page shows: page `page` (from 1), of one queue's when `queue` is set. */
export interface ReservationsView {
  queue?: string;
  page: number;
}

/** The view in a URL's search params (`/reservations?queue=…&page=…`); a page that is no whole number above 0 is the first. */
export function reservationsViewFromParams(params: { get(name: string): string | null }): ReservationsView {
  const queue = params.get('queue')?.trim() || undefined;
  const page = Number(params.get('page'));
  return { queue, page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
}

/** The view's search params, the first page and no queue left out. */
export function reservationsSearch({ queue, page }: ReservationsView): string {
  const params = new URLSearchParams();
  if (queue !== undefined) params.set('queue', queue);
  if (page > 1) params.set('page', String(page));
  return params.size > 0 ? `?${params}` : '';
}

/** GET /api/reservations?queue=&page=: one page of the pending entries, classified and grouped by the worker holding them. */
export function reservationsQuery(view: ReservationsView) {
  return liveQueryOptions<ReservationsPage>(queryKeys.reservations.page(view.queue ?? '', view.page), `/api/reservations${reservationsSearch(view)}`);
}
