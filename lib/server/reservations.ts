import 'server-only';
import { z } from 'zod';
import type { ExpiringReservationsPage } from '@/lib/layouts/pages';
import type { ReservationsScope } from '@/lib/queries/reservations';
import { pickerNames } from '@/lib/shapes/queue-picker';
import { readCapability, type ReadResult } from './queue';

export const reservationsParams = z.object({
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  queue: z.string().min(1).max(1000).optional(),
});

/**
 * One page of the reservations (of one queue, when `scope` names one), as the
 * connection's layout reads them (with holders and claims where it records
 * them), for GET /api/reservations and the page's prefetch.
 */
export function readReservationsPage(scope: ReservationsScope): Promise<ReadResult<ExpiringReservationsPage>> {
  return readCapability(
    'expiringReservations',
    async (reservations) => {
      const page = await reservations.read(scope);
      // The filter's picker lists a bounded number of names (lib/shapes/queue-picker.ts); every poll carried up to a thousand.
      return page.byHolder ? { ...page, byHolder: { ...page.byHolder, queueNames: pickerNames(page.byHolder.queueNames) } } : page;
    },
    ['reservations', scope.queue ?? '', scope.page],
  );
}
