import type { RedisConnection } from '../../redis/connection';
import { aboutFromCounts, readJobsChunk, type FindHit, type HitReading } from '../find-in-jobs';
import { findStep, snippetOf, type FindPlan } from '../find-steps';
import type { JobFinder } from '../pages';
import type { MarkoCounts } from './counts';
import type { MarkoKeys } from './keys';
import { payloadClassName, splitSignedPayload } from './payload';

/** Where the base64 of a signed payload begins: after 64 hex digits, a dot and `b64:`. */
const BASE64_START = 64 + 1 + 'b64:'.length;

/**
 * The text as it reads inside base64, at each of the three alignments it
 * can start at: only the characters every byte of it decides, so that Redis
 * matches a signed payload's decoded bytes without decoding it. A short
 * text gives short spellings that may match by chance; each hit is decoded
 * and checked (markoReading.matchOf).
 */
export function base64Spellings(text: Buffer): Buffer[] {
  return [0, 1, 2].flatMap((lead) => {
    const encoded = Buffer.concat([Buffer.alloc(lead), text]).toString('base64');
    const decided = encoded.slice([0, 2, 3][lead], Math.floor(((lead + text.length) * 8) / 6));
    return decided.length >= 2 ? [Buffer.from(decided, 'latin1')] : [];
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
  const plan: FindPlan = {
    states: ['ready', 'delayed', 'reserved', 'failed'],
    queues: queueNames,
    partsOf: async (name) => [
      { states: ['ready'], key: keys.ready(name), kind: 'list' },
      { states: ['delayed'], key: keys.delayed(name), kind: 'zset' },
      { states: ['reserved'], key: keys.reserved(name), kind: 'zset' },
    ],
    sharedParts: [{ states: ['failed'], key: keys.failedJobs, kind: 'records' }],
    about: async (query, states) => aboutFromCounts(await counts(), query, states),
    readChunk: (part, position, query, states) => readJobsChunk(connection, part.kind === 'records' ? records : jobs, part, position, query, states),
  };
  return { states: plan.states, step: (query, cursor) => findStep(plan, query, cursor) };
}
