import { randomUUID } from 'node:crypto';
import { throughputBetween, type QueueThroughput, type Throughput, type ThroughputSample } from '../shapes/throughput';
import { isAbsent, type ThroughputSource } from '../layouts/adapter';
import { execPipeline } from '../redis/pipeline';
import { compareStreamIds, streamIdMs } from '../shapes/stream-ids';
import type { RedisConnection } from '../redis/connection';
import { holdLease } from './lease';
import type { HistoryResolution, ThroughputKeys } from './keys';

/** What a history point holds: counts over `seconds`, the backlog and wait at its end. */
export type ThroughputFigures = Omit<QueueThroughput, 'queue'>;

export interface HistoryPoint extends ThroughputFigures {
  /** the Redis server's clock when the point was written, ms */
  at: number;
  /** the time the counts cover */
  seconds: number;
}

/**
 * The two resolutions. The 5 s series holds one point per sample, the 1 m
 * series one per minute of samples; each stream is capped at `maxPoints`
 * (trimmed by whole stream nodes, so up to 100 more) and expires `keepSeconds`
 * after its last write, so a queue that is gone, or a layout nobody samples
 * any more, frees its history by itself.
 */
export const RESOLUTIONS: Record<HistoryResolution, { seconds: number; maxPoints: number; keepSeconds: number }> = {
  '5s': { seconds: 5, maxPoints: 720, keepSeconds: 3_600 },
  '1m': { seconds: 60, maxPoints: 10_080, keepSeconds: 7 * 86_400 },
};

/** The ranges the dashboard shows, in seconds. */
export const HISTORY_RANGES = { '15m': 900, '1h': 3_600, '24h': 86_400, '7d': 7 * 86_400 } as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;

/** The finest resolution that still covers `range`. */
export function resolutionFor(range: HistoryRange): HistoryResolution {
  return HISTORY_RANGES[range] <= RESOLUTIONS['5s'].keepSeconds ? '5s' : '1m';
}

const FIELDS = ['seconds', 'processed', 'pushed', 'failed', 'pending', 'delayed', 'reserved', 'wait'] as const;

function fieldsOf(seconds: number, figures: ThroughputFigures): (string | number)[] {
  const values = [seconds, figures.processed, figures.pushed, figures.failed, figures.pending, figures.delayed, figures.reserved, figures.waitSeconds];
  // An unknown figure (no entries-added before Redis 7, nobody waiting) is stored empty.
  return FIELDS.flatMap((field, index) => [field, values[index] ?? '']);
}

function pointOf(id: string, flat: string[]): HistoryPoint {
  const stored = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) stored.set(flat[i]!, flat[i + 1]!);
  const number = (field: (typeof FIELDS)[number]) => Number(stored.get(field) ?? 0);
  const optional = (field: (typeof FIELDS)[number]) => (stored.get(field) ? Number(stored.get(field)) : null);
  return {
    at: streamIdMs(id),
    seconds: number('seconds'),
    processed: optional('processed'),
    pushed: optional('pushed'),
    failed: number('failed'),
    pending: number('pending'),
    delayed: number('delayed'),
    reserved: number('reserved'),
    waitSeconds: optional('wait'),
  };
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : values.reduce<number>((sum, value) => sum + value!, 0);
}

/** Every queue together: counts and backlog summed, the longest wait. */
export function totalOf(queues: readonly ThroughputFigures[]): ThroughputFigures {
  const waits = queues.map((row) => row.waitSeconds).filter((wait): wait is number => wait !== null);
  return {
    processed: sumOrNull(queues.map((row) => row.processed)),
    pushed: sumOrNull(queues.map((row) => row.pushed)),
    failed: queues.reduce((sum, row) => sum + row.failed, 0),
    pending: queues.reduce((sum, row) => sum + row.pending, 0),
    delayed: queues.reduce((sum, row) => sum + row.delayed, 0),
    reserved: queues.reduce((sum, row) => sum + row.reserved, 0),
    waitSeconds: waits.length === 0 ? null : Math.max(...waits),
  };
}

/** Two consecutive stretches as one: counts added, the backlog and wait of the later one. */
export function mergeThroughput(earlier: Throughput, later: Throughput): Throughput {
  const before = new Map(earlier.queues.map((row) => [row.queue, row]));
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  return {
    at: later.at,
    seconds: earlier.seconds + later.seconds,
    countersAvailable: earlier.countersAvailable && later.countersAvailable,
    queues: later.queues.map((row) => {
      const previous = before.get(row.queue);
      if (!previous) return row;
      return { ...row, processed: add(previous.processed, row.processed), pushed: add(previous.pushed, row.pushed), failed: previous.failed + row.failed };
    }),
  };
}

/** A plain or cluster client; the throughput keys of a layout share a hash slot (keys.ts). */
type HistoryRedis = RedisConnection['redis'];

/** Appends one point per queue and one for every queue together to the `resolution` series, capped and with their expiry renewed. */
export async function recordThroughput(redis: HistoryRedis, keys: ThroughputKeys, resolution: HistoryResolution, throughput: Throughput): Promise<void> {
  const { maxPoints, keepSeconds } = RESOLUTIONS[resolution];
  const writes = redis.pipeline();
  const series: [string | null, ThroughputFigures][] = [
    [null, totalOf(throughput.queues)],
    ...throughput.queues.map((row): [string, ThroughputFigures] => [row.queue, row]),
  ];
  for (const [queue, figures] of series) {
    const key = keys.series(resolution, queue);
    writes.xadd(key, 'MAXLEN', '~', maxPoints, '*', ...fieldsOf(throughput.seconds, figures));
    writes.expire(key, keepSeconds);
  }
  await execPipeline(writes);
}

/**
 * Adds each queue's failures to its running total, for the Prometheus
 * counter. Kept as long as the week of history, from the last failure.
 */
export async function addFailedTotals(redis: HistoryRedis, keys: ThroughputKeys, throughput: Throughput): Promise<void> {
  const failing = throughput.queues.filter((row) => row.failed > 0);
  if (failing.length === 0) return;
  const writes = redis.pipeline();
  for (const row of failing) writes.hincrby(keys.failedTotals, row.queue, row.failed);
  writes.expire(keys.failedTotals, RESOLUTIONS['1m'].keepSeconds);
  await execPipeline(writes);
}

/** The failures counted per queue (one field per queue that failed within the week). */
export async function readFailedTotals(redis: HistoryRedis, keys: ThroughputKeys): Promise<Map<string, number>> {
  const stored = await redis.hgetall(keys.failedTotals);
  return new Map(Object.entries(stored).map(([queue, count]) => [queue, Number(count)]));
}

/**
 * The points of one queue (or of every queue together, `queue` null) over
 * the last `range`, oldest first, at the finest resolution that covers it.
 * Bounded by the series' cap.
 */
export async function readHistory(redis: HistoryRedis, keys: ThroughputKeys, queue: string | null, range: HistoryRange): Promise<HistoryPoint[]> {
  const resolution = resolutionFor(range);
  const from = await rangeStart(redis, range);
  const entries = (await redis.xrange(keys.series(resolution, queue), from, '+', 'COUNT', RESOLUTIONS[resolution].maxPoints + 100)) as StreamEntries;
  return entries.map(([id, flat]) => pointOf(id, flat));
}

/** The first moment of `range`, ms on the Redis server's clock. */
async function rangeStart(redis: HistoryRedis, range: HistoryRange): Promise<number> {
  const [seconds] = await redis.time();
  return Number(seconds) * 1000 - HISTORY_RANGES[range] * 1000;
}

type StreamEntries = [id: string, flat: string[]][];

interface KnownSeries {
  /** the newest entry read, so the next read starts after it */
  lastId: string;
  points: HistoryPoint[];
}

/**
 * The last `range` of several series, kept between reads: each read asks
 * Redis only for the points written since the one before. The overview polls
 * every few seconds and a sample comes every five, so a poll reads about one
 * new point a queue, where reading every point of 50 queues over 15 minutes
 * again (9,000 stream entries) takes about 100 ms of decoding. Holds only the
 * series of the last read, each at most `range` long.
 */
export class RecentHistory {
  private known = new Map<string, KnownSeries>();

  constructor(private readonly range: HistoryRange) {}

  /** The points of each queue (null: every queue together) over the range, oldest first, in the order given. */
  async read(redis: HistoryRedis, keys: ThroughputKeys, queues: readonly (string | null)[]): Promise<HistoryPoint[][]> {
    const resolution = resolutionFor(this.range);
    const from = await rangeStart(redis, this.range);
    const names = queues.map((queue) => keys.series(resolution, queue));
    const reads = redis.pipeline();
    for (const name of names) {
      const known = this.known.get(name);
      const start = known !== undefined && streamIdMs(known.lastId) >= from ? `(${known.lastId}` : from;
      reads.xrange(name, start, '+', 'COUNT', RESOLUTIONS[resolution].maxPoints + 100);
    }
    const replies = (await execPipeline(reads)) as StreamEntries[];
    // Built afresh from what is known now: another read may have finished meanwhile, and its points are not added twice.
    const next = new Map<string, KnownSeries>();
    names.forEach((name, index) => {
      const known = next.get(name) ?? this.known.get(name) ?? { lastId: '0-0', points: [] };
      const fresh = replies[index]!.filter(([id]) => compareStreamIds(id, known.lastId) > 0);
      // Points are oldest first: those out of the range are a few at the front.
      const firstInRange = known.points.findIndex((point) => point.at >= from);
      const kept = firstInRange === 0 ? known.points : known.points.slice(firstInRange === -1 ? known.points.length : firstInRange);
      next.set(name, {
        lastId: fresh.at(-1)?.[0] ?? known.lastId,
        points: fresh.length === 0 ? kept : kept.concat(fresh.map(([id, flat]) => pointOf(id, flat))),
      });
    });
    this.known = next;
    return names.map((name) => next.get(name)!.points);
  }
}

export type SamplerTick = 'recorded' | 'first-sample' | 'standby';

export interface SamplerOptions {
  /** how long the lock lasts without being renewed: a few sampling intervals, so a dead instance is replaced soon */
  lockMs: number;
  /** the instance's token; random by default */
  token?: string;
}

/**
 * Samples one layout's throughput (its ThroughputSource) into its history, when it holds the
 * sampler lock. Call tick() every sampling interval. Only one instance
 * holds the lock at a time, so among several dashboards one writes the
 * series and nothing is counted twice; the others stand by and take over
 * (after a first sample to count from) once the holder stops renewing.
 * A 1 m point is written once the 5 s points since the last one cover a
 * minute.
 */
export class ThroughputSampler {
  private previous: ThroughputSample | undefined;
  private minute: Throughput | undefined;
  private readonly token: string;

  constructor(
    private readonly source: ThroughputSource,
    private readonly keys: ThroughputKeys,
    private readonly options: SamplerOptions,
  ) {
    this.token = options.token ?? randomUUID();
  }

  async tick(): Promise<SamplerTick> {
    const { connection } = this.source;
    const holds = await connection.attempt(() => holdLease.run(connection.redis, { lock: this.keys.sampler, token: this.token, ms: this.options.lockMs }));
    if (!holds) {
      // Whoever holds the lock counts; when this instance takes over it must start from a fresh sample of its own.
      this.previous = undefined;
      this.minute = undefined;
      return 'standby';
    }
    const previous = this.previous;
    // Cleared first: after a failed sample, counting from an old one would put a long stretch in one 5 s point.
    this.previous = undefined;
    const sample = await this.source.sample(previous);
    this.previous = sample;
    if (previous === undefined) return 'first-sample';
    const step = throughputBetween(previous, sample, { countsPushes: !isAbsent(this.source.meaning.pushed) });
    await recordThroughput(connection.redis, this.keys, '5s', step);
    await addFailedTotals(connection.redis, this.keys, step);
    this.minute = this.minute === undefined ? step : mergeThroughput(this.minute, step);
    if (this.minute.seconds >= RESOLUTIONS['1m'].seconds) {
      await recordThroughput(connection.redis, this.keys, '1m', this.minute);
      this.minute = undefined;
    }
    return 'recorded';
  }
}
