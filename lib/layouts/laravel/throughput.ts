import type { RedisConnection } from '../../redis/connection';
import { oneCounterSample, type QueueSample, type ThroughputSample } from '../../shapes/throughput';
import type { ThroughputSource } from '../adapter';
import { runPerQueue } from '../list-queues';
import type { LaravelCounts, LaravelQueueCounts } from './counts';
import type { HorizonFailedJobs, HorizonKeys } from './horizon';
import { readHorizonThroughput, type HorizonQueueCounted } from './scripts';

/** What a Laravel connection's samples cannot hold, in the words a page shows. */
export const LARAVEL_UNSAMPLED = {
  pushed: 'Laravel and Horizon record no count of pushes, so no pushed figure is sampled',
  wait: 'Laravel 8 writes no time a job joined its line (later versions write createdAt, which a delayed or retried job keeps), so the wait of the oldest job is not sampled',
} as const;

/** Failures read per sample (400 a second at the default 5 s): more are not counted. */
const FAILED_READ = 2_000;

/** Names per SSCAN step of Horizon's measured queues, and the most read: as many as the queues' own discovery finds. */
const MEASURED_STEP = 500;
const MEASURED_LIMIT = 10_000;

/**
 * The queues Horizon measured (its `measured_queues` set, which its
 * updateMetrics script adds each queue's metrics key to), by bounded SSCAN
 * steps: a queue worked empty has no Laravel keys left to be found by, and
 * its counter must not be lost between two samples. A set of another type
 * reads as none.
 */
async function readMeasuredQueues(connection: RedisConnection, keys: HorizonKeys): Promise<string[]> {
  const metricsPrefix = keys.queueMetrics('');
  const names = new Set<string>();
  let cursor = '0';
  try {
    do {
      const [next, members] = await connection.redis.sscan(keys.measuredQueues, cursor, 'COUNT', MEASURED_STEP);
      // Members are the metrics keys as the script got them: Horizon's prefix, `queue:`, the name.
      for (const member of members) if (member.startsWith(metricsPrefix)) names.add(member.slice(metricsPrefix.length));
      cursor = next;
    } while (cursor !== '0' && names.size < MEASURED_LIMIT);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return [];
    throw error;
  }
  return [...names];
}

/**
 * Horizon's finished jobs per queue as one cumulative counter each, for the
 * sampler (lib/shapes/throughput.ts reads a counter's advance). Horizon
 * counts a queue's finished jobs since its last snapshot and moves that
 * count into a snapshot every minute (lua/laravel/horizon-read-throughput-2.lua),
 * so a queue's total is what the snapshots since this source's first read
 * moved (`moved`, summed) plus the count now. A new source (a restart, another instance
 * taking the sampler over) counts from its first read, as the sampler does.
 * Between Horizon's reset of the count and its snapshot's write (one round
 * trip) the sum reads low: the total shown is never lowered, and the
 * snapshot, once written, brings the sum up to what it is. A count deleted
 * without a snapshot (horizon:clear-metrics) is not counted again until the
 * sum passes the total shown.
 */
class HorizonCounters {
  private readonly counted = new Map<string, { moved: number; newestSnapshotAt: string | null; total: number }>();

  /** The script's `counted`: '' before the first read (count from now), then the newest snapshot counted ('-inf' for none yet: every one is new). */
  snapshotsCounted(queue: string): string {
    const known = this.counted.get(queue);
    return known === undefined ? '' : (known.newestSnapshotAt ?? '-inf');
  }

  /** The queue's total after `read`; its last total when it could not be read (null before any). */
  advance(queue: string, read: HorizonQueueCounted | null): number | null {
    const before = this.counted.get(queue);
    if (read === null) return before?.total ?? null;
    // From its first read a queue's total is Horizon's count: a queue new to the sampler counts from zero, as every layout's does.
    const moved = before === undefined ? 0 : before.moved + read.moved;
    const total = Math.max(before?.total ?? 0, moved + read.now);
    this.counted.set(queue, { moved, newestSnapshotAt: read.newestSnapshotAt ?? before?.newestSnapshotAt ?? null, total });
    return total;
  }
}

/**
 * Throughput of Laravel's queues where Horizon runs: the jobs Horizon
 * counted as finished (processed), the failures it recorded (failed), and
 * the backlog from the queues' own keys; no pushes and no wait. The queues
 * are those found by their keys and those Horizon measured. One read-only
 * script per queue in one pipeline, beside the counts' own.
 */
export function laravelThroughput(
  connection: RedisConnection,
  laravelPrefix: string,
  horizon: HorizonFailedJobs,
  laravelQueueNames: () => Promise<readonly string[]>,
  counts: (names: readonly string[]) => Promise<LaravelCounts>,
): ThroughputSource {
  const { keys } = horizon;
  const counters = new HorizonCounters();
  const queueNames = async () => {
    const [found, measured] = await Promise.all([laravelQueueNames(), connection.attempt(() => readMeasuredQueues(connection, keys))]);
    return [...new Set([...found, ...measured])].sort();
  };
  return {
    historyScope: `laravel:${laravelPrefix}:horizon:${keys.prefix}`,
    connection,
    queueNames,
    // A sample counts every queue its discovery finds, as the counts do, and those Horizon measured.
    coveredAmong: async (names) => names,
    async sample(previous?: Pick<ThroughputSample, 'at'>): Promise<ThroughputSample> {
      const names = await queueNames();
      const [[seconds, micros], read, reads] = await connection.attempt(() =>
        Promise.all([
          connection.nodeHoldingKeys().time(),
          counts(names),
          runPerQueue(connection.redis, names, readHorizonThroughput, (queue) => ({
            counts: keys.queueMetrics(queue),
            snapshots: keys.queueSnapshots(queue),
            counted: counters.snapshotsCounted(queue),
          })),
        ]),
      );
      const at = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const failures = previous === undefined ? null : await horizon.recentFailures(previous.at / 1000, FAILED_READ, at / 1000);
      const failedByQueue = new Map<string, number>();
      for (const row of failures?.rows ?? []) failedByQueue.set(row.queue, (failedByQueue.get(row.queue) ?? 0) + 1);
      const queues = read.queues.map((row: LaravelQueueCounts, index): QueueSample => {
        const horizonRead = reads[index]!;
        const processed = counters.advance(row.queue, 'reply' in horizonRead ? horizonRead.reply : null);
        const failedSince = failures === null ? null : (failedByQueue.get(row.queue) ?? 0);
        failedByQueue.delete(row.queue);
        return oneCounterSample(row, processed === null ? null : { added: processed, length: 0 }, failedSince);
      });
      // Failures of queues this connection does not read; those past FAILED_READ in one sample are not counted.
      const unattributed = [...failedByQueue.values()].reduce((sum, count) => sum + count, 0);
      // Every queue named is sampled: the discovery's own bound is the overview's too.
      return { at, queues, countersAvailable: true, failedUnattributed: unattributed, truncated: false };
    },
    meaning: {
      pushed: { absent: LARAVEL_UNSAMPLED.pushed },
      processed:
        'Jobs Horizon counted as finished without failing (its per-queue metrics, moved into a snapshot every minute), summed by QueueLens since it started counting.',
    },
    failedJobs: horizon,
    waitUnsampled: LARAVEL_UNSAMPLED.wait,
  };
}
