import { jobIdAsRead, type JobIdAsRead } from '../../shapes/job-ids';
import { settlePipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import { streamIdMs } from '../../shapes/stream-ids';
import { bytesToText } from '../../shapes/display-text';
import {
  bucketsOf,
  nobodyReservedSince,
  TIMELINE_SCALES,
  UNATTENDED_AFTER_SECONDS,
  type DelayedJobView,
  type DelayedTimeline,
} from '../../shapes/delayed-timeline';

/** How many levels' groups are read for the last delivery; a queue has a handful. */
const LEVELS_READ = 100;
/** Where the levels' reply sits in the first pipeline. */
const LEVELS_REPLY = 5;

/** The ms an entry id `1785649677469-0` was added at; null for `0-0` (nothing delivered yet). */
function entryMs(id: unknown): number | null {
  if (typeof id !== 'string') return null;
  const ms = streamIdMs(id);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** The `last-delivered-id` of `group` in an XINFO GROUPS reply (a flat [name, value, …] list per group). */
function lastDeliveredOf(reply: unknown, group: string): string | null {
  if (!Array.isArray(reply)) return null;
  for (const flat of reply as unknown[][]) {
    if (!Array.isArray(flat)) continue;
    const info = new Map(Array.from({ length: Math.floor(flat.length / 2) }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1]]));
    if (info.get('name') === group) return String(info.get('last-delivered-id') ?? '');
  }
  return null;
}

/**
 * One queue's delayed set over time, by the server's clock: how many are
 * overdue, how many come due per bucket over the next hour, day and week
 * (one ZCOUNT per bucket, pipelined: the set is never read whole), the next
 * `limit` jobs due with their names (and, for a parked one, who still holds
 * its claim and until when), and whether the queue looks unattended.
 *
 * Unattended, without any key of our own: due jobs exist, the oldest has
 * waited at least UNATTENDED_AFTER_SECONDS, and no stream of the queue has
 * delivered an entry added since then. RESERVE promotes the oldest due ids
 * before it reads, so an old due job is itself the evidence that nobody
 * reserved from this queue since it came due; the groups' `last-delivered-id`
 * (an entry's creation time, so a lower bound of the last delivery) guards
 * against a due score written by hand after a delivery. It cannot see a
 * worker that reserved only through XAUTOCLAIM, and is blind within the
 * first minute.
 */
export async function readDelayedTimeline(queue: RedisQueue, name: string, { limit = 20 } = {}): Promise<DelayedTimeline> {
  return queue.attempt(async () => {
    // The clock a reserve promotes by: the server holding the keys.
    const [seconds] = await queue.nodeHoldingKeys().time();
    const now = Number(seconds);
    const key = queue.keys.delayed(name);
    const scales = {
      hour: bucketsOf(now, TIMELINE_SCALES.hour),
      day: bucketsOf(now, TIMELINE_SCALES.day),
      week: bucketsOf(now, TIMELINE_SCALES.week),
    };
    const weekEnd = now + TIMELINE_SCALES.week.count * TIMELINE_SCALES.week.seconds;

    const reads = queue.redis.pipeline();
    reads.zcard(key);
    reads.zcount(key, '-inf', now);
    reads.zrangebyscore(key, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1);
    reads.zcount(key, `(${weekEnd}`, '+inf');
    reads.zrange(key, 0, String(limit - 1), 'WITHSCORES');
    reads.zrevrange(queue.keys.levels(name), 0, LEVELS_READ - 1);
    for (const bucket of [...scales.hour, ...scales.day, ...scales.week]) reads.zcount(key, `(${bucket.start}`, bucket.end);
    const replies = await settlePipeline(reads);
    // A delayed key of the wrong type refuses the whole timeline; a levels key
    // of the wrong type only hides the last delivery.
    const refused = replies.find((reply, index) => reply instanceof Error && index !== LEVELS_REPLY);
    if (refused) throw refused;
    const levelsReply = replies[LEVELS_REPLY];
    const levels = Array.isArray(levelsReply) ? (levelsReply as string[]) : [];
    const [total, overdue, oldestFlat, later, nextFlat] = replies as [number, number, string[], number, string[]];
    const counts = replies.slice(6).map(Number);
    let offset = 0;
    const withCounts = (buckets: { start: number; end: number }[]) => buckets.map((bucket) => ({ ...bucket, count: counts[offset++] ?? 0 }));
    const hour = withCounts(scales.hour);
    const day = withCounts(scales.day);
    const week = withCounts(scales.week);

    const nextPairs: [JobIdAsRead, number][] = [];
    for (let i = 0; i + 1 < nextFlat.length; i += 2) nextPairs.push([jobIdAsRead(String(nextFlat[i])), Number(nextFlat[i + 1])]);

    const second = queue.redis.pipeline();
    for (const [id] of nextPairs) second.hmgetBuffer(queue.keys.job(id), 'name', 'reserved_by', 'reserved_until', 'attempts', 'priority');
    for (const level of levels) second.xinfo('GROUPS', queue.keys.stream(name, level));
    // Per item: a stream that has no group yet (or is not a stream) only says nothing about deliveries.
    const secondReplies = nextPairs.length + levels.length > 0 ? await settlePipeline(second) : [];
    const next = nextPairs.map(([id, dueAt], index): DelayedJobView => {
      const [name, holder, reservedUntil, attempts, priority] = Array.isArray(secondReplies[index]) ? (secondReplies[index] as (Buffer | null)[]) : [];
      const until = reservedUntil ? Number(reservedUntil.toString()) || 0 : 0;
      const level = priority ? Number(priority.toString()) : NaN;
      return {
        id,
        dueAt,
        name: name ? bytesToText(name) : null,
        attempts: attempts ? Number(attempts.toString()) || 0 : 0,
        priority: Number.isSafeInteger(level) ? level : null,
        heldBy: until > now ? { holder: holder ? bytesToText(holder) : '', until } : null,
      };
    });
    const deliveries = secondReplies
      .slice(nextPairs.length)
      .map((reply) => entryMs(lastDeliveredOf(reply, queue.settings.group)))
      .filter((ms): ms is number => ms !== null);
    const lastDeliveredEntryAt = deliveries.length > 0 ? Math.max(...deliveries) : null;

    const oldestOverdueAt = oldestFlat.length >= 2 ? Number(oldestFlat[1]) : null;
    return {
      queue: name,
      now,
      total: Number(total),
      overdue: Number(overdue),
      hour,
      day,
      week,
      later: Number(later),
      next,
      attendance: {
        unattended: overdue > 0 && nobodyReservedSince({ oldestWaitingAt: oldestOverdueAt, lastDeliveredEntryAt, now }, UNATTENDED_AFTER_SECONDS),
        oldestOverdueAt,
        lastDeliveredEntryAt,
      },
    };
  });
}
