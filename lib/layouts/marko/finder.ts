import type { RedisConnection } from '../../redis/connection';
import { isRanged } from '../../shapes/find';
import { jobsPartsTogether, readJobsChunk, stillMatchingJobs, type FindHit, type HitReading } from '../find-in-jobs';
import { findStep, snippetOf, type FindPlan } from '../find-steps';
import { asciiCased } from '../find-text';
import type { JobFinder } from '../pages';
import type { MarkoCounts } from './counts';
import type { MarkoKeys } from './keys';
import { payloadClassName, splitSignedPayload } from './payload';

/** Where the base64 of a signed payload begins: after 64 hex digits, a dot and `b64:`. */
const BASE64_START = 64 + 1 + 'b64:'.length;

/** The characters of `text`'s base64 that its bytes alone decide when it starts `lead` bytes into a group of three. */
function decidedBase64(text: Buffer, lead: number): string {
  const encoded = Buffer.concat([Buffer.alloc(lead), text]).toString('base64');
  return encoded.slice([0, 2, 3][lead], Math.floor(((lead + text.length) * 8) / 6));
}

const ALIGNMENTS = [0, 1, 2];

/** Shorter spellings match too much by chance to be worth reading. */
const SHORTEST_SPELLING = 2;

/**
 * The text as it reads inside base64, at each of the three alignments it
 * can start at: only the characters every byte of it decides, so that Redis
 * matches a signed payload's decoded bytes without decoding it. A short
 * text gives short spellings that may match by chance; each hit is decoded
 * and checked (markoReading.matchOf).
 */
export function base64Spellings(text: Buffer): Buffer[] {
  return ALIGNMENTS.flatMap((lead) => {
    const decided = decidedBase64(text, lead);
    return decided.length >= SHORTEST_SPELLING ? [Buffer.from(decided, 'latin1')] : [];
  });
}

/**
 * base64Spellings as Lua patterns that match the text's ASCII letters in
 * either case. A letter's case is one bit (0x20) of its byte, and each
 * base64 character holds that bit of one byte at most, so where the spelling
 * of the text in lower case and in upper case differ, the character is a
 * class of the two (`[QY]`), and the pattern matches exactly the base64 of
 * every casing. Folding the base64's own letters instead would be wrong:
 * `A` is `QQ`, `a` is `YQ`.
 */
export function base64CaseFoldedPatterns(text: Buffer): string[] {
  const lower = asciiCased(text, 'lower');
  const upper = asciiCased(text, 'upper');
  return ALIGNMENTS.flatMap((lead) => {
    const [lowerSpelling, upperSpelling] = [decidedBase64(lower, lead), decidedBase64(upper, lead)];
    if (lowerSpelling.length < SHORTEST_SPELLING) return [];
    // `+` is the only base64 character that is magic in a Lua pattern (outside a class).
    const literal = (char: string) => (char === '+' ? '%+' : char);
    return [[...lowerSpelling].map((char, at) => (char === upperSpelling[at] ? literal(char) : `[${char}${upperSpelling[at]}]`)).join('')];
  });
}

/** The window's base64 decoded, from its first whole group; the window starts at byte `from` (1-based) of a signed payload. */
function decodedWindow(hit: FindHit): Buffer {
  const offset = hit.from - 1 - BASE64_START;
  const skip = offset < 0 ? -offset : (4 - (offset % 4)) % 4;
  const encoded = hit.window.subarray(skip).toString('latin1');
  return Buffer.from(encoded.slice(0, encoded.length - (encoded.length % 4)), 'base64');
}

/** marko's signed payloads are matched, and shown, by their decoded PHP serialization; its job's name is the class it names. */
const markoReading: HitReading = {
  spellings: base64Spellings,
  caseFoldedPatterns: base64CaseFoldedPatterns,
  matchOf: (hit, needle) => {
    const name = payloadClassName(hit.head, hit.head.length + 1);
    const signed = hit.field !== 'error' && hit.field !== 'id' && splitSignedPayload(hit.head, hit.head.length + 1)?.encoding === 'b64';
    const snippet = snippetOf(hit.window, needle) ?? (signed ? snippetOf(decodedWindow(hit), needle) : null);
    return snippet && { id: hit.id, queue: hit.queue, state: hit.state, name, field: hit.field, snippet };
  },
};

/**
 * Find on marko: each queue's ready list, delayed and reserved sets (each
 * job read from its hash: `queue`, `payload`), then the failed records
 * (JSON: queue, payload, exception).
 */
export function markoFinder(
  connection: RedisConnection,
  keys: MarkoKeys,
  queueNames: () => Promise<readonly string[]>,
  counts: () => Promise<MarkoCounts>,
): JobFinder {
  const jobs = { jobPrefix: keys.jobsPrefix, fields: { queue: 'queue', name: '', payload: 'payload', errors: [], reserved: '' }, reading: markoReading };
  const records = { ...jobs, fields: { ...jobs.fields, errors: ['exception'] } };
  // A ranged search walks the failed records by their index (scored by the second each failed), each record read by its id.
  const indexedRecords = { ...records, records: keys.failedJobs };
  const plan: FindPlan = {
    states: ['ready', 'delayed', 'reserved', 'failed'],
    // A ready job's hash records no time it was pushed (marko keeps none).
    times: { delayed: 'when it is due', reserved: 'when its reservation expires', failed: 'when it failed' },
    queues: queueNames,
    partsOf: async (name) => [
      { states: ['ready'], key: keys.ready(name), kind: 'list', byOffset: true },
      { states: ['delayed'], key: keys.delayed(name), kind: 'zset', timeScale: 1000 },
      { states: ['reserved'], key: keys.reserved(name), kind: 'zset', timeScale: 1000 },
    ],
    sharedParts: [{ states: ['failed'], key: keys.failedJobs, kind: 'records', timeScale: 1000 }],
    counts,
    readChunk: (part, position, query, states, _options, size) => {
      if (part.kind !== 'records') return readJobsChunk(connection, jobs, part, position, query, states, size);
      if (!isRanged(query.range)) return readJobsChunk(connection, records, part, position, query, states, size);
      return readJobsChunk(connection, indexedRecords, { ...part, key: keys.failedIndex, kind: 'indexed-records' }, position, query, states, size);
    },
    // The failed records (kind 'records') are read alone.
    together: jobsPartsTogether(connection, jobs),
  };
  return {
    states: plan.states,
    times: plan.times,
    step: (query, cursor, taken, options) => findStep(plan, query, cursor, taken, options),
    // A failed job is its record (written anew each time it fails), a live one its hash.
    stillMatching: (query, of, ids) => stillMatchingJobs(connection, of === 'failed' ? { ...records, records: keys.failedJobs } : jobs, ids, query),
  };
}
