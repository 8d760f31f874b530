import { jobIdAsRead, type JobIdAsRead } from '../../shapes/job-ids';
import { execPipeline, settlePipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import type { QueueStats } from '../../shapes/queue-counts';
import { streamIdMs } from '../../shapes/stream-ids';
import { bytesToText } from '../../shapes/display-text';
import type { FailedRowView } from '../../shapes/failed-jobs';
import { latestFailedOfQueue } from './failed';
import type { LevelView } from '../../shapes/priority-levels';

export interface ListedJob {
  id: JobIdAsRead;
  /** null when the job's hash is gone */
  name: string | null;
  /** the hash's attempts so far; 0 when the hash is gone */
  attempts: number;
}

export interface QueueDetail {
  queue: string;
  counts: QueueStats;
  /** highest priority first, at most `maxLevels` of them */
  levels: LevelView[];
  /** how many levels the queue has, shown or not */
  levelCount: number;
  /** not yet delivered, in the order reserve hands them out, one page of them from `offset`; `enqueuedAt` in ms from the entry id */
  nextJobs: (ListedJob & { level: string; enqueuedAt: number })[];
  /** entries not yet delivered in the levels read: the line's length, for paging */
  waiting: number;
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
 * highest `maxLevels`), one page of the next jobs to run (`limit` from
 * `offset`, in the order reserve hands them out) and its latest failed jobs
 * (`failedLimit` of them). Reading never creates a group. A page deep into one
 * level reads the entries before it in that level too (a stream has no
 * offsets): bounded by the page, not by the line.
 */
export async function readQueueDetail(
  queue: RedisQueue,
  name: string,
  {
    limit = 20,
    offset = 0,
    failedLimit = limit,
    failedScanLimit = 2000,
    maxLevels = 100,
  }: { limit?: number; offset?: number; failedLimit?: number; failedScanLimit?: number; maxLevels?: number } = {},
): Promise<QueueDetail> {
  const [counts] = await queue.countsOf([name]);
  return queue.attempt(async () => {
    // A wrong-typed levels key is already the counts' error; it reads as empty here.
    const [time, levelNames, levelCount] = (await execPipeline(
      queue.redis
        .pipeline()
        .time()
        .zrevrange(queue.keys.levels(name), 0, maxLevels - 1)
        .zcard(queue.keys.levels(name)),
      (error) => error.message.startsWith('WRONGTYPE'),
    )) as [[string, string], string[] | null, number | null];
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

    // Entries past the group's last-delivered id have not been handed out yet;
    // every delivered one is pending until it is settled and deleted.
    const undelivered = levels.map((view) => (view.error ? 0 : Math.max(0, view.length - view.delivered)));
    const waiting = undelivered.reduce((sum, count) => sum + count, 0);
    const ranges = queue.redis.pipeline();
    const plan: { index: number; skip: number }[] = [];
    let before = 0;
    let wanted = limit;
    for (const [index, view] of levels.entries()) {
      const skip = Math.max(0, offset - before);
      before += undelivered[index]!;
      if (wanted === 0 || skip >= undelivered[index]!) continue;
      const take = Math.min(wanted, undelivered[index]! - skip);
      wanted -= take;
      const lastDelivered = groupNamed(streamReplies[2 * index + 1], queue.settings.group)?.['last-delivered-id'];
      ranges.xrange(view.stream, lastDelivered ? `(${lastDelivered}` : '-', '+', 'COUNT', skip + take);
      plan.push({ index, skip });
    }
    const rangeReplies = plan.length > 0 ? await settlePipeline(ranges) : [];
    const upcoming = plan
      .flatMap(({ index, skip }, read) => {
        const entries = rangeReplies[read];
        if (!Array.isArray(entries)) return [];
        return (entries as [string, string[]][]).slice(skip).map(([entry, fields]) => ({
          id: jobIdAsRead(fields[fields.indexOf('job') + 1] ?? ''),
          level: levels[index]!.level,
          enqueuedAt: streamIdMs(entry),
        }));
      })
      .slice(0, limit);

    const [hashes, failed] = await Promise.all([
      readNames(
        queue,
        upcoming.map((job) => job.id),
      ),
      latestFailedOfQueue(queue, name, { window: failedScanLimit, limit: failedLimit }),
    ]);
    return {
      queue: name,
      counts: counts!,
      levels,
      levelCount: levelCount ?? 0,
      nextJobs: upcoming.map((job) => ({ ...job, name: hashes.get(job.id)?.name ?? null, attempts: hashes.get(job.id)?.attempts ?? 0 })),
      waiting,
      failed,
      failedScanLimit,
      now: Number(time[0]),
    };
  });
}

/** Each job's name and attempts, for the jobs whose hash is there. */
async function readNames(queue: RedisQueue, ids: JobIdAsRead[]): Promise<Map<JobIdAsRead, { name: string; attempts: number }>> {
  if (ids.length === 0) return new Map();
  const reads = queue.redis.pipeline();
  for (const id of ids) reads.hmgetBuffer(queue.keys.job(id), 'name', 'attempts');
  const replies = await settlePipeline(reads);
  return new Map(
    ids.flatMap((id, index) => {
      const [name, attempts] = Array.isArray(replies[index]) ? (replies[index] as (Buffer | null)[]) : [];
      return Buffer.isBuffer(name) ? [[id, { name: bytesToText(name), attempts: attempts ? Number(attempts.toString()) || 0 : 0 }] as const] : [];
    }),
  );
}
