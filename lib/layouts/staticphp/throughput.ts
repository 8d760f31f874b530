import { settlePipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import { streamIdMs } from '../../shapes/stream-ids';
import type { QueueSample, StreamCounters, ThroughputSample } from '../../shapes/throughput';

/**
 * Throughput is derived from what Redis already records about the driver's
 * keys: the driver's key list is closed and PHP workers write no counters.
 * A sample holds cumulative figures (each ready stream's `entries-added` and
 * length) and the backlog at one moment; `throughputBetween` turns two
 * samples into counts over the time between them.
 */

/** Queues sampled at most; each costs a few pipelined commands. */
export const MAX_QUEUES = 500;
/** Priority levels read per queue; a queue has a handful. */
const LEVELS_READ = 100;
/** Failures per sample whose queue is looked up; more than this in one interval are counted without a queue. */
export const FAILED_READ = 2_000;

/** The queues a sample covers: every registered one up to MAX_QUEUES, past it the ones SSCAN reaches first. */
export function sampledQueueNames(queue: RedisQueue): Promise<{ names: string[]; truncated: boolean }> {
  return queue.registeredQueueNames(MAX_QUEUES);
}

/** A flat [name, value, …] reply as a map. */
function flatToMap(flat: unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!Array.isArray(flat)) return map;
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), flat[i + 1]);
  return map;
}

/** The group's `last-delivered-id` in an XINFO GROUPS reply; null when the group does not exist yet (nothing delivered). */
function lastDeliveredOf(reply: unknown, group: string): string | null {
  if (!Array.isArray(reply)) return null;
  for (const flat of reply as unknown[]) {
    const info = flatToMap(flat);
    if (info.get('name') === group) return String(info.get('last-delivered-id'));
  }
  return null;
}

/**
 * One sample of every registered queue, in a few pipelined round trips
 * whatever the number of queues: the backlog as stats() counts it, each
 * level stream's cumulative counters, the wait of the oldest ready job, and
 * (given the previous sample) the failures since then by queue.
 *
 * Wait: a reserve hands out the entries after the group's
 * `last-delivered-id`, so the first entry after it is the oldest ready job
 * not yet handed out, and its id is the ms it joined the stream. A due
 * delayed job waits too (only a reserve promotes it), since its score.
 *
 * Failures: queue:failed is scored by the server second a job failed, so
 * the scores in [previous second, this second) are the ones that failed in
 * between, each counted once however the samples fall (a failure in the
 * current second is counted by the next sample). At most FAILED_READ of them
 * are given their queue from the job hash.
 */
export async function sampleThroughput(queue: RedisQueue, previous?: Pick<ThroughputSample, 'at'>): Promise<ThroughputSample> {
  return queue.attempt(async () => {
    const [seconds, micros] = await queue.nodeHoldingKeys().time();
    const at = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const nowSecond = Number(seconds);
    const { names, truncated } = await sampledQueueNames(queue);
    const counts = await queue.countsOf(names);

    const perQueue = queue.redis.pipeline();
    for (const name of names) {
      perQueue.zrange(queue.keys.levels(name), 0, String(LEVELS_READ - 1));
      perQueue.zrangebyscore(queue.keys.delayed(name), '-inf', nowSecond, 'WITHSCORES', 'LIMIT', 0, 1);
    }
    const failedFrom = previous === undefined ? null : Math.floor(previous.at / 1000);
    if (failedFrom !== null) {
      perQueue.zcount(queue.keys.failed, failedFrom, `(${nowSecond}`);
      perQueue.zrangebyscore(queue.keys.failed, failedFrom, `(${nowSecond}`, 'LIMIT', 0, FAILED_READ);
    }
    const queueReplies = await settlePipeline(perQueue);
    const levelsOf = names.map((_, index) => {
      const levels = queueReplies[index * 2];
      return Array.isArray(levels) ? (levels as string[]) : [];
    });
    const failedTotal = failedFrom === null ? 0 : Number(queueReplies[names.length * 2]);
    const failedIdsReply = failedFrom === null ? [] : queueReplies[names.length * 2 + 1];
    const failedIds = Array.isArray(failedIdsReply) ? (failedIdsReply as string[]) : [];

    // Queue by queue, level by level: the order every per-stream reply below comes in.
    const streamKeys = names.flatMap((name, index) => levelsOf[index]!.map((level) => queue.keys.stream(name, level)));
    const streamCount = streamKeys.length;
    const perStream = queue.redis.pipeline();
    for (const key of streamKeys) {
      perStream.xinfo('STREAM', key);
      perStream.xinfo('GROUPS', key);
    }
    for (const id of failedIds) perStream.hget(queue.keys.job(id), 'queue');
    const streamReplies = await settlePipeline(perStream);

    // The first entry each stream has not handed out: after last-delivered-id, or the first of all without a group.
    const firstWaiting = queue.redis.pipeline();
    streamKeys.forEach((key, stream) => {
      const delivered = lastDeliveredOf(streamReplies[stream * 2 + 1], queue.settings.group);
      firstWaiting.xrange(key, delivered === null ? '-' : `(${delivered}`, '+', 'COUNT', 1);
    });
    const waitingReplies = streamCount > 0 ? await settlePipeline(firstWaiting) : [];

    const failedByQueue = new Map<string, number>();
    for (const reply of streamReplies.slice(streamCount * 2)) {
      if (typeof reply === 'string') failedByQueue.set(reply, (failedByQueue.get(reply) ?? 0) + 1);
    }
    let countersAvailable = true;
    let stream = 0;
    const queues = names.map((name, index): QueueSample => {
      const streams: StreamCounters[] = [];
      let oldestWaitingMs: number | null = null;
      for (const level of levelsOf[index]!) {
        const info = flatToMap(streamReplies[stream * 2]);
        const waiting = waitingReplies[stream];
        stream++;
        // A level whose stream is gone (or of another type) has nothing to count.
        if (info.size === 0) continue;
        const added = info.get('entries-added');
        if (added === undefined) countersAvailable = false;
        streams.push({ level, added: added === undefined ? null : Number(added), length: Number(info.get('length')) });
        const first = Array.isArray(waiting) ? (waiting[0] as [string, unknown] | undefined) : undefined;
        if (first) oldestWaitingMs = Math.min(oldestWaitingMs ?? Infinity, streamIdMs(first[0]));
      }
      const dueReply = queueReplies[index * 2 + 1];
      const oldestDue = Array.isArray(dueReply) && dueReply.length >= 2 ? Number(dueReply[1]) * 1000 : null;
      const since = [oldestWaitingMs, oldestDue].filter((ms): ms is number => ms !== null);
      const failedSince = failedFrom === null ? null : (failedByQueue.get(name) ?? 0);
      if (failedSince !== null) failedByQueue.delete(name);
      return {
        ...counts[index]!,
        streams,
        waitSeconds: since.length === 0 ? null : Math.max(0, (at - Math.min(...since)) / 1000),
        failedSince,
      };
    });
    const attributed = queues.reduce((sum, row) => sum + (row.failedSince ?? 0), 0);
    return { at, queues, countersAvailable, failedUnattributed: Math.max(0, failedTotal - attributed), truncated };
  });
}
