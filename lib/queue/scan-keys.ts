import { nodeServingPrefix, type QueueClient } from './client';

/** A SCAN MATCH pattern for every key under `prefix`, its glob characters escaped. */
export function patternUnder(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/**
 * The keys under `prefix`, a bounded SCAN step at a time: never KEYS, which
 * would block Redis. SCAN walks one server, so in a cluster it walks the
 * master holding the prefix's slot, where all of them are.
 */
export async function* scanKeysUnder(client: QueueClient, prefix: string, count = 1000): AsyncGenerator<string[]> {
  const node = nodeServingPrefix(client, prefix);
  const pattern = patternUnder(prefix);
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
    if (keys.length > 0) yield keys;
    cursor = next;
  } while (cursor !== '0');
}

/** Deletes the keys under `prefix` and nothing else (never FLUSHDB). */
export async function deleteKeysUnder(client: QueueClient, prefix: string): Promise<void> {
  const node = nodeServingPrefix(client, prefix);
  for await (const keys of scanKeysUnder(node, prefix)) await node.unlink(...keys);
}
