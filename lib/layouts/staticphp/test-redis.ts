import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { isLocalHost, readSettings, settingsFromEnv, type RedisSettings } from '../../redis/config';
import { RedisQueue } from './redis-queue';
import { deleteKeysUnder } from '../../redis/scan-keys';

/** Test settings: the local Redis (REDIS_URL may move the port), with a prefix of their own. */
export function testSettings(overrides: Record<string, unknown> = {}): RedisSettings {
  const base = settingsFromEnv();
  if (!isLocalHost(base.hostname)) {
    throw new Error(`Tests write to Redis and only run against a local server, not ${base.hostname}`);
  }
  return readSettings({ ...base, prefix: `test:${randomUUID()}:`, ...overrides });
}

/**
 * Returns an opener of queues with fresh prefixes; every queue it opened has
 * its keys deleted and its connection closed after each test.
 */
export function testQueueFactory(): (overrides?: Record<string, unknown>) => Promise<RedisQueue> {
  const opened: RedisQueue[] = [];
  afterEach(async () => {
    for (const queue of opened.splice(0)) {
      await deleteKeysUnder(queue.redis, queue.keys.prefix);
      await queue.close();
    }
  });
  return async (overrides) => {
    const queue = await RedisQueue.connect(testSettings(overrides));
    opened.push(queue);
    return queue;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs}ms`);
    await sleep(50);
  }
}
