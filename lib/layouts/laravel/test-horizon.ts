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
