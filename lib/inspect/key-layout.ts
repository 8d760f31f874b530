import { QueueError } from '../queue/errors';
import { execPipeline, settlePipeline } from '../queue/pipeline';
import type { RedisQueue } from '../queue/redis-queue';
import { isScanCursor, patternUnder, scanStepBuffers } from '../queue/scan-keys';
import { isStreamId } from '../queue/stream-ids';
import { bytesToText, toDisplayValue, type DisplayValue } from './display-text';

/** A Redis TYPE reply: `none` when the key does not exist. */
export type RedisType = 'string' | 'list' | 'set' | 'zset' | 'hash' | 'stream' | 'none' | (string & {});

/** What a structural key is in the spec's key table. */
export type KeyRole = 'queues' | 'seq' | 'failed' | 'levels' | 'delayed' | 'stream';

const EXPECTED_TYPE: Record<KeyRole, RedisType> = {
  queues: 'set',
  seq: 'string',
  failed: 'zset',
  levels: 'zset',
  delayed: 'zset',
  stream: 'stream',
};

export interface GroupView {
  /** entries delivered to a worker and not acknowledged */
  pending: number;
  lastDeliveredId: string;
}

export interface LayoutKeyView {
  key: string;
  role: KeyRole;
  /** the queue a per-queue key belongs to */
  queue?: string;
  /** the priority level of a stream */
  level?: string;
  expectedType: RedisType;
  type: RedisType;
  /** the key exists with a type the driver would not write there */
  mismatch: boolean;
  /** XLEN, ZCARD, SCARD, HLEN, LLEN or STRLEN, by the key's actual type; null when it does not exist */
  size: number | null;
  /** MEMORY USAGE in bytes (sampled); null when it does not exist */
  memoryBytes: number | null;
  /** seconds to live; null when the key has no TTL or does not exist. The driver never sets one. */
  ttlSeconds: number | null;
  /** streams only: the consumer group, null when no reserve has created it yet */
  group?: GroupView | null;
  /** why part of this key could not be read */
  error?: string;
}

export interface KeyLayout {
  prefix: string;
  group: string;
  keys: LayoutKeyView[];
  /** SCARD of the queues set */
  queueCount: number;
  /** how many queue names were read (at most the queue limit) */
  queuesShown: number;
  /** queues with more levels than the level limit: only their highest levels are listed */
  levelsCut: string[];
  /** counts of the flagged keys, for the page's summary */
  mismatches: number;
  withTtl: number;
}

/** Queue names read into the table; a larger queues set is listed in part and says so. */
export const LAYOUT_QUEUE_LIMIT = 50;
/** Streams listed per queue; the driver makes one per priority level in use, rarely more than a handful. */
export const LAYOUT_LEVEL_LIMIT = 20;
/** Keys per pipelined batch of TYPE/TTL/MEMORY USAGE and of size reads. */
const BATCH = 200;

interface GroupInfo {
  name?: unknown;
  pending?: unknown;
  'last-delivered-id'?: unknown;
}

/** XINFO GROUPS replies a flat [name, value, …] list per group. */
function groupNamed(reply: unknown, group: string): GroupView | null {
  if (!Array.isArray(reply)) return null;
  for (const flat of reply as unknown[]) {
    if (!Array.isArray(flat)) continue;
    const info: GroupInfo = Object.fromEntries(Array.from({ length: Math.floor(flat.length / 2) }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1]]));
    if (String(info.name) === group) return { pending: Number(info.pending ?? 0), lastDeliveredId: String(info['last-delivered-id'] ?? '') };
  }
  return null;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Reads up to `limit` queue names with SSCAN, a bounded step at a time; a queues key of another type reads as none. */
async function readQueueNames(queue: RedisQueue, limit: number): Promise<{ names: string[]; count: number }> {
  const [count] = (await execPipeline(queue.redis.pipeline().scard(queue.keys.queues), (error) => error.message.startsWith('WRONGTYPE'))) as [number | null];
  if (count === null || count === 0) return { names: [], count: 0 };
  const names = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await queue.redis.sscan(queue.keys.queues, cursor, 'COUNT', 100);
    for (const name of batch) if (names.size < limit) names.add(name);
    cursor = next;
  } while (cursor !== '0' && names.size < limit);
  return { names: [...names].sort(), count };
}

/** The size command for a key of `type`; null for a type without one (none). */
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
export async function readKeyFacts(queue: RedisQueue, planned: readonly { key: string; expectedType: RedisType }[]): Promise<KeyFacts[]> {
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

/**
 * The spec's key table for the configured prefix, read live: `queues`,
 * `seq`, `failed`, and for each queue (the first LAYOUT_QUEUE_LIMIT names in
 * the queues set) its `levels` and `delayed` sorted sets and one stream per
 * level with its consumer group. Each key comes with its Redis type against
 * the one the driver writes, its size by its actual type, its memory and its
 * TTL. Reads only, in pipelined batches; never creates a group.
 */
export function readKeyLayout(
  queue: RedisQueue,
  { queueLimit = LAYOUT_QUEUE_LIMIT, levelLimit = LAYOUT_LEVEL_LIMIT }: { queueLimit?: number; levelLimit?: number } = {},
): Promise<KeyLayout> {
  return queue.attempt(async () => {
    const k = queue.keys;
    const { names, count } = await readQueueNames(queue, queueLimit);

    const levelReads = queue.redis.pipeline();
    for (const name of names) levelReads.zrevrange(k.levels(name), 0, levelLimit - 1).zcard(k.levels(name));
    // A levels key of another type is flagged in its own row; it lists no streams.
    const levelReplies = names.length > 0 ? await execPipeline(levelReads, (error) => error.message.startsWith('WRONGTYPE')) : [];

    const planned: Omit<LayoutKeyView, 'type' | 'mismatch' | 'size' | 'memoryBytes' | 'ttlSeconds'>[] = [
      { key: k.queues, role: 'queues', expectedType: EXPECTED_TYPE.queues },
      { key: k.seq, role: 'seq', expectedType: EXPECTED_TYPE.seq },
      { key: k.failed, role: 'failed', expectedType: EXPECTED_TYPE.failed },
    ];
    const levelsCut: string[] = [];
    for (const [index, name] of names.entries()) {
      planned.push({ key: k.levels(name), role: 'levels', queue: name, expectedType: EXPECTED_TYPE.levels });
      planned.push({ key: k.delayed(name), role: 'delayed', queue: name, expectedType: EXPECTED_TYPE.delayed });
      const levels = (levelReplies[2 * index] as string[] | null) ?? [];
      if (Number(levelReplies[2 * index + 1] ?? 0) > levels.length) levelsCut.push(name);
      // Highest level first, the order reserve walks them.
      for (const level of levels) {
        planned.push({ key: k.stream(name, level), role: 'stream', queue: name, level, expectedType: EXPECTED_TYPE.stream });
      }
    }

    const keys: LayoutKeyView[] = [];
    for (const batch of chunks(planned, BATCH)) {
      const facts = await readKeyFacts(queue, batch);
      const views = batch.map((plan, index): LayoutKeyView => ({ ...plan, ...facts[index]! }));

      const sizes = queue.redis.pipeline();
      const asked: { view: LayoutKeyView; group: boolean }[] = [];
      for (const view of views) {
        const command = sizeCommand(view.type);
        if (command) {
          sizes.call(command, view.key);
          asked.push({ view, group: false });
        }
        if (view.type === 'stream') {
          sizes.xinfo('GROUPS', view.key);
          asked.push({ view, group: true });
        }
      }
      const sizeReplies = asked.length > 0 ? await settlePipeline(sizes) : [];
      for (const [index, { view, group }] of asked.entries()) {
        const reply = sizeReplies[index];
        if (reply instanceof Error) view.error = reply.message;
        else if (group) view.group = groupNamed(reply, queue.settings.group);
        else view.size = Number(reply);
      }
      for (const view of views) if (view.role === 'stream' && view.type !== 'stream') view.group = null;
      keys.push(...views);
    }

    return {
      prefix: k.prefix,
      group: queue.settings.group,
      keys,
      queueCount: count,
      queuesShown: names.length,
      levelsCut,
      mismatches: keys.filter((view) => view.mismatch).length,
      withTtl: keys.filter((view) => view.ttlSeconds !== null).length,
    };
  });
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

export type KeyContents = KeyContentsPage & KeyAddress & {
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
export function readKeyContents(queue: RedisQueue, key: string | Buffer, cursor = '', pageSize = CONTENTS_PAGE_SIZE): Promise<KeyContents> {
  return readKeyContentsWhere(queue, key, (name) => keyRefusal(name, queue.keys.prefix), cursor, pageSize);
}

/**
 * readKeyContents for a layout whose keys are not under one prefix (yii2's
 * channels): `refuse` says why a key may not be opened, or null when it may.
 */
export function readKeyContentsWhere(
  queue: RedisQueue,
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

// ---------------------------------------------------------------------------
// The census: every key under the prefix, one bounded SCAN step per call.

/** Keys SCAN is asked to look at per census step, in commands of SCAN_COUNT. */
export const CENSUS_SCAN_COUNT = 1000;
/** Strangers one step reports by name; the rest are only counted. */
export const CENSUS_STRANGERS_PER_STEP = 200;

/**
 * The spec's key list, after the prefix. Queue names are free text (a colon
 * or a newline included: dot-all), so the per-queue patterns take anything
 * between `q:` and the suffix; job ids are the counter's whole numbers.
 */
export const SPEC_KEY_PATTERNS: readonly { pattern: RegExp; type: RedisType; kind: 'job' | 'unique' | 'structural' }[] = [
  { pattern: /^j:[1-9]\d*$/, type: 'hash', kind: 'job' },
  { pattern: /^q:.+:s:-?\d+$/s, type: 'stream', kind: 'structural' },
  { pattern: /^q:.+:levels$/s, type: 'zset', kind: 'structural' },
  { pattern: /^q:.+:delayed$/s, type: 'zset', kind: 'structural' },
  { pattern: /^u:.+$/s, type: 'string', kind: 'unique' },
  { pattern: /^failed$/, type: 'zset', kind: 'structural' },
  { pattern: /^queues$/, type: 'set', kind: 'structural' },
  { pattern: /^seq$/, type: 'string', kind: 'structural' },
];

export interface CensusKey extends KeyAddress {
  type: RedisType;
}

export interface CensusStep {
  /** the cursor to send next; '0' when the scan is complete */
  cursor: string;
  done: boolean;
  /** keys under the prefix this step returned */
  keys: number;
  /** `j:{id}` keys that are hashes */
  jobs: number;
  /** `u:{key}` keys that are strings */
  uniques: number;
  /** other keys of the spec's list with the right type */
  structural: number;
  /** keys named like the spec's list but of another type (the first CENSUS_STRANGERS_PER_STEP) */
  wrongType: CensusKey[];
  /** how many keys the driver never creates this step found */
  strangerCount: number;
  /** the first CENSUS_STRANGERS_PER_STEP of them, with their types */
  strangers: CensusKey[];
  /** DBSIZE: every key of the database, the prefix's and others', for a rough progress figure */
  dbSize: number;
}

/** Which entry of the spec's list a key (after the prefix) is, if any. */
export function specKeyOf(rest: string) {
  return SPEC_KEY_PATTERNS.find(({ pattern }) => pattern.test(rest)) ?? null;
}

/**
 * One step of the census: `SCAN cursor MATCH {prefix}* COUNT 250` over
 * about `count` keys (scanStep) and one pipelined TYPE per key it returned,
 * so each call is short however large the database. The caller sends the returned cursor back until `done`.
 */
export function censusStep(queue: RedisQueue, cursor: string, count = CENSUS_SCAN_COUNT): Promise<CensusStep> {
  return queue.attempt(async () => {
    const from = scanCursorFrom(cursor === '0' ? '' : cursor);
    const prefix = queue.keys.prefix;
    const pattern = patternUnder(prefix);
    // SCAN and DBSIZE see one server: in a cluster, the master holding the layout.
    const node = queue.nodeHoldingKeys();
    const [{ cursor: next, found }, dbSize] = await Promise.all([scanStepBuffers(node, from, pattern, count), node.dbsize()]);
    // SCAN may return a key twice across steps; the census counts what it is shown.
    const types = found.length > 0 ? await settlePipeline(found.reduce((pipeline, key) => pipeline.type(key), queue.redis.pipeline())) : [];
    const step: CensusStep = { cursor: next, done: next === '0', keys: found.length, jobs: 0, uniques: 0, structural: 0, wrongType: [], strangerCount: 0, strangers: [], dbSize };
    const prefixBytes = Buffer.byteLength(prefix, 'utf8');
    for (const [index, name] of found.entries()) {
      const reply = types[index];
      const type = typeof reply === 'string' ? reply : 'none';
      // Deleted between SCAN and TYPE (a job completing): nothing to count.
      if (type === 'none') continue;
      const spec = specKeyOf(bytesToText(name.subarray(prefixBytes)));
      if (spec === null) {
        step.strangerCount += 1;
        if (step.strangers.length < CENSUS_STRANGERS_PER_STEP) step.strangers.push({ ...keyAddressOf(name), type });
      } else if (spec.type !== type) {
        if (step.wrongType.length < CENSUS_STRANGERS_PER_STEP) step.wrongType.push({ ...keyAddressOf(name), type });
      }
      else if (spec.kind === 'job') step.jobs += 1;
      else if (spec.kind === 'unique') step.uniques += 1;
      else step.structural += 1;
    }
    return step;
  });
}
