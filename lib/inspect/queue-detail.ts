import { jobIdAsRead, type JobIdAsRead } from '../queue/job';
import { execPipeline, settlePipeline } from '../queue/pipeline';
import type { QueueStats, RedisQueue } from '../queue/redis-queue';
import { streamIdMs } from '../queue/stream-ids';
import { bytesToText } from './display-text';
import { latestFailedOfQueue, type FailedRowView } from './failed';

export interface LevelView {
  level: string;
  /** the stream's key */
  stream: string;
  length: number;
  /** entries handed to a worker and not acknowledged yet */
  delivered: number;
  hasGroup: boolean;
  /** when the stream cannot be read (a key of the wrong type) */
  error?: string;
}

export interface ListedJob {
  id: JobIdAsRead;
  /** null when the job's hash is gone */
  name: string | null;
}

export interface QueueDetail {
  queue: string;
  counts: QueueStats;
  /** highest priority first, at most `maxLevels` of them */
  levels: LevelView[];
  /** how many levels the queue has, shown or not */
  levelCount: number;
  /** not yet delivered, in the order reserve hands them out; `enqueuedAt` in ms from the entry id */
  nextJobs: (ListedJob & { level: string; enqueuedAt: number })[];
  /** soonest first; `dueAt` unix seconds */
  delayedSoonest: (ListedJob & { dueAt: number })[];
  /** the newest failed jobs of this queue, found among the newest `failedScanLimit` failed jobs */
  failed: FailedRowView[];
  failedScanLimit: number;
  /** the Redis server's clock, unix seconds */
  now: number;
}

interface GroupInfo {
  'last-delivered-id'?: string;
  pending?: number;
}

/** XINFO GROUPS replies a flat [name, value, …] list per group. */
function groupNamed(reply: unknown, group: string): GroupInfo | null {
  if (!Array.isArray(reply)) return null;
  for (const flat of reply as unknown[][]) {
    const info = Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1]]));
    if (info.name === group) return info as GroupInfo;
  }
  return null;
}

/**
 * One queue, looked at closely: counts, one row per priority level (the
 * highest `maxLevels`), the next jobs to run, the delayed jobs due soonest
 * and its latest failed jobs. Every list is bounded by `limit`; reading never
 * creates a group.
 */
export async function readQueueDetail(queue: RedisQueue, name: string, { limit = 20, failedScanLimit = 2000, maxLevels = 100 } = {}): Promise<QueueDetail> {
  const [counts] = await queue.countsOf([name]);
  return queue.attempt(async () => {
    // A wrong-typed levels or delayed key is already the counts' error; it reads as empty here.
    const [time, levelNames, levelCount, delayedFlat] = (await execPipeline(
      queue.redis
        .pipeline()
        .time()
        .zrevrange(queue.keys.levels(name), 0, maxLevels - 1)
        .zcard(queue.keys.levels(name))
        .zrange(queue.keys.delayed(name), 0, String(limit - 1), 'WITHSCORES'),
      (error) => error.message.startsWith('WRONGTYPE'),
    )) as [[string, string], string[] | null, number | null, string[] | null];
    const levelList = levelNames ?? [];

    const perStream = queue.redis.pipeline();
    for (const level of levelList) perStream.xlen(queue.keys.stream(name, level)).xinfo('GROUPS', queue.keys.stream(name, level));
    const streamReplies = await settlePipeline(perStream);
    const levels: LevelView[] = levelList.map((level, index) => {
      const stream = queue.keys.stream(name, level);
      const length = streamReplies[2 * index];
      const groups = streamReplies[2 * index + 1];
      if (length instanceof Error) return { level, stream, length: 0, delivered: 0, hasGroup: false, error: length.message };
      const group = groupNamed(groups, queue.settings.group);
      return { level, stream, length: Number(length), delivered: Number(group?.pending ?? 0), hasGroup: group !== null };
    });

    // Entries past the group's last-delivered id have not been handed out yet.
    const ranges = queue.redis.pipeline();
    for (const [index, view] of levels.entries()) {
      const lastDelivered = groupNamed(streamReplies[2 * index + 1], queue.settings.group)?.['last-delivered-id'];
      ranges.xrange(view.stream, lastDelivered ? `(${lastDelivered}` : '-', '+', 'COUNT', limit);
    }
    const rangeReplies = levels.length > 0 ? await settlePipeline(ranges) : [];
    const upcoming = levels
      .flatMap((view, index) => {
        const entries = rangeReplies[index];
        if (view.error || !Array.isArray(entries)) return [];
        return (entries as [string, string[]][]).map(([entry, fields]) => ({
          id: jobIdAsRead(fields[fields.indexOf('job') + 1] ?? ''),
          level: view.level,
          enqueuedAt: streamIdMs(entry),
        }));
      })
      .slice(0, limit);

    const delayedIds: [JobIdAsRead, number][] = [];
    for (let i = 0; i + 1 < (delayedFlat ?? []).length; i += 2) delayedIds.push([jobIdAsRead(delayedFlat![i]!), Number(delayedFlat![i + 1])]);

    const [names, failed] = await Promise.all([
      readNames(queue, [...upcoming.map((job) => job.id), ...delayedIds.map(([id]) => id)]),
      latestFailedOfQueue(queue, name, { window: failedScanLimit, limit }),
    ]);
    return {
      queue: name,
      counts: counts!,
      levels,
      levelCount: levelCount ?? 0,
      nextJobs: upcoming.map((job) => ({ ...job, name: names.get(job.id) ?? null })),
      delayedSoonest: delayedIds.map(([id, dueAt]) => ({ id, dueAt, name: names.get(id) ?? null })),
      failed,
      failedScanLimit,
      now: Number(time[0]),
    };
  });
}

async function readNames(queue: RedisQueue, ids: JobIdAsRead[]): Promise<Map<JobIdAsRead, string>> {
  if (ids.length === 0) return new Map();
  const reads = queue.redis.pipeline();
  for (const id of ids) reads.hgetBuffer(queue.keys.job(id), 'name');
  const replies = await settlePipeline(reads);
  return new Map(ids.flatMap((id, index) => {
    const value = replies[index];
    return Buffer.isBuffer(value) ? [[id, bytesToText(value)] as const] : [];
  }));
}
