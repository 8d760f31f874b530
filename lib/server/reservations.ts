import 'server-only';
import { z } from 'zod';
import type { ExpiringReservationsPage, ReservationsScopeRead } from '@/lib/layouts/pages';
import type { Connection } from '@/lib/dashboard/connections';
import type { ReservationsScope } from '@/lib/queries/reservations';
import { pickerNames } from '@/lib/shapes/queue-picker';
import { keptOverviewOf } from '@/lib/dashboard/every-queue-overview';
import { latestOverview } from './overview';
import { getLayout, readCapability, type ReadResult } from './queue';

export const reservationsParams = z.object({
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  queue: z.string().min(1).max(1000).optional(),
});

/**
 * Up to this many queues, a request for every queue's reservations reads
 * every queue itself, as fresh as the moment. Past it, it reads only the
 * queues the overview's latest tick counted reserved jobs in: a connection
 * of ten thousand queues is not read whole for each viewer's poll. A queue
 * whose first reservation came after that tick (at most a tick or two ago)
 * shows at the next; a StaticPHP job parked in the delayed set of a queue
 * that held no reservation at the tick (a rare reclaim, counted as delayed,
 * not reserved: reading every delayed queue would read them all again) is
 * seen with the page filtered by its queue.
 */
const EVERY_QUEUE_READ_UP_TO = 200;

/** The queues to read reservations in, where the connection has more than EVERY_QUEUE_READ_UP_TO, and the picker's names, from the latest tick; null: read every queue. */
async function queuesToRead(connection: Connection): Promise<{ among: string[]; of: number; countedAt: number; picker: string[] } | null> {
  const layout = await getLayout(connection);
  // A connection the kept tick found small is read whole, without waiting for a tick that has aged (the sampler stopped).
  const kept = keptOverviewOf(connection.name);
  if (kept !== null && kept.queues.length <= EVERY_QUEUE_READ_UP_TO) return null;
  const { latest } = await latestOverview(connection, layout);
  const rows = latest.value.queues;
  if (rows.length <= EVERY_QUEUE_READ_UP_TO) return null;
  return {
    among: rows.filter((row) => row.reserved > 0).map((row) => row.queue),
    of: rows.length,
    countedAt: Math.floor(latest.readAt / 1000),
    picker: pickerNames(rows.map((row) => row.queue).sort()),
  };
}

/**
 * One page of the reservations (of one queue, when `scope` names one), as the
 * connection's layout reads them (with holders and claims where it records
 * them), for GET /api/reservations and the page's prefetch. Without a queue,
 * on a connection of many queues, only those with jobs reserved at the
 * latest tick are read (EVERY_QUEUE_READ_UP_TO).
 */
export function readReservationsPage(scope: ReservationsScope): Promise<ReadResult<ExpiringReservationsPage>> {
  return readCapability(
    'expiringReservations',
    async (reservations, connection) => {
      const chosen = scope.queue === undefined ? await queuesToRead(connection) : null;
      const read: ReservationsScopeRead = chosen === null ? scope : { ...scope, among: chosen.among };
      const page = await reservations.read(read);
      const readAmong = chosen === null ? {} : { readAmong: { queues: chosen.among.length, of: chosen.of, countedAt: chosen.countedAt } };
      // The filter's picker lists a bounded number of names (lib/shapes/queue-picker.ts); every poll carried up to a thousand.
      const byHolder = page.byHolder && { byHolder: { ...page.byHolder, queueNames: chosen?.picker ?? pickerNames(page.byHolder.queueNames) } };
      return { ...page, ...byHolder, ...readAmong };
    },
    ['reservations', scope.queue ?? '', scope.page],
  );
}
