import { HISTORY_RANGES, readHistory, RESOLUTIONS, totalOf, type ThroughputFigures } from '../lib/dashboard/history';
import type { ThroughputKeys } from '../lib/dashboard/keys';
import type { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import type { QueueStats } from '../lib/shapes/queue-counts';
import { execPipeline } from '../lib/redis/pipeline';
import { inFlight } from '../lib/redis/in-flight';

/** What the overview reads: the last 15 minutes of the 5-second series. */
const RANGE = '15m';
const RESOLUTION = '5s';
/** Series per pipeline (180 XADDs each), and pipelines in flight. */
const SERIES_PER_PIPELINE = 10;
const PIPELINES_IN_FLIGHT = 2;

/** Invented but plausible counts for one queue's 5 seconds: a few hundred jobs through, a failure now and then, its backlog as seeded. */
function figuresOf(row: QueueStats, queueIndex: number, pointIndex: number): ThroughputFigures {
  const wobble = (pointIndex * 7 + queueIndex * 13) % 40;
  return {
    processed: 180 + wobble,
    pushed: 175 + ((wobble * 3) % 50),
    failed: (pointIndex + queueIndex) % 4 === 0 ? 2 : 0,
    pending: row.pending,
    delayed: row.delayed,
    reserved: row.reserved,
    waitSeconds: 30 + ((pointIndex + queueIndex) % 90),
  };
}

/**
 * The stream fields of a point, in the order recordThroughput writes them
 * (lib/dashboard/history.ts, `fieldsOf`, which is not exported). The points
 * are read back through readHistory below, so a change of that format fails
 * the seeding rather than seeding points the reader takes for zeros.
 */
function fieldsOf(seconds: number, figures: ThroughputFigures): (string | number)[] {
  const { processed, pushed, failed, pending, delayed, reserved, waitSeconds } = figures;
  return [
    'seconds',
    seconds,
    'processed',
    processed ?? '',
    'pushed',
    pushed ?? '',
    'failed',
    failed,
    'pending',
    pending,
    'delayed',
    delayed,
    'reserved',
    reserved,
    'wait',
    waitSeconds ?? '',
  ];
}

/**
 * Fifteen minutes of 5-second history for every queue and for every queue
 * together, as the sampler leaves them after sampling that long: 180 points
 * a series, ending at Redis' clock now. recordThroughput adds its points
 * with `*` (the time of writing), so these are added as it would have, with
 * the same cap and expiry, but with the ids of past times: the overview
 * reads from now − 15 minutes by id. Any point the server's sampler writes
 * later is newer, so its `*` ids still follow these. The 1-minute series is
 * not seeded: only a queue's chart over 24 hours or 7 days reads it, and no
 * page timed here does. Returns the points written.
 */
export async function seedHistory({ redis }: RedisQueue, keys: ThroughputKeys, stats: readonly QueueStats[]): Promise<number> {
  const { seconds, maxPoints, keepSeconds } = RESOLUTIONS[RESOLUTION];
  const points = HISTORY_RANGES[RANGE] / seconds;
  const [nowSeconds, nowMicros] = await redis.time();
  const nowMs = Number(nowSeconds) * 1000 + Math.floor(Number(nowMicros) / 1000);
  const atOf = (pointIndex: number) => nowMs - (points - 1 - pointIndex) * seconds * 1000;
  const perQueue = (pointIndex: number) => stats.map((row, queueIndex) => figuresOf(row, queueIndex, pointIndex));
  const series: { queue: string | null; figuresAt: (pointIndex: number) => ThroughputFigures }[] = [
    { queue: null, figuresAt: (pointIndex) => totalOf(perQueue(pointIndex)) },
    ...stats.map((row, queueIndex) => ({ queue: row.queue, figuresAt: (pointIndex: number) => figuresOf(row, queueIndex, pointIndex) })),
  ];
  await inFlight(Math.ceil(series.length / SERIES_PER_PIPELINE), PIPELINES_IN_FLIGHT, async (batch) => {
    const writes = redis.pipeline();
    for (const { queue, figuresAt } of series.slice(batch * SERIES_PER_PIPELINE, (batch + 1) * SERIES_PER_PIPELINE)) {
      const key = keys.series(RESOLUTION, queue);
      for (let pointIndex = 0; pointIndex < points; pointIndex++) {
        writes.xadd(key, 'MAXLEN', '~', maxPoints, `${atOf(pointIndex)}-0`, ...fieldsOf(seconds, figuresAt(pointIndex)));
      }
      writes.expire(key, keepSeconds);
    }
    await execPipeline(writes);
  });
  for (const { queue, figuresAt } of [series[0]!, series.at(-1)!]) {
    const read = await readHistory(redis, keys, queue, RANGE);
    const newest = read.at(-1);
    const expected = figuresAt(points - 1);
    if (
      read.length < points - 1 ||
      newest?.processed !== expected.processed ||
      newest.waitSeconds !== expected.waitSeconds ||
      newest.pending !== expected.pending
    ) {
      throw new Error(
        `Seeding history: readHistory gave ${read.length} points of ${queue ?? 'every queue'} (the newest ${JSON.stringify(newest)}), not the ${points} written`,
      );
    }
  }
  return series.length * points;
}
