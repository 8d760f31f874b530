import { readRecentFailures, readWaitingFigures } from '../inspect/attention';
import { readReservations } from '../inspect/reservations';
import type { QueueStats, RedisQueue } from '../queue/redis-queue';
import { failingWindowMinutes, failuresWithin, marksOf, markThresholdsFor, type MarkRules, type QueueMark, type RanOutClaim } from './marks';

/**
 * Pending entries joined to their jobs per read, oldest deliveries of each
 * stream first: the ones whose claims run out first. Beyond them a stuck
 * queue is still marked, by the claims that were read.
 */
const CLAIMS_READ = 200;
/** Failures read per call, newest first; more in the window are counted as at least this many. */
const FAILURES_READ = 500;

/** A wait no job reaches (a century): with every "no worker" mark off, the last delivery is never read. */
const NEVER_SECONDS = 100 * 365 * 86_400;

/** One queue's attention on the overview: its marks, and its failures over its failing window. */
export interface QueueAttention {
  marks: QueueMark[];
  /** `atLeast` when more failed in the window than one read looks at */
  failedRecently: { count: number; minutes: number; atLeast: boolean };
  /** the marks' figures could not be read (a key of the wrong type) */
  error?: string;
}

/** The reservations page's reading of every claim: the ones past their deadline (its overdue rows), by queue, with their holders. */
async function readRanOutClaims(queue: RedisQueue): Promise<Map<string, RanOutClaim[]>> {
  const reservations = await readReservations(queue, { maxEntries: CLAIMS_READ });
  const byQueue = new Map<string, RanOutClaim[]>();
  for (const { rows } of reservations.holders) {
    for (const row of rows) {
      if (row.state !== 'overdue') continue;
      const claim = { holder: row.reservedBy, deadline: Number(row.reservedUntil) };
      const claims = byQueue.get(row.queue);
      if (claims) claims.push(claim);
      else byQueue.set(row.queue, [claim]);
    }
  }
  return byQueue;
}

/**
 * What needs attention on each of `counts`' queues (their countsOf() rows),
 * in order, judged by `rules` against the server's clock. The waiting figures
 * are one round trip of bounded scripts; the claims are read only when some
 * queue has one, the failures (one bounded script) only when `failedCount`
 * is not 0.
 */
export async function readQueueAttention(
  queue: RedisQueue,
  counts: readonly QueueStats[],
  failedCount: number,
  rules: MarkRules,
): Promise<{ now: number; queues: QueueAttention[] }> {
  const names = counts.map((row) => row.queue);
  const thresholds = names.map((name) => markThresholdsFor(rules, name));
  // The last delivery matters only to a queue whose jobs waited past its "no worker" threshold.
  const noWorkerAfter = Math.min(...thresholds.map((each) => (each.noWorkerSeconds === false ? Infinity : each.noWorkerSeconds)));
  const [waiting, [seconds]] = await Promise.all([
    readWaitingFigures(queue, names, Number.isFinite(noWorkerAfter) ? noWorkerAfter : NEVER_SECONDS),
    queue.attempt(() => queue.nodeHoldingKeys().time()),
  ]);
  const now = Number(seconds);
  const longestWindow = Math.max(0, ...thresholds.map(failingWindowMinutes));
  const [claims, failures] = await Promise.all([
    counts.some((row) => row.reserved > 0) ? readRanOutClaims(queue) : new Map<string, RanOutClaim[]>(),
    failedCount > 0 ? readRecentFailures(queue, now - longestWindow * 60, FAILURES_READ) : { byQueue: new Map(), truncated: false },
  ]);
  const queues = counts.map((row, index): QueueAttention => {
    const figures = waiting[index]!;
    const recent = failures.byQueue.get(row.queue);
    const failedAt = recent?.failedAt ?? [];
    const minutes = failingWindowMinutes(thresholds[index]!);
    const failedRecently = { count: failuresWithin(failedAt, now, minutes), minutes, atLeast: failures.truncated };
    if ('error' in figures) return { marks: [], failedRecently, error: figures.error };
    // A queue whose counts could not be read has no figures to judge.
    if (row.error !== undefined) return { marks: [], failedRecently };
    const marks = marksOf(
      {
        now,
        pending: row.pending,
        ...figures,
        ranOutClaims: claims.get(row.queue) ?? [],
        failedAt,
        latestError: recent?.latest.errorFirstLine ?? '',
      },
      thresholds[index]!,
    );
    return { marks, failedRecently };
  });
  return { now, queues };
}
