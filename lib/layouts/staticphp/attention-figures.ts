import { execPipeline } from '../../redis/pipeline';
import { queueStatsOf, type RedisQueue } from './redis-queue';
import type { QueueStats } from '../../shapes/queue-counts';
import { serverMs, type PendingEntry } from './reservations';
import * as scripts from './scripts';
import { streamIdMs } from '../../shapes/stream-ids';
import { bytesToText } from '../../shapes/display-text';
import { firstLine } from '../../shapes/failed-jobs';

/** What the overview's "no worker" and "overdue delayed" marks are judged on, for one queue. */
export interface WaitingFigures {
  /** when the oldest job not handed out yet became ready, unix seconds: the older of its oldest undelivered stream entry and its oldest due delayed job; null when none is ready */
  oldestWaitingAt: number | null;
  /** the newest last-delivered-id of the queue's group as ms since the epoch (see Attendance in delayed-timeline.ts); null when it delivered nothing, or when nothing waited `lookAfterSeconds` (it is then not read) */
  lastDeliveredEntryAt: number | null;
  /** delayed jobs that are due and not promoted yet */
  due: number;
  /** the score of the oldest of them, unix seconds; null when none is due */
  oldestDueAt: number | null;
  /** when the newest entry still held was handed out, server ms: a delivery at least that recent happened; null when none is held, or when nothing waited `lookAfterSeconds` (it is then not read) */
  newestHeldDeliveryAt: number | null;
  /** pending entries held at least `heldLongSeconds`, at most HELD_LONG_READ a stream: a claim that long past its deadline is among them */
  heldLong: PendingEntry[];
}

/** One queue's stats() row and its waiting figures: null where its keys could not be read (the row says why). */
export interface QueueFigures {
  stats: QueueStats;
  waiting: WaitingFigures | null;
}

/**
 * Queues per call of the script: about six commands a queue of one level,
 * a median of 100–170 µs a call measured at 10,000 queues, so
 * that the longest call stays under the overview's 2 ms bound.
 */
const QUEUES_PER_CALL = 10;
/** Long-held entries read at most per stream, oldest first: enough to name a stuck queue's holders (its count is then "at least"), few enough that a fleet of long jobs costs little. */
const HELD_LONG_READ = 5;

function msOfEntry(id: string): number | null {
  const ms = streamIdMs(id);
  return id !== '' && Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** When the script looks further: a wait worth reading the last delivery for, and a hold worth a look for "stuck". */
export interface LookFurther {
  /** a queue whose oldest job waited this long gets its last delivery read */
  waitedSeconds: number;
  /** pending entries held this long are read, as candidates for "stuck" */
  heldSeconds: number;
}

/**
 * Script calls per round trip. Redis runs the pipelined commands it has read
 * from one client (up to 16 KB of them, some 60 of these calls) before it
 * turns to another, so with every queue's calls in one pipeline a worker's
 * command could wait behind ten milliseconds of them; at 20 a round trip,
 * behind three at most. Each round trip's replies become figures before the
 * next is sent.
 */
const CALLS_PER_ROUND_TRIP = 20;

/**
 * Per queue named, in order: its stats() row, when its oldest ready job
 * became ready, its due delayed jobs, its entries held long, and, for a
 * queue whose oldest job has waited long, the last delivery its group made.
 * Bounded read-only scripts (lua/staticphp/read-queue-figures-1.lua) of
 * QUEUES_PER_CALL queues each, CALLS_PER_ROUND_TRIP a round trip, reading
 * each queue's keys once for its counts and its marks.
 */
export function readQueueFigures(queue: RedisQueue, names: readonly string[], further: LookFurther): Promise<QueueFigures[]> {
  return queue.attempt(async () => {
    const figures: QueueFigures[] = [];
    const perRoundTrip = QUEUES_PER_CALL * CALLS_PER_ROUND_TRIP;
    for (let start = 0; start < names.length; start += perRoundTrip) {
      figures.push(...(await figuresInOneRoundTrip(queue, names.slice(start, start + perRoundTrip), further)));
    }
    return figures;
  });
}

/** readQueueFigures for at most CALLS_PER_ROUND_TRIP calls' queues: one pipeline. */
async function figuresInOneRoundTrip(queue: RedisQueue, names: readonly string[], further: LookFurther): Promise<QueueFigures[]> {
  // The clock the entries' idle times are measured by, for their delivery times.
  const batches = queue.redis.pipeline().time();
  for (let start = 0; start < names.length; start += QUEUES_PER_CALL) {
    scripts.readQueueFigures.queue(batches, {
      queues: queue.keys.queues,
      prefix: queue.keys.prefix,
      group: queue.settings.group,
      waitedSeconds: further.waitedSeconds,
      heldMs: Math.floor(further.heldSeconds * 1000),
      heldRead: HELD_LONG_READ,
      queueNames: names.slice(start, start + QUEUES_PER_CALL),
    });
  }
  const [time, ...batchReplies] = await execPipeline(batches);
  const nowMs = serverMs(time as [string, string]);
  return batchReplies.flatMap(scripts.readQueueFigures.reply).map((reply, index): QueueFigures => {
    const name = names[index]!;
    if ('error' in reply) return { stats: queueStatsOf(name, reply), waiting: null };
    const { counts, oldestReady, lastDelivered, due, oldestDue, newestHeld, heldLong: heldFlat } = reply;
    const heldLong: PendingEntry[] = [];
    for (let i = 0; i + 3 < heldFlat.length; i += 4) {
      const level = String(heldFlat[i]);
      const idleMs = Number(heldFlat[i + 2]);
      heldLong.push({
        queue: name,
        level,
        stream: queue.keys.stream(name, level),
        entry: String(heldFlat[i + 1]),
        idleMs,
        deliveries: Number(heldFlat[i + 3]),
        deliveredAtMs: nowMs - idleMs,
      });
    }
    const readyMs = msOfEntry(oldestReady);
    const oldestDueAt = oldestDue === '' ? null : Number(oldestDue);
    const readyAt = readyMs === null ? null : Math.floor(readyMs / 1000);
    const oldestWaitingAt = readyAt === null ? oldestDueAt : oldestDueAt === null ? readyAt : Math.min(readyAt, oldestDueAt);
    return {
      stats: queueStatsOf(name, counts),
      waiting: {
        oldestWaitingAt,
        lastDeliveredEntryAt: msOfEntry(lastDelivered),
        due,
        oldestDueAt,
        newestHeldDeliveryAt: newestHeld === '' ? null : Number(newestHeld),
        heldLong,
      },
    };
  });
}

/** One queue's failures since a moment, as the failing mark shows them. */
export interface RecentFailures {
  /** when each failed, the failed set's score (unix seconds), newest first */
  failedAt: number[];
  /** the newest of them */
  latest: { id: number; failedAtSeconds: number; errorFirstLine: string };
}

export interface RecentFailuresRead {
  /** by queue name; a queue with none is absent */
  byQueue: Map<string, RecentFailures>;
  /** more failures happened since than one read looks at: the lists hold the newest `limit` */
  truncated: boolean;
}

/** Bytes of each newest error the script keeps before taking its first line; firstLine() cuts it further for the screen. */
const ERROR_BYTES_KEPT = 1024;

/**
 * The failures since `sinceSeconds` (the failed set's score, unix seconds),
 * the newest `limit` at most, grouped by queue, with each queue's newest
 * error's first line: one bounded read-only script
 * (lua/staticphp/read-recent-failures-1.lua).
 */
export function readRecentFailures(queue: RedisQueue, sinceSeconds: number, limit: number): Promise<RecentFailuresRead> {
  return queue.attempt(async () => {
    const { truncated, groups } = await scripts.readRecentFailures.run(queue.redis, {
      failed: queue.keys.failed,
      prefix: queue.keys.prefix,
      since: Math.floor(sinceSeconds),
      limit,
      errorBytes: ERROR_BYTES_KEPT,
    });
    const byQueue = new Map<string, RecentFailures>();
    for (const { queue: name, newestId, newestError, scores } of groups) {
      const failedAt = scores.map((score) => Number(score.toString()));
      byQueue.set(bytesToText(name), {
        failedAt,
        latest: { id: Number(newestId.toString()), failedAtSeconds: failedAt[0] ?? 0, errorFirstLine: firstLine(bytesToText(newestError)) },
      });
    }
    return { byQueue, truncated };
  });
}
