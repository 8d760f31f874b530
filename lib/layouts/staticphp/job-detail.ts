import { levelOf } from './keys';
import { execPipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import { bytesToText, DISPLAY_LIMIT_BYTES, displayValueOf, type DisplayValue } from '../../shapes/display-text';
import { heldPrefixesOf } from '../held-prefixes';
import { jobHashOf, jobPageFields, readJobHash } from '../job-hash-read';
import type { JobLocation } from '../../shapes/job-location';
import { prettyJson } from '../../shapes/pretty-json';

export interface JobDetail {
  id: number;
  /** every hash field, in the order Redis returns them */
  fields: { name: string; value: DisplayValue }[];
  /** the payload re-indented, when it is JSON and small enough to show whole */
  payloadPretty: string | null;
  location: JobLocation;
  /** the Redis server's clock, unix seconds */
  now: number;
}

/** queue:seq, the highest job id handed out so far: ids are handed out in order, so a gone job above it was never a job. */
export function readLastJobId(queue: RedisQueue): Promise<number> {
  return queue.attempt(async () => Number((await queue.redis.get(queue.keys.seq)) ?? 0) || 0);
}

/** A job hash with more fields than this is not read whole (a job has a dozen). */
const MAX_JOB_FIELDS = 1_000;

/**
 * Everything about one job: its hash, shown safely, and where it is now.
 * Reads at most DISPLAY_LIMIT_BYTES of each value, inside Redis
 * (lua/shared/read-job-1.lua), with each value's stored length: a 20 MB payload
 * costs the page 64 KiB, and Redis a whole copy of it once a minute
 * (HeldPrefixes). Returns null when the job is gone; throws
 * QueueError when j:{id} is a key of another type or no job's size. Two
 * pipelined round trips.
 */
export async function readJobDetail(queue: RedisQueue, id: number): Promise<JobDetail | null> {
  const key = queue.keys.job(id);
  const held = heldPrefixesOf(queue).heldFor(key, DISPLAY_LIMIT_BYTES, MAX_JOB_FIELDS);
  const pipeline = queue.redis.pipeline().time();
  readJobHash.queue(pipeline, held.call);
  const [time, reply, failedScore] = (await queue.attempt(() => execPipeline(pipeline.zscore(queue.keys.failed, String(id))))) as [
    [string, string],
    unknown,
    string | null,
  ];
  const read = jobPageFields(key, jobHashOf(readJobHash.reply(reply), held));
  if (read === null) return null;
  const now = Number(time[0]);
  // The fields that say where the job is are a few bytes; their first 64 KiB are all of them.
  const text = Object.fromEntries(read.map(({ name, prefix }) => [name, bytesToText(prefix)]));
  const fields = read.map(({ name, bytes, prefix }) => ({ name, value: displayValueOf(prefix, bytes) }));
  const payload = fields.find((field) => field.name === 'payload')?.value;
  const payloadPretty = payload && !payload.truncated ? prettyJson(payload.text) : null;
  return { id, fields, payloadPretty, location: await queue.attempt(() => locate(queue, id, text, failedScore, now)), now };
}

async function locate(queue: RedisQueue, id: number, fields: Record<string, string>, failedScore: string | null, now: number): Promise<JobLocation> {
  if (failedScore !== null) return { state: 'failed', failedAt: Number(failedScore) };
  const name = fields.queue;
  if (!name) return { state: 'stray' };
  const level = levelOf(fields.priority ?? '');
  const entry = fields.entry ?? '';
  const stream = queue.keys.stream(name, level);
  const reads = queue.redis.pipeline().zscore(queue.keys.delayed(name), String(id));
  if (entry !== '') reads.xrange(stream, entry, entry).xpending(stream, queue.settings.group, entry, entry, 1);
  // A stream without a group answers NOGROUP: nothing was delivered from it yet.
  const [delayedScore, range, pending] = (await execPipeline(reads, (error) => error.message.startsWith('NOGROUP'))) as [
    string | null,
    unknown[] | undefined,
    [string, string, number, number][] | null | undefined,
  ];
  if (delayedScore !== null) return { state: 'delayed', until: Number(delayedScore), parked: (fields.reserved_by ?? '') !== '' };
  if (!range || range.length === 0) return { state: 'stray' };
  const pendingEntry = pending?.[0];
  if (!pendingEntry) return { state: 'ready', level, entry };
  const reservedUntil = Number(fields.reserved_until ?? 0) || 0;
  return {
    state: 'reserved',
    level,
    entry,
    reservedBy: fields.reserved_by ?? '',
    reservedUntil,
    overdue: reservedUntil <= now,
    idleMs: Number(pendingEntry[2]),
    deliveries: Number(pendingEntry[3]),
  };
}

/** The whole stored value of one field, for download; null when the job or field is gone. */
export function readJobFieldBytes(queue: RedisQueue, id: number, field: string): Promise<Buffer | null> {
  return queue.attempt(() => queue.redis.hgetBuffer(queue.keys.job(id), field));
}
