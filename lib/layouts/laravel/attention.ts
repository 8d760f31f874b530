import type { RedisConnection } from '../../redis/connection';
import { failingWindowMinutes, failuresWithin, markThresholdsFor, marksOf, type MarkRules, type MarkThresholds, type QueueMark } from '../../dashboard/marks';
import { MARK_KINDS } from '../../dashboard/notices';
import { attentionAfterCounts, type Attention, type QueueCounts, type QueueLayout } from '../adapter';
import { runPerQueue } from '../list-queues';
import type { QueueAttention } from '../../shapes/queue-attention';
import type { HorizonFailedJobs } from './horizon';
import type { LaravelKeys } from './keys';
import { readAttention, type LaravelAttentionFigures } from './scripts';

/** The earlier of two moments, either of which may be missing. */
function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

/** A score at or before `now`: due, or expired (RedisQueue's migrate moves `-inf`..now). */
function pastAt(score: number | null, now: number): number | null {
  return score !== null && score <= now ? score : null;
}

/**
 * The marks one Laravel queue earns. Laravel records neither when a worker
 * last popped nor who holds a reservation, but every pop first moves the due
 * delayed payloads and the expired reservations back onto the ready list
 * (RedisQueue::pop → migrate, Illuminate\Queue\LuaScripts::migrateExpiredJobs),
 * so a delayed job still due, or a reservation still expired, at `now` proves
 * that nobody popped the queue since its score. The marks rest on that proof:
 *
 * - stuck: reservations expired at least `stuckSeconds` ago (their worker
 *   died or hangs, and nobody pops to put them back); no holder is recorded;
 * - overdueDelayed: a delayed job due at least `overdueDelayedSeconds` ago;
 * - noWorker: jobs can run now (the ready list, or due delayed jobs) and the
 *   oldest due delayed job or expired reservation is at least
 *   `noWorkerSeconds` past: nobody popped for that long.
 *
 * A queue popped by any worker earns none of them, however long its
 * backlog: its pop leaves nothing due or expired behind. A plain ready
 * backlog with no worker and nothing delayed or reserved shows no proof
 * and earns no mark. The payload's `createdAt` (12.x; 8.83 writes none) or
 * Horizon's `pushedAt` is not used: it dates the job, not its arrival in
 * the line (a delayed, released or retried job keeps it), and a worker busy
 * with a backlog holds no reservation for the instant between two jobs.
 * Laravel compares by its PHP host's clock, QueueLens by the Redis server's:
 * the thresholds (a minute by default) cover hosts in sync. With
 * retry_after null a pop scores a reservation by its own moment and never
 * puts one back, so a job running past the thresholds reads as stuck and as
 * proof of no worker: such a connection wants both marks off.
 */
function laravelMarksOf(figures: LaravelAttentionFigures, thresholds: MarkThresholds, failures: RecentFailures | undefined): QueueMark[] {
  const { now } = figures;
  const oldestDueAt = pastAt(figures.oldestDelayedAt, now);
  const judged = marksOf(
    {
      now,
      pending: figures.ready + figures.dueDelayed,
      oldestWaitingAt: earliest(oldestDueAt, pastAt(figures.oldestReservedUntil, now)),
      lastDeliveredEntryAt: null,
      due: figures.dueDelayed,
      oldestDueAt,
      newestHeldDeliveryAt: null,
      // Counted by the script against this queue's own threshold, below.
      ranOutClaims: [],
      failedAt: failures?.failedAt ?? [],
      latestError: failures?.latestError ?? '',
    },
    thresholds,
  );
  if (thresholds.stuckSeconds !== false && figures.stuckReservations > 0 && figures.oldestReservedUntil !== null) {
    judged.push({ kind: 'stuck', claims: figures.stuckReservations, holders: [], ranOutAt: figures.oldestReservedUntil });
  }
  return judged.sort((a, b) => MARK_KINDS.indexOf(a.kind) - MARK_KINDS.indexOf(b.kind));
}

/** One queue's failures in Horizon's failed list, newest first. */
interface RecentFailures {
  failedAt: number[];
  latestError: string;
}

/** Failures read per poll, newest first; more in the window are counted as at least this many. */
const FAILURES_READ = 500;

/** The failures of each queue within `minutes` of `now`, from Horizon's failed list (one bounded read of it and of its records). */
async function readRecentFailures(horizon: HorizonFailedJobs, now: number, minutes: number) {
  const { rows, truncated } = await horizon.recentFailures(now - minutes * 60, FAILURES_READ);
  const byQueue = new Map<string, RecentFailures>();
  for (const row of rows) {
    const known = byQueue.get(row.queue);
    if (known) known.failedAt.push(row.failedAtSeconds);
    else byQueue.set(row.queue, { failedAt: [row.failedAtSeconds], latestError: row.errorFirstLine });
  }
  return { byQueue, truncated };
}

/**
 * What needs attention on each of `counts`' queues, in order: one bounded
 * read-only script per queue (lua/laravel/read-attention-3.lua), every queue
 * in one pipeline. Stock Laravel keeps no failed jobs in Redis: no queue is
 * failing, and the overview shows no count of recent failures. Where
 * Horizon's failed list is read (`horizon`), its newest failures within the
 * longest failing window are counted per queue, and mark a queue failing.
 */
export async function readLaravelAttention(
  connection: RedisConnection,
  keys: LaravelKeys,
  horizon: HorizonFailedJobs | null,
  counts: readonly QueueCounts[],
  failed: number,
  rules: MarkRules,
): Promise<{ now: number; queues: QueueAttention[] }> {
  const names = counts.map((row) => row.queue);
  const thresholds = names.map((name) => markThresholdsFor(rules, name));
  const [[seconds], figures] = await connection.attempt(() =>
    Promise.all([
      connection.redis.time(),
      runPerQueue(connection.redis, names, readAttention, (queue, index) => {
        const { stuckSeconds } = thresholds[index]!;
        // With the mark off the count is not used: any threshold reads as cheaply.
        return {
          ready: keys.ready(queue),
          delayed: keys.delayed(queue),
          reserved: keys.reserved(queue),
          stuckSeconds: stuckSeconds === false ? 0 : stuckSeconds,
        };
      }),
    ]),
  );
  const now = Number(seconds);
  const longestWindow = Math.max(0, ...thresholds.map(failingWindowMinutes));
  const failures =
    horizon !== null && failed > 0 ? await readRecentFailures(horizon, now, longestWindow) : { byQueue: new Map<string, RecentFailures>(), truncated: false };
  const queues = counts.map((row, index): QueueAttention => {
    const own = thresholds[index]!;
    const recent = failures.byQueue.get(row.queue);
    const minutes = failingWindowMinutes(own);
    const failedRecently = { count: failuresWithin(recent?.failedAt ?? [], now, minutes), minutes, atLeast: failures.truncated };
    const figured = figures[index]!;
    if ('error' in figured) return { marks: [], failedRecently, error: figured.error };
    // A queue whose counts could not be read has no figures to judge.
    if (row.error !== undefined) return { marks: [], failedRecently };
    return { marks: laravelMarksOf(figured.reply, own, recent), failedRecently };
  });
  return { now, queues };
}

/** The overview's marks for Laravel's queues under `keys`, judged after `counts`, with Horizon's failures where its failed list is read. */
export function laravelAttention(connection: RedisConnection, keys: LaravelKeys, horizon: HorizonFailedJobs | null, counts: QueueLayout['counts']): Attention {
  return attentionAfterCounts(counts, (rows, failed, rules) => readLaravelAttention(connection, keys, horizon, rows, failed, rules));
}
