import type { QueueClient } from '../../redis/client';
import type { HorizonKeys } from './horizon';

/** Horizon's trim.failed default: 10080 minutes. */
const FAILED_EXPIRES_SECONDS = 10080 * 60;

/**
 * Writes a failure exactly as laravel/horizon's RedisJobRepository::failed()
 * does (src/Repositories/RedisJobRepository.php at commit 2d5fe8a6c00d:
 * failed(), storeJobReference(), removeJobReference(); the id from
 * src/JobPayload.php id(), called by src/Listeners/MarkJobAsFailed.php): in one pipeline, ZADD of the
 * id to failed_jobs and recent_failed_jobs scored by
 * str_replace(',', '.', microtime(true) * -1), ZREM from pending_jobs,
 * completed_jobs and silenced_jobs, HMSET of the job hash {prefix}{id}
 * (id, connection, queue, name = displayName, status 'failed', payload,
 * exception, context: null unless the exception has context(), which
 * phpredis stores as '', failed_at = microtime) and EXPIREAT trim.failed
 * minutes ahead. The id is JobPayload::id(): the payload's uuid. PHP writes
 * a float with 14 significant digits (php.ini precision), as toFixed(4) does
 * for this century's microtime.
 */
export async function horizonFails(
  redis: QueueClient,
  keys: HorizonKeys,
  payload: Buffer,
  { exception, at, queue = 'default' }: { exception: string | Buffer; at: number; queue?: string },
): Promise<string> {
  const decoded = JSON.parse(payload.toString('utf8')) as { uuid: string; displayName: string };
  const id = decoded.uuid;
  const score = (at * -1).toFixed(4);
  await redis
    .multi()
    .zadd(keys.failedIndex, score, id)
    .zadd(`${keys.prefix}recent_failed_jobs`, score, id)
    .zrem(`${keys.prefix}pending_jobs`, id)
    .zrem(`${keys.prefix}completed_jobs`, id)
    .zrem(`${keys.prefix}silenced_jobs`, id)
    .hset(keys.job(id), {
      id,
      connection: 'redis',
      queue,
      name: decoded.displayName,
      status: 'failed',
      payload,
      exception,
      context: '',
      failed_at: at.toFixed(4),
    })
    .expireat(keys.job(id), Math.floor(at) + FAILED_EXPIRES_SECONDS)
    .exec();
  return id;
}

/**
 * Counts one finished job as laravel/horizon's UpdateJobMetrics listener
 * does for a job deleted without failing (RedisMetricsRepository::incrementQueue
 * running LuaScripts::updateMetrics: HSETNX throughput 0, SADD of the key
 * to measured_queues, then HMSET throughput + 1 and the new mean runtime).
 * The tests count one job at a time, so the read and the write need no
 * transaction of their own.
 */
export async function horizonCountsFinished(redis: QueueClient, keys: HorizonKeys, queue: string, runtimeMs: number): Promise<void> {
  const key = keys.queueMetrics(queue);
  const [throughput, runtime] = await redis.hmget(key, 'throughput', 'runtime');
  const count = Number(throughput ?? 0);
  const mean = runtime === null ? runtimeMs : (count * Number(runtime) + runtimeMs) / (count + 1);
  await redis.sadd(keys.measuredQueues, key);
  await redis.hset(key, { throughput: count + 1, runtime: mean });
}

/**
 * The two halves of laravel/horizon's storeSnapshotForQueue (run every
 * minute by `horizon:snapshot`): `horizonResetsCount` is baseSnapshotData's
 * transaction (HMGET throughput and runtime, DEL), `horizonStoresSnapshot`
 * the ZADD of {throughput, runtime, wait, time} scored by that second and
 * the trim to the newest 24 (ZREMRANGEBYRANK 0 -25) that follow it as
 * separate commands. The count Horizon reads is the string HMGET returned,
 * or false where the hash was gone.
 */
export async function horizonResetsCount(
  redis: QueueClient,
  keys: HorizonKeys,
  queue: string,
): Promise<{ throughput: string | false; runtime: string | false }> {
  const key = keys.queueMetrics(queue);
  const [[, figures]] = (await redis.multi().hmget(key, 'throughput', 'runtime').del(key).exec()) as [[null, (string | null)[]], unknown];
  return { throughput: figures[0] ?? false, runtime: figures[1] ?? false };
}

export async function horizonStoresSnapshot(
  redis: QueueClient,
  keys: HorizonKeys,
  queue: string,
  data: { throughput: string | false; runtime: string | false },
  time: number,
): Promise<void> {
  const key = keys.queueSnapshots(queue);
  await redis.zadd(key, time, JSON.stringify({ throughput: data.throughput, runtime: data.runtime, wait: 0, time }));
  await redis.zremrangebyrank(key, 0, -25);
}

/** Horizon's snapshot of one queue, both halves at `time`. */
export async function horizonSnapshots(redis: QueueClient, keys: HorizonKeys, queue: string, time: number): Promise<void> {
  await horizonStoresSnapshot(redis, keys, queue, await horizonResetsCount(redis, keys, queue), time);
}
