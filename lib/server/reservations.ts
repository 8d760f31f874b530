import 'server-only';
import { z } from 'zod';
import { pageOfReservations, readReservations } from '@/lib/inspect/reservations';
import { RESERVATIONS_PAGE_SIZE, type ReservationsPage, type ReservationsScope } from '@/lib/queries/reservations';
import { readCapability, type ReadResult } from './queue';

export const reservationsParams = z.object({
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  queue: z.string().min(1).max(1000).optional(),
});

/**
 * One page of the reservations (of one queue, when `scope` names one), for
 * GET /api/reservations and the page's prefetch. Every page of a scope is cut
 * from one shared read of it: paging through costs Redis nothing more.
 */
export async function readReservationsPage({ queue, page }: ReservationsScope): Promise<ReadResult<ReservationsPage>> {
  const result = await readCapability('reservations', (redisQueue) => readReservations(redisQueue, {}, { queue }), ['reservations', queue ?? '']);
  return result.ok ? { ok: true, data: pageOfReservations(result.data, page, RESERVATIONS_PAGE_SIZE) } : result;
}
