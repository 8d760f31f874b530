import { readKeyContents } from '../key-layout';
import { execPipeline, settlePipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import { keyTableOf, readKeyRows, TABLE_CENSUS_SCAN_KEYS, tableCensusStep, type KeyVerdict, type PlannedKey } from '../key-table';
import type { ConsumerGroup, KeyRow, KeyTable, KeyTableReader, KeyType } from '../pages';

/** Queue names read into the table; a larger queues set is listed in part and says so. */
export const LAYOUT_QUEUE_LIMIT = 50;
/** Streams listed per queue; the driver makes one per priority level in use, rarely more than a handful. */
export const LAYOUT_LEVEL_LIMIT = 20;

const TALLY = { job: 'Job hashes', unique: 'Unique keys', structural: 'Queue structures' } as const;

/**
 * The spec's key list, after the prefix. Queue names are free text (a colon
 * or a newline included: dot-all), so the per-queue patterns take anything
 * between `q:` and the suffix; job ids are the counter's whole numbers.
 */
export const SPEC_KEY_PATTERNS: readonly { pattern: RegExp; type: KeyType; kind: 'job' | 'unique' | 'structural' }[] = [
  { pattern: /^j:[1-9]\d*$/, type: 'hash', kind: 'job' },
  { pattern: /^q:.+:s:-?\d+$/s, type: 'stream', kind: 'structural' },
  { pattern: /^q:.+:levels$/s, type: 'zset', kind: 'structural' },
  { pattern: /^q:.+:delayed$/s, type: 'zset', kind: 'structural' },
  { pattern: /^u:.+$/s, type: 'string', kind: 'unique' },
  { pattern: /^failed$/, type: 'zset', kind: 'structural' },
  { pattern: /^queues$/, type: 'set', kind: 'structural' },
  { pattern: /^seq$/, type: 'string', kind: 'structural' },
];

/** Which entry of the spec's key list a key (after the prefix) is, if any. */
export function specKeyOf(rest: string) {
  return SPEC_KEY_PATTERNS.find(({ pattern }) => pattern.test(rest)) ?? null;
}

/** What a key under the prefix (its whole name as text) is to StaticPHP's layout: a job hash, a unique key, a queue structure, of another type, or a stranger. */
export function judgeStaticphpKey(prefix: string, key: string, type: KeyType): KeyVerdict {
  const spec = key.startsWith(prefix) ? specKeyOf(key.slice(prefix.length)) : null;
  if (spec === null) return null;
  if (spec.type !== type) return { wrongType: true };
  return { tally: TALLY[spec.kind] };
}

/** XINFO GROUPS replies a flat [name, value, …] list per group. */
function groupNamed(reply: unknown, group: string): ConsumerGroup | null {
  if (!Array.isArray(reply)) return null;
  for (const flat of reply as unknown[]) {
    if (!Array.isArray(flat)) continue;
    const info = Object.fromEntries(Array.from({ length: Math.floor(flat.length / 2) }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1] as unknown]));
    if (String(info.name) === group) return { pending: Number(info.pending ?? 0), lastDeliveredId: String(info['last-delivered-id'] ?? '') };
  }
  return null;
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

/** Each stream row's consumer group, read with XINFO GROUPS (never created here); a stream key of another type has none. */
async function readGroups(queue: RedisQueue, rows: KeyRow[], streams: ReadonlySet<KeyRow>): Promise<void> {
  const asked = rows.filter((row) => streams.has(row) && row.type === 'stream');
  for (const row of rows) if (streams.has(row) && row.type !== 'stream') row.group = null;
  for (let start = 0; start < asked.length; start += 200) {
    const batch = asked.slice(start, start + 200);
    const replies = await settlePipeline(batch.reduce((pipeline, row) => pipeline.xinfo('GROUPS', row.key), queue.redis.pipeline()));
    batch.forEach((row, index) => {
      const reply = replies[index];
      if (reply instanceof Error) row.error = reply.message;
      else row.group = groupNamed(reply, queue.settings.group);
    });
  }
}

/**
 * StaticPHP's keys page: the spec's key table for the configured prefix,
 * read live (`queues`, `seq`, `failed`, and for each queue, the first
 * `queueLimit` names of the queues set, its `levels` and `delayed` sorted
 * sets and one stream per level, highest first, with its consumer group),
 * and a census of `{prefix}*` that counts job hashes, unique keys and queue
 * structures and lists the rest. Reads only; never creates a group.
 */
export function staticphpKeyTable(
  queue: RedisQueue,
  { queueLimit = LAYOUT_QUEUE_LIMIT, levelLimit = LAYOUT_LEVEL_LIMIT, censusScanKeys = TABLE_CENSUS_SCAN_KEYS } = {},
): KeyTableReader {
  const k = queue.keys;
  const group = queue.settings.group;
  return {
    read: () =>
      queue.attempt(async (): Promise<KeyTable> => {
        const { names, count } = await readQueueNames(queue, queueLimit);
        const levelReads = queue.redis.pipeline();
        for (const name of names) levelReads.zrevrange(k.levels(name), 0, levelLimit - 1).zcard(k.levels(name));
        // A levels key of another type is flagged in its own row; it lists no streams.
        const levelReplies = names.length > 0 ? await execPipeline(levelReads, (error) => error.message.startsWith('WRONGTYPE')) : [];

        const planned: PlannedKey[] = [
          { key: k.queues, holds: 'queue names', queue: null, expectedType: 'set' },
          { key: k.seq, holds: 'the id counter', queue: null, expectedType: 'string' },
          { key: k.failed, holds: 'failed ids', queue: null, expectedType: 'zset' },
        ];
        const streamKeys = new Set<string>();
        let levelsCut = 0;
        for (const [index, name] of names.entries()) {
          planned.push({ key: k.levels(name), holds: 'priority levels', queue: name, expectedType: 'zset' });
          planned.push({ key: k.delayed(name), holds: 'delayed ids', queue: name, expectedType: 'zset' });
          const levels = (levelReplies[2 * index] as string[] | null) ?? [];
          if (Number(levelReplies[2 * index + 1] ?? 0) > levels.length) levelsCut += 1;
          // Highest level first, the order reserve walks them.
          for (const level of levels) {
            streamKeys.add(k.stream(name, level));
            planned.push({ key: k.stream(name, level), holds: `ready ids, level ${level}`, queue: name, expectedType: 'stream' });
          }
        }
        const rows = await readKeyRows(queue, planned);
        await readGroups(queue, rows, new Set(rows.filter((row) => streamKeys.has(row.key))));

        const cut = [
          names.length < count && `Only the first ${names.length} of ${count} queues, by name, are listed.`,
          levelsCut > 0 && `Only the highest levels of ${levelsCut} ${levelsCut === 1 ? 'queue' : 'queues'} with many levels are listed.`,
        ].filter(Boolean);
        return keyTableOf({
          scope: `prefix ${k.prefix}, consumer group ${group}; ${count} ${count === 1 ? 'queue' : 'queues'}`,
          description:
            'Every structural key of the layout: the queues set, the id counter, the failed set, and per queue its levels, delayed set and one stream per level. Job hashes and unique keys are counted by the census.',
          keys: rows,
          cut: cut.length > 0 ? cut.join(' ') : null,
          censusScope: `${k.prefix}*`,
          consumerGroup: group,
        });
      }),
    censusStep: (cursor, ownPrefix) =>
      tableCensusStep(
        queue,
        [{ prefix: k.prefix, judge: (key, type) => judgeStaticphpKey(k.prefix, key, type) }],
        cursor,
        Object.values(TALLY),
        censusScanKeys,
        ownPrefix,
      ),
    contents: (key, cursor) => readKeyContents(queue, key, cursor),
  };
}
