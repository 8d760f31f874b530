import { refusedCommand } from '../queue/errors';
import { execPipeline, settlePipeline } from '../queue/pipeline';
import type { RedisQueue } from '../queue/redis-queue';
import { streamIdMs } from '../queue/stream-ids';
import { bytesToText } from './display-text';
import { firstLine } from './failed';

/** What the overview's "no worker" and "overdue delayed" marks are judged on, for one queue. */
export interface WaitingFigures {
  /** when the oldest job not handed out yet became ready, unix seconds: the older of its oldest undelivered stream entry and its oldest due delayed job; null when none is ready */
  oldestWaitingAt: number | null;
  /** the newest last-delivered-id of the queue's group as ms since the epoch (see Attendance in delayed-timeline.ts); null when it delivered nothing */
  lastDeliveredEntryAt: number | null;
  /** delayed jobs that are due and not promoted yet */
  due: number;
  /** the score of the oldest of them, unix seconds; null when none is due */
  oldestDueAt: number | null;
}

/** A queue whose keys could not be read: no figures to judge, and why. */
export interface UnreadFigures {
  error: string;
}

/** Queues per call of the script: a few commands per level each, well under a millisecond a call. */
const QUEUES_PER_CALL = 25;
/** Levels read at most per queue, as the delayed timeline reads them; a queue has a handful. */
const LEVELS_READ = 100;

function msOfEntry(id: string): number | null {
  const ms = streamIdMs(id);
  return id !== '' && Number.isFinite(ms) && ms > 0 ? ms : null;
}

/**
 * Per queue named, in order: when its oldest ready job became ready, the
 * last delivery its group made, and its due delayed jobs. One round trip: a
 * bounded read-only script per QUEUES_PER_CALL queues
 * (lua/read-attention-1.lua), all in one pipeline.
 */
export function readWaitingFigures(queue: RedisQueue, names: readonly string[]): Promise<(WaitingFigures | UnreadFigures)[]> {
  if (names.length === 0) return Promise.resolve([]);
  return queue.attempt(async () => {
    const batches = queue.redis.pipeline();
    for (let start = 0; start < names.length; start += QUEUES_PER_CALL) {
      batches.queuelensReadAttention(queue.keys.queues, queue.keys.prefix, queue.settings.group, LEVELS_READ, ...names.slice(start, start + QUEUES_PER_CALL));
    }
    const replies = ((await execPipeline(batches)) as ([string, string, number, string] | [string])[][]).flat();
    return replies.map((reply): WaitingFigures | UnreadFigures => {
      if (reply.length === 1) return { error: refusedCommand(reply[0]) };
      const [oldestReady, lastDelivered, due, oldestDue] = reply;
      const readyMs = msOfEntry(oldestReady);
      const oldestDueAt = oldestDue === '' ? null : Number(oldestDue);
      const readyAt = readyMs === null ? null : Math.floor(readyMs / 1000);
      const oldestWaitingAt = readyAt === null ? oldestDueAt : oldestDueAt === null ? readyAt : Math.min(readyAt, oldestDueAt);
      return { oldestWaitingAt, lastDeliveredEntryAt: msOfEntry(lastDelivered), due: Number(due), oldestDueAt };
    });
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

/**
 * The failures since `sinceSeconds` (the failed set's score, unix seconds),
 * the newest `limit` at most, counted by queue, with each queue's newest
 * error's first line. Two pipelined reads of one field per job, then one
 * error per failing queue.
 */
export function readRecentFailures(queue: RedisQueue, sinceSeconds: number, limit: number): Promise<RecentFailuresRead> {
  return queue.attempt(async () => {
    const flat = await queue.redis.zrevrangebyscore(queue.keys.failed, '+inf', sinceSeconds, 'WITHSCORES', 'LIMIT', 0, limit + 1);
    const entries: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) entries.push([Number(flat[i]), Number(flat[i + 1])]);
    const truncated = entries.length > limit;
    entries.splice(limit);
    const byQueue = new Map<string, RecentFailures>();
    if (entries.length === 0) return { byQueue, truncated };

    const queueReads = queue.redis.pipeline();
    for (const [id] of entries) queueReads.hgetBuffer(queue.keys.job(id), 'queue');
    const queueNames = await settlePipeline(queueReads);
    // Newest first, so a queue's first entry is its latest failure.
    entries.forEach(([id, failedAtSeconds], index) => {
      const name = queueNames[index];
      // A hash gone (forgotten meanwhile) or not a hash says nothing about a queue.
      if (!Buffer.isBuffer(name)) return;
      const text = bytesToText(name);
      const known = byQueue.get(text);
      if (known) known.failedAt.push(failedAtSeconds);
      else byQueue.set(text, { failedAt: [failedAtSeconds], latest: { id, failedAtSeconds, errorFirstLine: '' } });
    });

    const errorReads = queue.redis.pipeline();
    for (const failures of byQueue.values()) errorReads.hgetBuffer(queue.keys.job(failures.latest.id), 'error');
    const errors = await settlePipeline(errorReads);
    [...byQueue.values()].forEach((failures, index) => {
      const error = errors[index];
      failures.latest.errorFirstLine = Buffer.isBuffer(error) ? firstLine(bytesToText(error)) : '';
    });
    return { byQueue, truncated };
  });
}
