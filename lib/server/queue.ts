import 'server-only';
import { settingsFromEnv } from '@/lib/queue/config';
import { QueueError } from '@/lib/queue/errors';
import { RedisQueue } from '@/lib/queue/redis-queue';

export type ReadResult<T> = { ok: true; data: T } | { ok: false; error: string; unreachable?: boolean };

const UNKNOWN_ERROR = 'Something went wrong while reading the queues; the server log has the details.';

// Kept on globalThis because `next dev` re-evaluates changed modules: a
// module-level variable would open a new Redis client on every edit and leak
// the old one.
const cache = globalThis as typeof globalThis & { queuelensConnection?: Promise<RedisQueue> };

/**
 * The app's one Redis connection, made on first use and shared by every
 * request. A failed connect is not kept, so the next request tries again and
 * a Redis that comes back is picked up without a restart; once connected,
 * ioredis reconnects by itself.
 */
export function getQueue(): Promise<RedisQueue> {
  if (cache.queuelensConnection) return cache.queuelensConnection;
  // async so that a malformed REDIS_URL, which settingsFromEnv throws on,
  // becomes a rejection like any other connect failure.
  const connection = (async () => {
    const settings = settingsFromEnv();
    // A page answers within a few connect timeouts even when Redis hangs with the connection open.
    return RedisQueue.connect(settings, { commandTimeoutMs: settings.timeout * 2500 });
  })();
  cache.queuelensConnection = connection;
  connection.catch(() => {
    if (cache.queuelensConnection === connection) delete cache.queuelensConnection;
  });
  return connection;
}

/**
 * Runs a read against the queue as a value. A QueueError's message is written
 * for operators and is passed on; anything else may carry internals, so it is
 * logged here and reported generically.
 */
export async function readQueue<T>(read: (queue: RedisQueue) => Promise<T>): Promise<ReadResult<T>> {
  try {
    return { ok: true, data: await read(await getQueue()) };
  } catch (error) {
    if (error instanceof QueueError) return { ok: false, error: error.message, unreachable: error.unreachable };
    console.error('QueueLens: reading the queues failed unexpectedly', error);
    return { ok: false, error: UNKNOWN_ERROR };
  }
}
