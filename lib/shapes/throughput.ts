import type { QueueStats } from './queue-counts';

/**
 * One cumulative counter at the moment of a sample: StaticPHP's priority
 * level streams, one per level; another layout's one per queue (a yii2
 * channel's `message_id` as `added`, its indexed jobs as `length`). Pushed
 * is what `added` grew by, processed what `added − length` grew by.
 */
export interface StreamCounters {
  level: string;
  /** every entry the counter ever got (XINFO STREAM's `entries-added`); null before Redis 7.0 */
  added: number | null;
  /** how many of them are still in */
  length: number;
}

export interface QueueSample extends QueueStats {
  streams: StreamCounters[];
  /** how long the oldest job that is ready but not handed out has waited, seconds; null when none waits */
  waitSeconds: number | null;
  /** jobs of this queue that joined queue:failed since the previous sample; null without one */
  failedSince: number | null;
}

/**
 * The sample of a queue whose layout keeps one counter per queue (a yii2
 * channel's, Horizon's count of a Laravel queue's finished jobs): its
 * backlog as counted, the counter as its one stream, none where it could
 * not be read (nothing to count from), and no wait.
 */
export function oneCounterSample(row: QueueStats, counter: Pick<StreamCounters, 'added' | 'length'> | null, failedSince: number | null): QueueSample {
  const { queue, pending, delayed, reserved, total, error } = row;
  return {
    queue,
    pending,
    delayed,
    reserved,
    total,
    ...(error === undefined ? {} : { error }),
    streams: counter === null ? [] : [{ level: queue, ...counter }],
    waitSeconds: null,
    failedSince,
  };
}

export interface ThroughputSample {
  /** the Redis server's clock, ms since the epoch */
  at: number;
  queues: QueueSample[];
  /** false on Redis before 7.0, whose XINFO STREAM has no `entries-added`: processed and pushed cannot be known */
  countersAvailable: boolean;
  /** failures since the previous sample that could not be given a queue (hash gone, or past FAILED_READ) */
  failedUnattributed: number;
  /** more than MAX_QUEUES queues are registered; only the first ones read are sampled */
  truncated: boolean;
}

/** What happened to one queue between two samples; counts, not rates. */
export interface QueueThroughput {
  queue: string;
  /** entries that left the ready streams (completed, failed, released or parked); null before Redis 7.0 */
  processed: number | null;
  /** entries added to the ready streams (pushes, due delayed jobs promoted, jobs released without delay); null before Redis 7.0 */
  pushed: number | null;
  /** jobs that joined queue:failed */
  failed: number;
  pending: number;
  delayed: number;
  reserved: number;
  waitSeconds: number | null;
}

export interface Throughput {
  /** the server's clock at the later sample, ms */
  at: number;
  /** the time the counts cover, seconds */
  seconds: number;
  queues: QueueThroughput[];
  countersAvailable: boolean;
}

/**
 * Entries added to and gone from one stream between two readings. A counter
 * that went backwards means the stream was deleted and made again, so
 * everything it holds now happened since.
 */
function streamDelta(before: StreamCounters | undefined, after: StreamCounters): { pushed: number; processed: number } | null {
  if (after.added === null) return null;
  const reset = before === undefined || before.added === null || after.added < before.added;
  const start = reset ? { added: 0, length: 0 } : { added: before.added!, length: before.length };
  const pushed = after.added - start.added;
  return { pushed, processed: Math.max(0, after.added - after.length - (start.added - start.length)) };
}

/**
 * What each queue of `current` did since `previous`: entries added to and
 * gone from its ready streams, its failures, and its backlog and wait now.
 * A queue or level new since `previous` counts from zero.
 * Where the layout counts no pushes (`countsPushes` false: its counter is
 * one of finished jobs only), pushed is null, as it is before Redis 7.0.
 */
export function throughputBetween(previous: ThroughputSample, current: ThroughputSample, { countsPushes = true } = {}): Throughput {
  const countersAvailable = previous.countersAvailable && current.countersAvailable;
  const before = new Map(previous.queues.map((row) => [row.queue, new Map(row.streams.map((counters) => [counters.level, counters]))]));
  const queues = current.queues.map((row): QueueThroughput => {
    let processed: number | null = countersAvailable ? 0 : null;
    let pushed: number | null = countersAvailable ? 0 : null;
    for (const counters of row.streams) {
      const delta = streamDelta(before.get(row.queue)?.get(counters.level), counters);
      if (delta === null || processed === null || pushed === null) continue;
      processed += delta.processed;
      pushed += delta.pushed;
    }
    const { queue, pending, delayed, reserved, waitSeconds } = row;
    return { queue, processed, pushed: countsPushes ? pushed : null, failed: row.failedSince ?? 0, pending, delayed, reserved, waitSeconds };
  });
  return { at: current.at, seconds: Math.max(0, (current.at - previous.at) / 1000), queues, countersAvailable };
}
