import { QueueError } from '../redis/errors';
import { execPipeline, settlePipeline } from '../redis/pipeline';
import type { RedisConnection } from '../redis/connection';
import { isScanCursor } from '../shapes/stream-ids';
import { isStreamId } from '../shapes/stream-ids';
import { bytesToText, toDisplayValue, type DisplayValue } from '../shapes/display-text';

/** A Redis TYPE reply: `none` when the key does not exist. */
export type RedisType = 'string' | 'list' | 'set' | 'zset' | 'hash' | 'stream' | 'none' | (string & {});

/** A key's facts as a keys page shows them: its type against the one expected, its memory and TTL; the size is read next, by the type. */
export interface KeyFacts {
  type: RedisType;
  mismatch: boolean;
  size: null;
  memoryBytes: number | null;
  ttlSeconds: number | null;
  /** what Redis answered instead, when it refused */
  error?: string;
}

/** TYPE, TTL and MEMORY USAGE of each planned key, in one pipeline: reads only. */
export async function readKeyFacts(queue: RedisConnection, planned: readonly { key: string; expectedType: RedisType }[]): Promise<KeyFacts[]> {
  const facts = queue.redis.pipeline();
  for (const { key } of planned) facts.type(key).ttl(key).memory('USAGE', key, 'SAMPLES', 5);
  const replies = await settlePipeline(facts);
  return planned.map(({ expectedType }, index) => {
    const type = replies[3 * index];
    const ttl = replies[3 * index + 1];
    const memory = replies[3 * index + 2];
    const actual = typeof type === 'string' ? type : 'none';
    return {
      type: actual,
      mismatch: actual !== 'none' && actual !== expectedType,
      size: null,
      memoryBytes: typeof memory === 'number' ? memory : null,
      // -1: no TTL, -2: no key.
      ttlSeconds: typeof ttl === 'number' && ttl >= 0 ? ttl : null,
      ...(type instanceof Error ? { error: type.message } : {}),
    };
  });
}

/** The size command for a key of `type`; null for a type without one (none). */
export function sizeCommand(type: RedisType): string | null {
  switch (type) {
    case 'stream':
      return 'XLEN';
    case 'zset':
      return 'ZCARD';
    case 'set':
      return 'SCARD';
    case 'hash':
      return 'HLEN';
    case 'list':
      return 'LLEN';
    case 'string':
      return 'STRLEN';
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------
// One key's contents, a bounded page at a time.

/** Entries per contents page. */
export const CONTENTS_PAGE_SIZE = 50;
/** Longest key name the contents page accepts; Redis allows more, nothing the driver writes comes near. */
export const KEY_NAME_LIMIT = 4096;
/** Each member, field or value on a contents page is shown up to this many bytes. */
const ENTRY_DISPLAY_LIMIT = 4 * 1024;

export type KeyContentsPage =
  | { type: 'none' }
  | { type: 'string'; value: DisplayValue }
  | { type: 'zset'; entries: { member: DisplayValue; score: string }[] }
  | { type: 'set'; members: DisplayValue[] }
  | { type: 'list'; items: DisplayValue[] }
  | { type: 'hash'; fields: { name: DisplayValue; value: DisplayValue }[] }
  | { type: 'stream'; entries: { id: string; fields: { name: DisplayValue; value: DisplayValue }[] }[] }
  | { type: 'other'; redisType: string };

export type KeyContents = KeyContentsPage &
  KeyAddress & {
    /** where this page started: an offset, a SCAN cursor or a stream entry id ('' for the first page) */
    cursor: string;
    /** what to pass for the next page; null on the last one */
    next: string | null;
    /** the key's size by its type (members, fields, entries, bytes); null when it does not exist */
    size: number | null;
    ttlSeconds: number | null;
  };

/**
 * A key as pages show and address it: `key` its name as text (bytes that are
 * not UTF-8 as `\xNN`), and `raw` its bytes in base64url when the name is not
 * UTF-8, since no text carries those bytes back to Redis.
 */
export interface KeyAddress {
  key: string;
  raw: string | null;
}

export function keyAddressOf(name: Buffer): KeyAddress {
  const key = bytesToText(name);
  return { key, raw: Buffer.from(key, 'utf8').equals(name) ? null : name.toString('base64url') };
}

/** True when `key` is a key under `prefix` (and not the bare prefix). */
export function isUnderPrefix(key: string | Buffer, prefix: string): boolean {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  const start = Buffer.from(prefix, 'utf8');
  return bytes.length > start.length && bytes.subarray(0, start.length).equals(start);
}

/** Why `key` may not be opened (only keys under the configured prefix are shown), or null when it may. */
export function keyRefusal(key: string | Buffer, prefix: string): string | null {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (bytes.length > KEY_NAME_LIMIT) return `A key name is at most ${KEY_NAME_LIMIT} bytes.`;
  if (!isUnderPrefix(bytes, prefix)) return `Only keys under the prefix ${prefix} can be opened here; ${bytesToText(bytes)} is not one of them.`;
  return null;
}

const show = (bytes: Buffer) => toDisplayValue(bytes, ENTRY_DISPLAY_LIMIT);

function offsetFrom(cursor: string): number {
  const offset = cursor === '' ? 0 : Number(cursor);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new QueueError(`"${cursor}" is not a page offset.`, { invalidRequest: true });
  return offset;
}

function scanCursorFrom(cursor: string): string {
  if (cursor === '') return '0';
  if (!isScanCursor(cursor)) throw new QueueError(`"${cursor}" is not a SCAN cursor.`, { invalidRequest: true });
  return cursor;
}

function streamIdFrom(cursor: string): string {
  if (cursor === '') return '-';
  if (!isStreamId(cursor)) throw new QueueError(`"${cursor}" is not a stream entry id.`, { invalidRequest: true });
  return cursor;
}

function pairs(flat: Buffer[]): [Buffer, Buffer][] {
  const result: [Buffer, Buffer][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) result.push([flat[i]!, flat[i + 1]!]);
  return result;
}

/**
 * One bounded page of a key under the prefix: a sorted set by rank with its
 * scores, a set or a hash by SCAN cursor, a stream from an entry id, a list
 * by index, a string's first 64 KiB. Values are shown as text (`\xNN` for
 * bytes that are not UTF-8), each cut at a few KiB. Refuses any key outside
 * the prefix.
 */
export function readKeyContents(queue: RedisConnection, key: string | Buffer, cursor = '', pageSize = CONTENTS_PAGE_SIZE): Promise<KeyContents> {
  return readKeyContentsWhere(queue, key, (name) => keyRefusal(name, queue.settings.prefix), cursor, pageSize);
}

/**
 * readKeyContents for a layout whose keys are not under one prefix (yii2's
 * channels): `refuse` says why a key may not be opened, or null when it may.
 */
export function readKeyContentsWhere(
  queue: RedisConnection,
  key: string | Buffer,
  refuse: (key: string | Buffer) => string | null,
  cursor = '',
  pageSize = CONTENTS_PAGE_SIZE,
): Promise<KeyContents> {
  return queue.attempt(async () => {
    const refusal = refuse(key);
    if (refusal !== null) throw new QueueError(refusal, { invalidRequest: true });
    const [type, ttl] = (await execPipeline(queue.redis.pipeline().type(key).ttl(key))) as [string, number];
    const ttlSeconds = ttl >= 0 ? ttl : null;
    const base = { ...keyAddressOf(typeof key === 'string' ? Buffer.from(key, 'utf8') : key), cursor, ttlSeconds };
    const command = sizeCommand(type);
    const size = command ? Number(await queue.redis.call(command, key)) : null;
    switch (type) {
      case 'none':
        return { ...base, type, next: null, size: null };
      case 'string': {
        const value = await queue.redis.getrangeBuffer(key, 0, 64 * 1024 - 1);
        return { ...base, type, value: { ...toDisplayValue(value), bytes: size ?? value.length, truncated: (size ?? 0) > value.length }, next: null, size };
      }
      case 'zset': {
        const offset = offsetFrom(cursor);
        const flat = (await queue.redis.zrangeBuffer(key, offset, String(offset + pageSize - 1), 'WITHSCORES')) as Buffer[];
        const entries = pairs(flat).map(([member, score]) => ({ member: show(member), score: score.toString() }));
        const next = offset + entries.length < (size ?? 0) && entries.length > 0 ? String(offset + entries.length) : null;
        return { ...base, type, entries, next, size };
      }
      case 'list': {
        const offset = offsetFrom(cursor);
        const items = (await queue.redis.lrangeBuffer(key, offset, offset + pageSize - 1)).map(show);
        const next = offset + items.length < (size ?? 0) && items.length > 0 ? String(offset + items.length) : null;
        return { ...base, type, items, next, size };
      }
      case 'set': {
        const [nextCursor, members] = await queue.redis.sscanBuffer(key, scanCursorFrom(cursor), 'COUNT', pageSize);
        const following = nextCursor.toString();
        return { ...base, type, members: members.map(show), next: following === '0' ? null : following, size };
      }
      case 'hash': {
        const [nextCursor, flat] = await queue.redis.hscanBuffer(key, scanCursorFrom(cursor), 'COUNT', pageSize);
        const following = nextCursor.toString();
        const fields = pairs(flat).map(([name, value]) => ({ name: show(name), value: show(value) }));
        return { ...base, type, fields, next: following === '0' ? null : following, size };
      }
      case 'stream': {
        // One entry more than the page: its id is where the next page starts.
        const replies = await queue.redis.xrangeBuffer(key, streamIdFrom(cursor), '+', 'COUNT', pageSize + 1);
        const entries = replies.slice(0, pageSize).map(([id, fields]) => ({
          id: id.toString(),
          fields: pairs(fields).map(([name, value]) => ({ name: show(name), value: show(value) })),
        }));
        const after = replies[pageSize];
        return { ...base, type, entries, next: after ? after[0].toString() : null, size };
      }
      default:
        return { ...base, type: 'other', redisType: type, next: null, size };
    }
  });
}
