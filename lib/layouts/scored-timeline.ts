import { nobodyReservedSince, TIMELINE_SCALES, UNATTENDED_AFTER_SECONDS, type DelayedTimeline } from '../shapes/delayed-timeline';
import type { QueueClient } from '../redis/client';
import { execPipeline } from '../redis/pipeline';

/**
 * A delayed sorted set scored by the unix second each member becomes
 * available, as a timeline (lib/shapes/delayed-timeline.ts): counts per
 * bucket (a ZCOUNT each, pipelined with the rest) and the first `limit`
 * members with their scores, as bytes, for the layout to describe. The
 * driver records no delivery, so attendance calls a queue unattended when a
 * job has been due for UNATTENDED_AFTER_SECONDS (every pop moves all due jobs).
 */
export type ScoredTimeline = Omit<DelayedTimeline, 'next' | 'queue'> & { next: { member: Buffer; score: number }[] };

export async function readScoredTimeline(redis: QueueClient, key: string, limit: number): Promise<ScoredTimeline> {
  const now = Number((await redis.time())[0]);
  const scales = Object.fromEntries(
    Object.entries(TIMELINE_SCALES).map(([scale, { count, seconds }]) => [
      scale,
      Array.from({ length: count }, (_, i) => ({ start: now + i * seconds, end: now + (i + 1) * seconds })),
    ]),
  ) as Record<keyof typeof TIMELINE_SCALES, { start: number; end: number }[]>;
  const weekEnd = now + TIMELINE_SCALES.week.count * TIMELINE_SCALES.week.seconds;
  const reads = redis
    .pipeline()
    .zcard(key)
    .zcount(key, '-inf', now)
    .zrangebyscore(key, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
    .zcount(key, `(${weekEnd}`, '+inf')
    .zrangeBuffer(key, 0, String(limit - 1), 'WITHSCORES');
  const buckets = [...scales.hour, ...scales.day, ...scales.week];
  for (const bucket of buckets) reads.zcount(key, `(${bucket.start}`, bucket.end);
  const [total, overdue, oldestFlat, later, nextFlat, ...counts] = (await execPipeline(reads)) as [number, number, string[], number, Buffer[], ...number[]];
  let at = 0;
  const counted = (list: { start: number; end: number }[]) => list.map((bucket) => ({ ...bucket, count: Number(counts[at++] ?? 0) }));
  const next: { member: Buffer; score: number }[] = [];
  for (let i = 0; i + 1 < nextFlat.length; i += 2) next.push({ member: nextFlat[i]!, score: Number(nextFlat[i + 1]!.toString()) });
  const oldestOverdueAt = oldestFlat.length >= 2 ? Number(oldestFlat[1]) : null;
  return {
    now,
    total,
    overdue,
    hour: counted(scales.hour),
    day: counted(scales.day),
    week: counted(scales.week),
    later,
    next,
    attendance: {
      unattended: overdue > 0 && nobodyReservedSince({ oldestWaitingAt: oldestOverdueAt, lastDeliveredEntryAt: null, now }, UNATTENDED_AFTER_SECONDS),
      oldestOverdueAt,
      lastDeliveredEntryAt: null,
    },
  };
}
