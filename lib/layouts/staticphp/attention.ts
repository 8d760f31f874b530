import { readQueueFigures, readRecentFailures, type WaitingFigures } from './attention-figures';
import { classifyPendingEntries, type PendingEntry } from './reservations';
import { isListedByStats, type RedisQueue } from './redis-queue';
import type { QueueStats } from '../../shapes/queue-counts';
import type { QueueAttention } from '../../shapes/queue-attention';
import { failingWindowMinutes, failuresWithin, marksOf, markThresholdsFor, type MarkRules, type MarkThresholds, type RanOutClaim } from '../../dashboard/marks';
import type { CountsOptions, JudgedCounts } from '../adapter';

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
 * The queues `options` names, as counts() reads them, each with what needs
 * attention on it, judged by `rules` against the server's clock: one round
 * trip of bounded scripts that read each queue's keys once for its counts,
 * its waiting figures and its entries held long; then those entries joined
 * to their jobs (only when there are any) and the recent failures (one
 * bounded script, only when some job failed).
 */
export async function readQueueAttention(queue: RedisQueue, { everyQueue = false, only }: CountsOptions, rules: MarkRules): Promise<JudgedCounts> {
  const names = only ?? (await queue.queueNames());
  const thresholds = names.map((name) => markThresholdsFor(rules, name));
  // The last delivery matters only to a queue whose jobs waited past its "no worker" threshold,
  // and only an entry held past the "stuck" threshold can be a claim that far past its deadline.
  const further = {
    waitedSeconds: smallest(thresholds.map((each) => each.noWorkerSeconds)),
    heldSeconds: smallest(thresholds.map((each) => each.stuckSeconds)),
  };
  const [figures, failed, [seconds]] = await Promise.all([
    readQueueFigures(queue, names, further),
    queue.failedCount(),
    queue.attempt(() => queue.nodeHoldingKeys().time()),
  ]);
  const now = Number(seconds);
  const longestWindow = Math.max(0, ...thresholds.map(failingWindowMinutes));
  const heldLong = figures.flatMap(({ waiting }) => waiting?.heldLong ?? []);
  const [claims, failures] = await Promise.all([
    readRanOutClaims(queue, heldLong, now),
    failed > 0 ? readRecentFailures(queue, now - longestWindow * 60, FAILURES_READ) : { byQueue: new Map(), truncated: false },
  ]);
  const judge = (row: QueueStats, waiting: WaitingFigures | null, own: MarkThresholds): QueueAttention => {
    const recent = failures.byQueue.get(row.queue);
    const failedAt = recent?.failedAt ?? [];
    const minutes = failingWindowMinutes(own);
    const failedRecently = { count: failuresWithin(failedAt, now, minutes), minutes, atLeast: failures.truncated };
    // A queue whose keys could not be read has no figures to judge (its row says why).
    if (waiting === null) return { marks: [], failedRecently };
    const marks = marksOf(
      {
        now,
        pending: row.pending,
        oldestWaitingAt: waiting.oldestWaitingAt,
        lastDeliveredEntryAt: waiting.lastDeliveredEntryAt,
        due: waiting.due,
        oldestDueAt: waiting.oldestDueAt,
        newestHeldDeliveryAt: waiting.newestHeldDeliveryAt,
        ranOutClaims: claims.get(row.queue) ?? [],
        failedAt,
        latestError: recent?.latest.errorFirstLine ?? '',
      },
      own,
    );
    return { marks, failedRecently };
  };
  const judged = figures.map(({ stats, waiting }, index) => ({ stats, attention: judge(stats, waiting, thresholds[index]!) }));
  // As stats() leaves them out, unless every queue (or the ones named) is asked for.
  const kept = everyQueue || only ? judged : judged.filter(({ stats }) => isListedByStats(stats));
  return { queues: kept.map(({ stats }) => stats), failed, now, attention: kept.map(({ attention }) => attention) };
}
