import type { Redis } from 'ioredis';
import { nodeServingPrefix, type QueueClient } from './client';

/**
 * Keys one SCAN command of the doctor or the census is asked to look at. At
 * 1,000, a step over 1.1 million keys sometimes held Redis over 5 ms (it
 * matches every key it visits against the pattern, whether or not any
 * matches); a quarter of that stays under.
 */
export const SCAN_COUNT = 250;

/** A SCAN MATCH pattern for every key under `prefix`, its glob characters escaped. */
export function patternUnder(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/**
 * About `keys` keys of a SCAN walk from `cursor`, as consecutive SCAN
 * commands of at most SCAN_COUNT each: a step covers as much of the keyspace
 * as one larger SCAN, while no single command holds Redis as long. Returns
 * the cursor to continue from ('0' once the walk is complete) and the keys
 * that matched `pattern`, as the bytes they are (a key name need not be
 * UTF-8).
 */
export async function scanStepBuffers(node: Redis, cursor: string, pattern: string, keys: number): Promise<{ cursor: string; found: Buffer[] }> {
  const found: Buffer[] = [];
  let next = cursor;
  for (let looked = 0; looked < keys; looked += SCAN_COUNT) {
    const [after, batch] = await node.scanBuffer(next, 'MATCH', pattern, 'COUNT', Math.min(SCAN_COUNT, keys - looked));
    found.push(...batch);
    next = after.toString();
    if (next === '0') break;
  }
  return { cursor: next, found };
}

/** scanStepBuffers with the names decoded as UTF-8 (a byte that is not UTF-8 becomes U+FFFD). */
export async function scanStep(node: Redis, cursor: string, pattern: string, keys: number): Promise<{ cursor: string; found: string[] }> {
  const { cursor: next, found } = await scanStepBuffers(node, cursor, pattern, keys);
  return { cursor: next, found: found.map((key) => key.toString()) };
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
  const pattern = patternUnder(prefix);
  // By their bytes: a name that is not UTF-8, read as text, would name another key and be left behind.
  let cursor = '0';
  do {
    const { cursor: next, found } = await scanStepBuffers(node, cursor, pattern, 1000);
    if (found.length > 0) await node.unlink(...found);
    cursor = next;
  } while (cursor !== '0');
}
