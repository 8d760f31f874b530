import 'server-only';
import { overviewTickOf } from '@/lib/dashboard/every-queue-overview';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { overviewPage } from '@/lib/dashboard/overview-page';
import { sampleMsFromEnv } from '@/lib/dashboard/sampling';
import type { Overview, OverviewRequest } from '@/lib/queries/overview';
import { QueueError } from '@/lib/redis/errors';
import type { Connection } from '@/lib/dashboard/connections';
import type { QueueLayout } from '@/lib/layouts/adapter';
import { readLayout, type ReadResult } from './queue';

/**
 * How old the latest tick may be before a request reads itself: two ticks.
 * The sampler reads every tick, so a request finds at most one tick's
 * figures (the interval and the read's own time); past two, the sampler has
 * stopped or not started yet, and the request reads once for every viewer.
 */
const TICKS_BEFORE_A_REQUEST_READS = 2;

/**
 * The overview, for GET /api/overview and the page's prefetch: one page of
 * the connection's queues as `request` asks (lib/dashboard/overview-page.ts),
 * taken from the latest sampler tick's read of every queue, which every
 * viewer shares: Redis pays per tick, not per request. When the latest
 * tick's read failed, the figures read before it are shown with when and
 * why; with none read yet, the failure is the answer.
 */
export function readOverview(request: OverviewRequest): Promise<ReadResult<Overview>> {
  return readLayout(async (layout, connection) => {
    const { latest, failure } = await latestOverview(connection, layout);
    const failedRead = failure === null ? {} : { failedRead: { error: describeFailure(failure.error), at: failure.at } };
    return { ...latest.value, ...overviewPage(latest.value.queues, request), freshness: { readAt: latest.readAt, ...failedRead } };
  });
}

/**
 * The latest tick's overview of every queue on `connection`, read first when
 * it is older than TICKS_BEFORE_A_REQUEST_READS ticks, with the failure of
 * the read after it if that one failed; throws when no read ever worked.
 */
export async function latestOverview(connection: Connection, layout: QueueLayout) {
  const { latest, failure } = await overviewTickOf(connection, layout, dashboardPrefixFromEnv()).current(sampleMsFromEnv() * TICKS_BEFORE_A_REQUEST_READS);
  if (latest === null) throw failure?.error ?? new Error('the overview was never read');
  return { latest, failure };
}

/** A QueueError's message is written for operators; anything else may carry internals. */
function describeFailure(error: unknown): string {
  return error instanceof QueueError ? error.message : 'Reading the queues failed; the server log has the details.';
}
