import type { Reservations } from '../inspect/reservations';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { HolderGroup, ParkedJob, ParkingHazard, ReservationRow, Reservations, ReservationState } from '../inspect/reservations';

export const RESERVATIONS_PATH = '/api/reservations';

/** GET /api/reservations: every pending entry, classified, and every parked job, grouped by the worker holding it. */
export function reservationsQuery() {
  return liveQueryOptions<Reservations>(queryKeys.reservations.all, RESERVATIONS_PATH);
}
