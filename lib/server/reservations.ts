import 'server-only';
import { readReservations } from '@/lib/inspect/reservations';
import type { Reservations } from '@/lib/queries/reservations';
import { readQueue, type ReadResult } from './queue';

/** The reservations page, for GET /api/reservations and the page's prefetch. */
export function readReservationsPage(): Promise<ReadResult<Reservations>> {
  return readQueue((queue) => readReservations(queue));
}
