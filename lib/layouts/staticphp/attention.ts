import { readRecentFailures, readWaitingFigures } from './attention-figures';
import { classifyPendingEntries, type PendingEntry } from './reservations';
import type { RedisQueue } from './redis-queue';
import type { QueueStats } from '../../shapes/queue-counts';
import type { QueueAttention } from '../../shapes/queue-attention';
import { failingWindowMinutes, failuresWithin, marksOf, markThresholdsFor, type MarkRules, type RanOutClaim } from '../../dashboard/marks';

/** Failures read per call, newest first; more in the window are counted as at least this many. */
const FAILURES_READ = 500;

/** A wait no job reaches (a century): with every "no worker" mark off, the last delivery is never read. */
const NEVER_SECONDS = 100 * 365 * 86_400;

/** The smallest of a threshold over every queue, NEVER_SECONDS when every queue has it off. */
function smallest(values: readonly (number | false)[]): number {
  const least = Math.min(...values.map((value) => (value === false ? Infinity : value)));
  return Number.isFinite(least) ? least : NEVER_SECONDS;
}

/**
 * The claims past their deadline among `entries` (held long, the candidates
 * for "stuck"), by queue with their holders: the entries joined and
 * classified as the reservations page classifies its rows (its overdue ones).
 */
async function readRanOutClaims(queue: RedisQueue, entries: readonly PendingEntry[], now: number): Promise<Map<string, RanOutClaim[]>> {
  const byQueue = new Map<string, RanOutClaim[]>();
  if (entries.length === 0) return byQueue;
  for (const row of await classifyPendingEntries(queue, entries, now)) {
    if (row.state !== 'overdue') continue;
    const claim = { holder: row.reservedBy, deadline: Number(row.reservedUntil) };
    const claims = byQueue.get(row.queue);
    if (claims) claims.push(claim);
    else byQueue.set(row.queue, [claim]);
  }
  return byQueue;
}

/**
 * What needs attention on each of `counts`' queues (their countsOf() rows),
 * in order, judged by `rules` against the server's clock: one round trip of
 * bounded scripts for the waiting figures and the entries held long, then
 * those entries joined to their jobs (only when there are any) and the
 * recent failures (one bounded script, only when `failedCount` is not 0).
 */
export async function readQueueAttention(
  queue: RedisQueue,
  counts: readonly QueueStats[],
  failedCount: number,
  rules: MarkRules,
): Promise<{ now: number; queues: QueueAttention[] }> {
  const names = counts.map((row) => row.queue);
  const thresholds = names.map((name) => markThresholdsFor(rules, name));
  // The last delivery matters only to a queue whose jobs waited past its "no worker" threshold,
  // and only an entry held past the "stuck" threshold can be a claim that far past its deadline.
  const further = {
    waitedSeconds: smallest(thresholds.map((each) => each.noWorkerSeconds)),
    heldSeconds: smallest(thresholds.map((each) => each.stuckSeconds)),
  };
  const [waiting, [seconds]] = await Promise.all([readWaitingFigures(queue, names, further), queue.attempt(() => queue.nodeHoldingKeys().time())]);
  const now = Number(seconds);
  const longestWindow = Math.max(0, ...thresholds.map(failingWindowMinutes));
  const heldLong = waiting.flatMap((figures) => ('error' in figures ? [] : figures.heldLong));
  const [claims, failures] = await Promise.all([
    readRanOutClaims(queue, heldLong, now),
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
        oldestWaitingAt: figures.oldestWaitingAt,
        lastDeliveredEntryAt: figures.lastDeliveredEntryAt,
        due: figures.due,
        oldestDueAt: figures.oldestDueAt,
        newestHeldDeliveryAt: figures.newestHeldDeliveryAt,
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
