import type { Redis } from 'ioredis';

/** A SCAN MATCH pattern for every key under `prefix`, its glob characters escaped. */
export function patternUnder(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/** The keys under `prefix`, a bounded SCAN step at a time: never KEYS, which would block Redis. */
export async function* scanKeysUnder(redis: Redis, prefix: string, count = 1000): AsyncGenerator<string[]> {
  const pattern = patternUnder(prefix);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', count);
    if (keys.length > 0) yield keys;
    cursor = next;
  } while (cursor !== '0');
}

/** Deletes the keys under `prefix` and nothing else (never FLUSHDB). */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of scanKeysUnder(redis, prefix)) await redis.unlink(...keys);
}
