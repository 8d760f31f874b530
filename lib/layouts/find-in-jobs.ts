import type { RedisConnection } from '../redis/connection';
import { flatBytesReply, luaScript, replyRows } from '../redis/lua-script';
import { isRanged, type FindMatch, type FindQuery, type FindState } from '../shapes/find';
import {
  FIND_JOBS_CHUNK,
  JOBS_CHUNK_BUDGET,
  readSizedChunk,
  SNIPPET_BYTES,
  snippetOf,
  type ChunkRead,
  type FindChunk,
  type FindPart,
  type PartsReadTogether,
} from './find-steps';
import { needleOf, type FindNeedle } from './find-text';
import { indexSizes, readInOneRoundTrip, type CountedIndex } from './find-together';

/**
 * The reply every layout's find-step script gives: where the next step
 * starts ('' once the index is done), how many jobs it looked at, then its
 * rows of `width` cells each.
 */
export function findChunkReply<Row>(
  reply: unknown,
  width: number,
  row: (at: (offset: number) => unknown) => Row,
): { next: string; looked: number; bytes: number; rows: Row[] } {
  const [next, looked, bytes, ...values] = flatBytesReply(reply);
  return { next: String(next ?? ''), looked: Number(looked), bytes: Number(bytes), rows: replyRows(values, width, row) };
}

/** The find step of layouts whose jobs are hashes (StaticPHP, marko) or JSON records (marko's and Horizon's failed): lua/shared/find-in-jobs-2.lua. */
export const findInJobs = luaScript({
  file: 'shared/find-in-jobs-2.lua',
  keys: ['index', 'records'],
  args: [
    'kind',
    'position',
    'count',
    'jobPrefix',
    'state',
    'states',
    'onlyQueue',
    'field',
    'window',
    'queueField',
    'nameField',
    'payloadField',
    'errorFields',
    'reservedField',
    'ignoreCase',
    'timeFrom',
    'timeUntil',
    'timeScale',
    'texts',
  ],
  // The texts (the text, then its spellings), then the caller's ready-made Lua patterns.
  rest: 'needles',
  // Payload windows are bytes written by somebody else's code, cut anywhere.
  bytes: true,
  reply: (reply) =>
    findChunkReply(reply, 7, (at) => ({
      id: String(at(0)),
      state: String(at(1)) as FindState,
      queue: String(at(2)),
      head: at(3) as Buffer,
      field: String(at(4)) as FindMatch['field'],
      from: Number(String(at(5))),
      window: at(6) as Buffer,
    })),
});

export type FindHit = ReturnType<typeof findInJobs.reply>['rows'][number];

/** How a layout's job hash (or failed record) names the fields Find looks in. */
export interface JobFieldNames {
  queue: string;
  /** '' where the job's name is read from its payload */
  name: string;
  payload: string;
  errors: readonly string[];
  /** set while a stream entry is held ('' where the layout has no streams) */
  reserved: string;
}

/** How a layout reads what the Lua found: other spellings of the text to match, and the row as the user reads it (null: not a match once decoded). */
export interface HitReading {
  /** spellings whose letters follow the text's, so that under ignoreCase the Lua folds them as it folds the text (JSON escapes) */
  spellings(text: Buffer): Buffer[];
  /**
   * Under ignoreCase, spellings whose bytes do not follow the text's letter
   * case (base64), as Lua patterns that match the text's letters in either
   * case; they stand in for `spellings` then. Left out where there are none.
   */
  caseFoldedPatterns?(text: Buffer): string[];
  matchOf(hit: FindHit, needle: FindNeedle): FindMatch | null;
}

/** Bytes as stored: the text is its only spelling, the hit's head is the name. */
export const PLAIN_READING: HitReading = {
  spellings: () => [],
  matchOf: (hit, needle) => {
    const snippet = snippetOf(hit.window, needle);
    return snippet && { id: hit.id, queue: hit.queue, state: hit.state, name: hit.head.toString('utf8'), field: hit.field, snippet };
  },
};

/**
 * The range's ends as a chunk script takes them, for a part that records a
 * time (FindPart.timeScale): Unix ms, '' for open; and the scale, '' when
 * there is no range (or the part records no time, which a ranged search
 * never walks).
 */
export function timeArgs(part: FindPart, query: FindQuery): { timeFrom: string; timeUntil: string; timeScale: string } {
  const range = query.range;
  if (!isRanged(range) || part.timeScale === undefined) return { timeFrom: '', timeUntil: '', timeScale: '' };
  return { timeFrom: String(range.from ?? ''), timeUntil: String(range.until ?? ''), timeScale: String(part.timeScale) };
}

/** How a layout's jobs are read for Find: where their hashes are, their fields, how a hit reads. */
export interface JobsReading {
  jobPrefix: string;
  fields: JobFieldNames;
  reading: HitReading;
  /** the hash of failed records a part of kind 'indexed-records' indexes */
  records?: string;
}

/** What one call of lua/shared/find-in-jobs-2.lua reads: an index from a position, or ids listed in `position`. */
interface JobsRead {
  index: string;
  kind: string;
  position: string;
  state: FindState;
  states: readonly FindState[];
  time: ReturnType<typeof timeArgs>;
}

/** The arguments of one call of lua/shared/find-in-jobs-2.lua over `count` ids. */
function findInJobsCall(options: JobsReading, read: JobsRead, query: FindQuery, needle: FindNeedle, count: number) {
  const { fields, reading } = options;
  const patterns = query.ignoreCase ? (reading.caseFoldedPatterns?.(needle.bytes) ?? null) : null;
  const texts = [needle.bytes, ...(patterns === null ? reading.spellings(needle.bytes) : [])];
  return {
    index: read.index,
    records: options.records ?? read.index,
    kind: read.kind,
    position: read.position,
    count,
    jobPrefix: options.jobPrefix,
    state: read.state,
    states: `,${read.states.join(',')},`,
    onlyQueue: query.queue ?? '',
    field: query.field,
    window: SNIPPET_BYTES,
    queueField: fields.queue,
    nameField: fields.name,
    payloadField: fields.payload,
    errorFields: fields.errors.join(','),
    reservedField: fields.reserved,
    ignoreCase: query.ignoreCase ? 1 : 0,
    ...read.time,
    texts: texts.length,
    needles: [...texts, ...(patterns ?? [])],
  };
}

/** What one call read, its hits as the layout reads them. */
function findInJobsRead(reply: ReturnType<typeof findInJobs.reply>, options: JobsReading, needle: FindNeedle): ChunkRead {
  const matches = reply.rows.flatMap((hit) => options.reading.matchOf(hit, needle) ?? []);
  return { matches, looked: reply.looked, next: reply.next === '' ? null : reply.next, bytes: reply.bytes };
}

/** One call of lua/shared/find-in-jobs-2.lua over `count` ids, its hits read as the layout reads them. */
async function findInJobsOnce(connection: RedisConnection, options: JobsReading, read: JobsRead, query: FindQuery, count: number): Promise<ChunkRead> {
  const needle = needleOf(query);
  const reply = await connection.attempt(() => findInJobs.run(connection.redis, findInJobsCall(options, read, query, needle, count)));
  return findInJobsRead(reply, options, needle);
}

/** Where a part's read starts from: its start, or `position` in it. */
function jobsRead(part: FindPart, position: string, query: FindQuery, states: readonly FindState[]): JobsRead {
  return { index: part.key, kind: part.kind, position, state: part.states[0]!, states, time: timeArgs(part, query) };
}

/** One chunk of `part` through lua/shared/find-in-jobs-2.lua, of `size` ids as the chunk before sized it (FindPlan.readChunk). */
export function readJobsChunk(
  connection: RedisConnection,
  options: JobsReading,
  part: FindPart,
  position: string,
  query: FindQuery,
  states: readonly FindState[],
  size: number | undefined,
): Promise<FindChunk> {
  return readSizedChunk(JOBS_CHUNK_BUDGET, size, (count) => findInJobsOnce(connection, options, jobsRead(part, position, query, states), query, count));
}

/** How an index of ids is counted, by its part's kind; a part of another kind (records) is read alone. */
const INDEX_LENGTH: Partial<Record<string, CountedIndex['length']>> = { stream: 'xlen', list: 'llen', zset: 'zcard' };

/**
 * Small parts read several a round trip (FindPlan.together) where each
 * job is read from its hash: a part weighs its index's length. What a
 * job's hash holds is not known before it is read, as for the first chunk
 * of any part (sized as the chunk before it was).
 */
export function jobsPartsTogether(connection: RedisConnection, options: JobsReading): PartsReadTogether {
  return {
    sizes: (parts) =>
      indexSizes(
        connection,
        parts.map((part) => {
          const length = INDEX_LENGTH[part.kind];
          return length === undefined ? null : { length, key: part.key };
        }),
        JOBS_CHUNK_BUDGET,
        false,
      ),
    read: (parts, counts, query, states, _options, size) => {
      const needle = needleOf(query);
      return readInOneRoundTrip(
        connection,
        JOBS_CHUNK_BUDGET,
        size,
        (pipeline) =>
          parts.forEach((part, index) => findInJobs.queue(pipeline, findInJobsCall(options, jobsRead(part, '', query, states), query, needle, counts[index]!))),
        (reply) => findInJobsRead(findInJobs.reply(reply), options, needle),
      );
    },
  };
}

/**
 * Which of `ids` (job hashes, or with `options.records` failed records)
 * still hold what `query` looks for, as a search reads them: the script
 * that found them, over these ids alone, FIND_JOBS_CHUNK a call. The
 * query's queue, states and range are where a job was found, which the
 * action's own script re-checks; this asks only whether the text is still
 * in it (the rows' state is not read).
 */
export async function stillMatchingJobs(connection: RedisConnection, options: JobsReading, ids: readonly string[], query: FindQuery): Promise<Set<string>> {
  // The script takes the ids comma-joined; no layout's id holds a comma, and one that did could not be the job found.
  const listed = ids.filter((id) => id !== '' && !id.includes(','));
  const matching = new Set<string>();
  for (let at = 0; at < listed.length; at += FIND_JOBS_CHUNK) {
    const chunk = listed.slice(at, at + FIND_JOBS_CHUNK);
    const read = {
      index: options.records ?? `${options.jobPrefix}${chunk[0]}`,
      kind: options.records === undefined ? 'ids' : 'listed-records',
      position: chunk.join(','),
      state: 'failed' as const,
      states: ['failed' as const],
      time: { timeFrom: '', timeUntil: '', timeScale: '' },
    };
    const found = await findInJobsOnce(connection, options, read, { ...query, queue: null }, chunk.length);
    for (const match of found.matches) matching.add(match.id);
  }
  return matching;
}
