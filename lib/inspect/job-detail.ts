import { QueueError } from '../queue/errors';
import { execPipeline } from '../queue/pipeline';
import type { RedisQueue } from '../queue/redis-queue';
import { bytesToText, toDisplayValue, type DisplayValue } from './display-text';
import { prettyJson } from './pretty-json';

/** Where a job is now, read from the structures that hold ids, not only from its hash. */
export type JobLocation =
  | { state: 'ready'; level: string; entry: string }
  | { state: 'reserved'; level: string; entry: string; reservedBy: string; reservedUntil: number; overdue: boolean; deliveries: number; idleMs: number }
  | { state: 'delayed'; until: number; parked: boolean }
  | { state: 'failed'; failedAt: number }
  /** the hash exists but no stream, delayed set or failed set names it */
  | { state: 'stray' };

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

/** A job id with no hash: finished or forgotten, or never handed out. */
export interface JobGone {
  id: number;
  gone: true;
  /** queue:seq, the highest id handed out so far; an id above it never existed */
  lastId: number;
}

/** A job gone, told apart by queue:seq: ids are handed out in order, so one above it was never a job. */
export function readJobGone(queue: RedisQueue, id: number): Promise<JobGone> {
  return queue.attempt(async () => ({ id, gone: true, lastId: Number((await queue.redis.get(queue.keys.seq)) ?? 0) || 0 }));
}

function entryLevel(fields: Record<string, string>): string {
  const priority = Number.parseInt(fields.priority ?? '', 10);
  return String(Number.isFinite(priority) ? priority : 0);
}

/**
 * Everything about one job: its hash, shown safely, and where it is now.
 * Returns null when the job is gone; throws QueueError when j:{id} is a key
 * of another type. Two pipelined round trips.
 */
export async function readJobDetail(queue: RedisQueue, id: number): Promise<JobDetail | null> {
  const key = queue.keys.job(id);
  // HGETALL is refused for a key of another type; TYPE says which.
  const [time, type, raw, failedScore] = (await queue.attempt(() =>
    execPipeline(queue.redis.pipeline().time().type(key).hgetallBuffer(key).zscore(queue.keys.failed, String(id)), (error) =>
      error.message.startsWith('WRONGTYPE'),
    ),
  )) as [[string, string], string, Record<string, Buffer> | null, string | null];
  if (type === 'none') return null;
  if (type !== 'hash') throw new QueueError(`${key} is a ${type}, not a job hash`);
  const now = Number(time[0]);
  const buffers = raw ?? {};
  const text = Object.fromEntries(Object.entries(buffers).map(([name, value]) => [name, bytesToText(value)]));
  const fields = Object.entries(buffers).map(([name, value]) => ({ name, value: toDisplayValue(value) }));
  const payload = fields.find((field) => field.name === 'payload')?.value;
  const payloadPretty = payload && !payload.truncated ? prettyJson(payload.text) : null;
  return { id, fields, payloadPretty, location: await queue.attempt(() => locate(queue, id, text, failedScore, now)), now };
}

async function locate(queue: RedisQueue, id: number, fields: Record<string, string>, failedScore: string | null, now: number): Promise<JobLocation> {
  if (failedScore !== null) return { state: 'failed', failedAt: Number(failedScore) };
  const name = fields.queue;
  if (!name) return { state: 'stray' };
  const level = entryLevel(fields);
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
