import type { RedisConnection } from '../../redis/connection';
import type { FindQuery, FindState } from '../../shapes/find';
import { readJobsChunk, stillMatchingJobs, timeArgs, type HitReading } from '../find-in-jobs';
import {
  findStep,
  readSizedChunk,
  VALUES_CHUNK_BUDGET,
  SNIPPET_BYTES,
  snippetOf,
  type ChunkRead,
  type FindChunk,
  type FindPart,
  type FindPlan,
  type FindStepOptions,
  type FoundMatch,
} from '../find-steps';
import { needleOf, type FindNeedle } from '../find-text';
import { indexSizes, readInOneRoundTrip } from '../find-together';
import type { JobFinder } from '../pages';
import type { LaravelCounts } from './counts';
import type { HorizonKeys } from './horizon';
import type { LaravelKeys } from './keys';
import { isLaravelJobId, NO_ID, type LaravelQueues } from './pages';
import { findPayloads } from './scripts';

/**
 * Where each state's payloads are: the ready list, the delayed and reserved
 * sets (Laravel keeps no failed job in Redis), and what a sorted set's score
 * is in ms. A ready list records no time (a payload's `createdAt` is inside
 * its JSON, which a ranged walk would have to decode whole to read).
 */
const STRUCTURES = {
  ready: { kind: 'list', keyOf: (keys: LaravelKeys, queue: string) => keys.ready(queue), timeScale: undefined },
  delayed: { kind: 'zset', keyOf: (keys: LaravelKeys, queue: string) => keys.delayed(queue), timeScale: 1000 },
  reserved: { kind: 'zset', keyOf: (keys: LaravelKeys, queue: string) => keys.reserved(queue), timeScale: 1000 },
} as const;

const LARAVEL_TIMES = { delayed: 'when it is due', reserved: 'when its reservation expires' } as const;

type LaravelState = keyof typeof STRUCTURES;

const LARAVEL_STATES: readonly LaravelState[] = ['ready', 'delayed', 'reserved'];

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** `text` inside a JSON string as an encoder writes it: `\u` with four lowercase hex digits for each UTF-16 unit it does not write as it is. */
function jsonEscaped(text: string, escapes: { nonAscii: boolean; del: boolean }): string {
  let escaped = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    const asUnit = code < 0x20 || (code === 0x7f && escapes.del) || (code > 0x7f && escapes.nonAscii);
    escaped += SHORT_ESCAPES[char] ?? (asUnit ? `\\u${code.toString(16).padStart(4, '0')}` : char);
  }
  return escaped;
}

/**
 * The text as a Laravel payload's JSON may spell it, each once, most likely
 * first: as Laravel's createPayload writes it (json_encode with
 * JSON_UNESCAPED_UNICODE: `\\`, `\"` and `\/` escaped, UTF-8 as it is); as
 * Redis's cjson writes it when the pop re-encodes the copy it reserves (DEL
 * escaped too); as json_encode's default writes it (every non-ASCII
 * character as `\uXXXX`, as another producer may); and as typed (JSON a
 * producer wrote without escaping `/`, or structure such as `"id":42`).
 */
export function jsonSpellings(text: string): Buffer[] {
  const spelled = [
    jsonEscaped(text, { nonAscii: false, del: false }),
    jsonEscaped(text, { nonAscii: false, del: true }),
    jsonEscaped(text, { nonAscii: true, del: false }),
    text,
  ];
  return [...new Set(spelled)].map((spelling) => Buffer.from(spelling, 'utf8'));
}

const UNESCAPED: Readonly<Record<number, number>> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };

function hexUnitAt(bytes: Buffer, at: number): number | null {
  const hex = bytes.toString('latin1', at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit < 0xdc00;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit < 0xe000;

/** The escape starting at the backslash at `at`: the UTF-8 bytes it stands for and its length; null where it is none, or the window cuts it. */
function unescapeAt(bytes: Buffer, at: number): { bytes: Buffer; length: number } | null {
  const next = bytes[at + 1];
  if (next === undefined) return null;
  const simple = UNESCAPED[next];
  if (simple !== undefined) return { bytes: Buffer.of(simple), length: 2 };
  const unit = next === 0x75 ? hexUnitAt(bytes, at + 2) : null;
  if (unit === null || isLowSurrogate(unit)) return null;
  if (!isHighSurrogate(unit)) return { bytes: Buffer.from(String.fromCharCode(unit), 'utf8'), length: 6 };
  const low = bytes[at + 6] === 0x5c && bytes[at + 7] === 0x75 ? hexUnitAt(bytes, at + 8) : null;
  return low !== null && isLowSurrogate(low) ? { bytes: Buffer.from(String.fromCharCode(unit, low), 'utf8'), length: 12 } : null;
}

/**
 * JSON bytes as a user reads them: every string escape written out
 * (`App\\Jobs\\Ship` reads `App\Jobs\Ship`, the command's `\"` reads `"`).
 * The window is cut anywhere, so an escape it cuts stays as it is.
 */
export function readableJson(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let copied = 0;
  for (let at = bytes.indexOf(0x5c); at >= 0;) {
    const escape = unescapeAt(bytes, at);
    if (escape === null) {
      at = bytes.indexOf(0x5c, at + 1);
      continue;
    }
    parts.push(bytes.subarray(copied, at), escape.bytes);
    copied = at + escape.length;
    at = bytes.indexOf(0x5c, copied);
  }
  parts.push(bytes.subarray(copied));
  return Buffer.concat(parts);
}

const UNUSABLE_ID = 'the payload’s id is not letters, digits and dashes: it is shown but cannot be opened or repaired';

type PayloadHit = ReturnType<typeof findPayloads.reply>['rows'][number];

/** The row of one hit as the user reads it; null when the text is not in it once its JSON escapes are read (a spelling that matched only as bytes). */
function matchOf(hit: PayloadHit, queue: string, state: FindState, needle: FindNeedle): FoundMatch | null {
  const snippet = snippetOf(hit.field === 'payload' ? readableJson(hit.value) : hit.value, needle);
  if (snippet === null) return null;
  const idNote = hit.id === '' ? NO_ID : isLaravelJobId(hit.id) ? null : UNUSABLE_ID;
  return {
    id: hit.id,
    ...(idNote !== null && { idNote }),
    queue,
    state,
    name: hit.name,
    field: hit.field,
    snippet,
    ...(hit.near !== undefined && { near: hit.near }),
    ...(hit.whole.length > 0 && { bytes: hit.whole }),
  };
}

/**
 * The longest payload a step asked for bytes sends whole (FindStepOptions):
 * a step's 200 of them stay within a few MB; a longer one's removal looks
 * it up by its id, as a removal from its page does.
 */
const WHOLE_PAYLOAD_BYTES = 64 * 1024;

/** A Horizon record's payload is JSON as the queue's is; its exception and name are plain text. */
const HORIZON_READING: HitReading = {
  spellings: (text) => jsonSpellings(text.toString('utf8')),
  matchOf: (hit, needle) => {
    const snippet = snippetOf(hit.field === 'payload' ? readableJson(hit.window) : hit.window, needle);
    return snippet && { id: hit.id, queue: hit.queue, state: hit.state, name: hit.head.toString('utf8'), field: hit.field, snippet };
  },
};

/** One chunk of Horizon's failed list: its ids, each record's queue, name, payload and exception matched inside Redis (lua/shared/find-in-jobs-2.lua). */
function readHorizonChunk(
  connection: RedisConnection,
  horizon: HorizonKeys,
  part: FindPart,
  position: string,
  query: FindQuery,
  states: readonly FindState[],
  size: number | undefined,
): Promise<FindChunk> {
  return readJobsChunk(connection, horizonJobs(horizon), { ...part, kind: 'zset' }, position, query, states, size);
}

/** Horizon's job hashes as Find reads them. */
function horizonJobs(horizon: HorizonKeys) {
  const fields = { queue: 'queue', name: 'name', payload: 'payload', errors: ['exception'], reserved: '' };
  return { jobPrefix: horizon.prefix, fields, reading: HORIZON_READING };
}

/** The call of lua/laravel/find-payloads-1.lua over `count` ids of one queue's ready list, delayed or reserved set from `position`. */
function payloadsCall(keys: LaravelKeys, part: FindPart, position: string, query: FindQuery, options: FindStepOptions, count: number) {
  const structure = STRUCTURES[part.kind as LaravelState];
  return {
    index: structure.keyOf(keys, part.key),
    kind: structure.kind,
    position,
    count,
    field: query.field,
    window: SNIPPET_BYTES,
    id: isLaravelJobId(query.text) ? query.text : '',
    text: query.text,
    ignoreCase: query.ignoreCase ? 1 : 0,
    ...timeArgs(part, query),
    wholeUpTo: options.bytes === true ? WHOLE_PAYLOAD_BYTES : 0,
    spellings: jsonSpellings(query.text),
  };
}

/** What one call over `part` read, its hits as the user reads them. */
function payloadsRead(reply: ReturnType<typeof findPayloads.reply>, part: FindPart, query: FindQuery): ChunkRead {
  const needle = needleOf(query);
  return {
    matches: reply.rows.flatMap((hit) => matchOf(hit, part.key, part.kind as LaravelState, needle) ?? []),
    looked: reply.looked,
    next: reply.next === '' ? null : reply.next,
    bytes: reply.bytes,
  };
}

/** One chunk of one queue's ready list, delayed or reserved set. */
function readQueueChunk(
  connection: RedisConnection,
  keys: LaravelKeys,
  part: FindPart,
  position: string,
  query: FindQuery,
  options: FindStepOptions,
  size: number | undefined,
): Promise<FindChunk> {
  return readSizedChunk(VALUES_CHUNK_BUDGET, size, async (count) => {
    const reply = await connection.attempt(() => findPayloads.run(connection.redis, payloadsCall(keys, part, position, query, options, count)));
    return payloadsRead(reply, part, query);
  });
}

/**
 * What reading each of `parts` whole costs (PartsReadTogether.sizes): its
 * length and its payloads' bytes. Horizon's failed list is read alone.
 */
function queuePartSizes(connection: RedisConnection, keys: LaravelKeys, parts: readonly FindPart[]): Promise<{ ids: number; weight: number }[]> {
  const indexes = parts.map((part) => {
    const structure = STRUCTURES[part.kind as LaravelState] as (typeof STRUCTURES)[LaravelState] | undefined;
    if (structure === undefined) return null;
    return { length: structure.kind === 'list' ? ('llen' as const) : ('zcard' as const), key: structure.keyOf(keys, part.key) };
  });
  return indexSizes(connection, indexes, VALUES_CHUNK_BUDGET, true);
}

/** The part of a search that walks Horizon's failed list. */
const HORIZON_FAILED_KIND = 'horizon-failed';

/**
 * Find on Laravel: each queue's ready list, delayed and reserved sets, a
 * chunk of one of them a call (lua/laravel/find-payloads-1.lua), the first
 * chunks of small ones several a round trip (FindPlan.together). A job is
 * its payload, so it is matched where it is, as its JSON spells the text,
 * and shown as the job page reads it; its id is the one the job page and
 * the repairs find it by (`id`, else `uuid`). Where Horizon's prefix is
 * named (`horizon`), its failed list too: each record's queue, name,
 * payload and exception, read where they are.
 */
export function laravelFinder(
  connection: RedisConnection,
  keys: LaravelKeys,
  queues: LaravelQueues,
  counts: () => Promise<LaravelCounts>,
  horizon: HorizonKeys | null,
): JobFinder {
  const plan: FindPlan = {
    states: horizon === null ? LARAVEL_STATES : [...LARAVEL_STATES, 'failed'],
    times: horizon === null ? LARAVEL_TIMES : { ...LARAVEL_TIMES, failed: 'when it failed' },
    queues: () => queues.names(),
    // A part's key is its queue's name, its kind the state: the chunk reader builds the structure's key and names the queue in each row.
    partsOf: async (queue) =>
      LARAVEL_STATES.map((state) => ({
        states: [state],
        key: queues.known(queue),
        kind: state,
        byOffset: STRUCTURES[state].kind === 'list',
        ...(STRUCTURES[state].timeScale !== undefined && { timeScale: STRUCTURES[state].timeScale }),
      })),
    // Horizon scores its failed jobs by -microtime(true), the newest lowest.
    sharedParts: horizon === null ? [] : [{ states: ['failed'], key: horizon.failedIndex, kind: HORIZON_FAILED_KIND, timeScale: -1000 }],
    counts,
    readChunk: (part, position, query, states, options, size) =>
      horizon !== null && part.kind === HORIZON_FAILED_KIND
        ? readHorizonChunk(connection, horizon, part, position, query, states, size)
        : readQueueChunk(connection, keys, part, position, query, options, size),
    together: {
      sizes: (parts) => queuePartSizes(connection, keys, parts),
      read: (parts, counts, query, _states, options, size) =>
        readInOneRoundTrip(
          connection,
          VALUES_CHUNK_BUDGET,
          size,
          (pipeline) => parts.forEach((part, index) => findPayloads.queue(pipeline, payloadsCall(keys, part, '', query, options, counts[index]!))),
          (reply, index) => payloadsRead(findPayloads.reply(reply), parts[index]!, query),
        ),
    },
  };
  return {
    states: plan.states,
    times: plan.times,
    step: (query, cursor, taken, options) => findStep(plan, query, cursor, taken, options),
    // A failed job is Horizon's hash, its exception written when it fails. A live
    // one is its payload bytes, which only a release rewrites (its attempts),
    // and the remove finds the job by its id where it was found.
    stillMatching: async (query, of, ids) =>
      horizon !== null && of === 'failed' ? stillMatchingJobs(connection, horizonJobs(horizon), ids, query) : new Set(ids),
  };
}
