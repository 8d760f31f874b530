import { QueueError } from './errors';

/** Redis Cluster's number of hash slots. */
export const HASH_SLOTS = 16384;

/**
 * The hash tag Redis Cluster hashes every key starting with `prefix` by, or
 * null when keys under `prefix` would be hashed by anything else. Redis
 * hashes the text between a key's first `{` and the first `}` after it, when
 * that text is not empty; so the tag must open and close inside the prefix,
 * or the rest of the key (a queue name, a unique key) would decide the slot.
 */
export function hashTagOf(prefix: string): string | null {
  const open = prefix.indexOf('{');
  if (open < 0) return null;
  const close = prefix.indexOf('}', open + 1);
  return close > open + 1 ? prefix.slice(open + 1, close) : null;
}

/**
 * Refuses a prefix whose keys would spread over several slots of a cluster.
 * The scripts build a job's keys from the prefix passed in ARGV (a job id
 * read from a stream names its hash), and a cluster lets a script touch only
 * keys of one slot: only a prefix with a hash tag keeps the whole layout there.
 */
export function assertClusterPrefix(prefix: string): void {
  if (hashTagOf(prefix) !== null) return;
  throw new QueueError(
    `The prefix "${prefix}" has no hash tag, and a Redis Cluster would spread the queue's keys over several slots, which its scripts cannot reach together. Put the prefix in braces, e.g. prefix: "{queue}:" (QUEUE_PREFIX={queue}:), so that every key of the layout lands in one slot.`,
  );
}

// CRC16-CCITT (XMODEM), the checksum Redis Cluster takes of a key. ioredis
// computes it too but does not export it, and the few bytes of a prefix's tag
// do not need a lookup table.
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster slot of `key`, as `CLUSTER KEYSLOT` computes it: its hash tag's, or the whole key's. */
export function slotOf(key: string): number {
  return crc16(Buffer.from(hashTagOf(key) ?? key, 'utf8')) % HASH_SLOTS;
}
