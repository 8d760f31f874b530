import 'server-only';
import { crossedThresholds, thresholdsFor } from '@/lib/dashboard/alerts';
import { failingWindowMinutes, failuresWithin, marksOf, markThresholdsFor, type RanOutClaim } from '@/lib/dashboard/marks';
import { readRecentFailures, readWaitingFigures } from '@/lib/inspect/attention';
import { readReservations } from '@/lib/inspect/reservations';
import { readServerInfo } from '@/lib/inspect/server-info';
import type { Overview } from '@/lib/queries/overview';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { readQueue, type ReadResult } from './queue';
import { readThroughputGlance } from './throughput';

/**
 * Pending entries the overview joins to their jobs per poll, oldest
 * deliveries of each stream first: the ones whose claims run out first.
 * Beyond them a stuck queue is still marked, by the claims it read.
 */
const CLAIMS_READ = 200;
/** Failures the overview reads per poll, newest first; more in the window are counted as at least this many. */
const FAILURES_READ = 500;

interface Claims {
  running: number;
  ranOut: RanOutClaim[];
}

/** The reservations page's reading of every claim, by queue: the running ones counted, the ones past their deadline with their holders. */
async function readClaimsByQueue(queue: RedisQueue): Promise<Map<string, Claims>> {
  const reservations = await readReservations(queue, { maxEntries: CLAIMS_READ });
  const byQueue = new Map<string, Claims>();
  for (const { rows } of reservations.holders) {
    for (const row of rows) {
      if (row.state !== 'running' && row.state !== 'overdue') continue;
      let claims = byQueue.get(row.queue);
      if (!claims) byQueue.set(row.queue, (claims = { running: 0, ranOut: [] }));
      if (row.state === 'running') claims.running += 1;
      else claims.ranOut.push({ holder: row.reservedBy, deadline: Number(row.reservedUntil) });
    }
  }
  return byQueue;
}

/**
 * The overview, for GET /api/overview and the page's prefetch: every
 * registered queue, empty ones included (stats() leaves those out, as the
 * PHP driver does; the overview's rows must not come and go), each judged
 * against its connection's alert thresholds and marked where it needs
 * attention. The reservations and the failures are read only when some
 * queue has a claim or the failed set is not empty.
 */
export function readOverview(): Promise<ReadResult<Overview>> {
  return readQueue(async (queue, connection) => {
    const names = await queue.queueNames();
    const [counts, waiting, failed, server, [seconds]] = await Promise.all([
      queue.countsOf(names),
      readWaitingFigures(queue, names),
      queue.failedCount(),
      readServerInfo(queue),
      queue.attempt(() => queue.nodeHoldingKeys().time()),
    ]);
    const now = Number(seconds);
    const thresholds = names.map((name) => markThresholdsFor(connection.marks, name));
    const longestWindow = Math.max(0, ...thresholds.map(failingWindowMinutes));
    const [claims, failures, throughput] = await Promise.all([
      counts.some((row) => row.reserved > 0) ? readClaimsByQueue(queue) : new Map<string, Claims>(),
      failed > 0 ? readRecentFailures(queue, now - longestWindow * 60, FAILURES_READ) : { byQueue: new Map(), truncated: false },
      readThroughputGlance(queue, connection, names),
    ]);
    const queues = counts.map((row, index) => {
      const glance = throughput.queues[index]!;
      const figures = waiting[index]!;
      const recent = failures.byQueue.get(row.queue);
      const failedAt = recent?.failedAt ?? [];
      const minutes = failingWindowMinutes(thresholds[index]!);
      const failedRecently = { count: failuresWithin(failedAt, now, minutes), minutes, atLeast: failures.truncated };
      // A queue whose keys could not be read has no figures to judge.
      if (row.error !== undefined || 'error' in figures) {
        return { ...row, ...glance, error: row.error ?? ('error' in figures ? figures.error : undefined), crossed: [], marks: [], failedRecently };
      }
      const crossed = crossedThresholds(thresholdsFor(connection.alerts, row.queue), { backlog: row.total, waitSeconds: glance.waitSeconds });
      const queueClaims = claims.get(row.queue);
      const marks = marksOf(
        {
          now,
          pending: row.pending,
          oldestWaitingAt: figures.oldestWaitingAt,
          lastDeliveredEntryAt: figures.lastDeliveredEntryAt,
          due: figures.due,
          oldestDueAt: figures.oldestDueAt,
          runningClaims: queueClaims?.running ?? 0,
          ranOutClaims: queueClaims?.ranOut ?? [],
          failedAt,
          latestError: recent?.latest.errorFirstLine ?? '',
        },
        thresholds[index]!,
      );
      return { ...row, ...glance, crossed, marks, failedRecently };
    });
    return { queues, failed, server, throughput: throughput.total, now };
  });
}
