import { createHmac, randomUUID } from 'node:crypto';
import type { QueueClient } from '../../redis/client';
import { formatUtcSeconds } from '../dates';
import { MarkoKeys } from './keys';

/**
 * A stand-in for marko/queue-redis in tests, written from its README (and
 * shared/spec/marko-queue-redis-layout.md) because no driver output exists:
 * it pushes, pops, releases, completes and fails the way the documentation
 * describes. Where the documentation is silent it picks, and QueueLens must
 * not depend on the pick: the ready list is pushed at its tail and popped
 * from its head; the job hash's fields are `queue`, `payload`, `attempts`; a
 * failed record's JSON keys are FailedJob's properties.
 */

const TEST_KEY = 'test encryption.key, not a real one';

/** PHP serialize() of a string, an int, or an object of those. */
type PhpValue = string | number;

function serializeValue(value: PhpValue): string {
  return typeof value === 'number' ? `i:${value};` : `s:${Buffer.byteLength(value)}:"${value}";`;
}

/** PHP serialize() of an object whose properties are protected (as marko's Job's are: `\0*\0name`). */
export function serializeJob(className: string, properties: Record<string, PhpValue>): string {
  const entries = Object.entries(properties);
  const body = entries.map(([name, value]) => `${serializeValue(`\0*\0${name}`)}${serializeValue(value)}`).join('');
  return `O:${Buffer.byteLength(className)}:"${className}":${entries.length}:{${body}}`;
}

/** JobEnvelope's signed payload: HMAC-SHA256 over `b64:<base64>`, hex, a dot, then that. */
export function signPayload(serialized: string): string {
  const signed = `b64:${Buffer.from(serialized).toString('base64')}`;
  return `${createHmac('sha256', TEST_KEY).update(signed).digest('hex')}.${signed}`;
}

export interface TestJob {
  className: string;
  /** the job's own properties besides id and attempts */
  data?: Record<string, PhpValue>;
}

export interface PoppedJob {
  id: string;
  payload: string;
  /** the reservations before this one: what pop hands the worker */
  attempts: number;
}

// The README's pop: due delayed jobs and expired reservations back to the
// ready list, then the first ready job reserved until now + retry_after, its
// attempts incremented. Its clock is the caller's (the driver's is the PHP
// host's), so a test moves time as FakeClock does.
const POP = `
local readyKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3]
local prefix, now, retryAfter = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for _, from in ipairs({delayedKey, reservedKey}) do
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', from, '-inf', now)) do
    redis.call('ZREM', from, id)
    redis.call('RPUSH', readyKey, id)
  end
end
local id = redis.call('LPOP', readyKey)
if not id then return false end
redis.call('ZADD', reservedKey, now + retryAfter, id)
local before = tonumber(redis.call('HGET', prefix .. 'jobs:' .. id, 'attempts') or '0')
redis.call('HINCRBY', prefix .. 'jobs:' .. id, 'attempts', 1)
return {id, redis.call('HGET', prefix .. 'jobs:' .. id, 'payload') or '', before}
`;

export class MarkoTestWorker {
  readonly keys: MarkoKeys;

  constructor(
    readonly redis: QueueClient,
    prefix: string,
    readonly retryAfter = 90,
  ) {
    this.keys = new MarkoKeys(prefix);
  }

  /** The Redis server's second, the clock these tests share with QueueLens's reads. */
  async now(): Promise<number> {
    return Number((await this.redis.time())[0]);
  }

  private payloadOf(id: string, job: TestJob, attempts: number): string {
    return signPayload(serializeJob(job.className, { id, attempts, ...job.data }));
  }

  /** push(): the job hash, its id at the ready list's tail, a notify token. */
  async push(queue: string, job: TestJob): Promise<string> {
    const id = randomUUID();
    await this.redis
      .multi()
      .hset(this.keys.job(id), 'queue', queue, 'payload', this.payloadOf(id, job, 0), 'attempts', 0)
      .rpush(this.keys.ready(queue), id)
      .rpush(this.keys.notify(queue), '1')
      .exec();
    return id;
  }

  /** later(): the job hash and its id in the delayed set, available at now + delay. */
  async later(delay: number, queue: string, job: TestJob, now?: number): Promise<string> {
    const id = randomUUID();
    const at = (now ?? (await this.now())) + delay;
    await this.redis
      .multi()
      .hset(this.keys.job(id), 'queue', queue, 'payload', this.payloadOf(id, job, 0), 'attempts', 0)
      .zadd(this.keys.delayed(queue), at, id)
      .exec();
    return id;
  }

  /**
   * pop(): the script, then the limit check the driver makes after it: a job
   * whose reservations already reached `maxAttempts` is failed ("exceeded max
   * attempts after worker crash or timeout") and deleted, and the next one is
   * tried. Null when nothing is ready.
   */
  async pop(queue: string, { now, maxAttempts = 3 }: { now?: number; maxAttempts?: number } = {}): Promise<PoppedJob | null> {
    const at = now ?? (await this.now());
    for (;;) {
      const reply = (await this.redis.eval(
        POP,
        3,
        this.keys.ready(queue),
        this.keys.delayed(queue),
        this.keys.reserved(queue),
        this.keys.prefix,
        at,
        this.retryAfter,
      )) as [string, string, number] | null;
      if (reply === null) return null;
      const [id, payload, attempts] = reply;
      if (attempts < maxAttempts) return { id, payload, attempts: Number(attempts) };
      await this.fail(
        queue,
        id,
        `Job ${id} exceeded max attempts after worker crash or timeout: ${attempts} of ${maxAttempts} attempts were reserved without being completed or released.`,
        at,
      );
    }
  }

  /** delete(): the id out of every structure and the hash gone; false when no job has it. */
  async complete(queue: string, id: string): Promise<boolean> {
    const replies = await this.redis
      .multi()
      .lrem(this.keys.ready(queue), 0, id)
      .zrem(this.keys.delayed(queue), id)
      .zrem(this.keys.reserved(queue), id)
      .del(this.keys.job(id))
      .exec();
    return Number(replies?.[3]?.[1]) === 1;
  }

  /** release(): off the reserved set, its payload re-signed with its attempts, back on the ready list or delayed; false when not reserved. */
  async release(queue: string, job: PoppedJob & TestJob, delay = 0, now?: number): Promise<boolean> {
    if ((await this.redis.zrem(this.keys.reserved(queue), job.id)) === 0) return false;
    const transaction = this.redis.multi().hset(this.keys.job(job.id), 'payload', this.payloadOf(job.id, job, job.attempts + 1));
    if (delay > 0) transaction.zadd(this.keys.delayed(queue), (now ?? (await this.now())) + delay, job.id);
    else transaction.rpush(this.keys.ready(queue), job.id).rpush(this.keys.notify(queue), '1');
    await transaction.exec();
    return true;
  }

  /** The worker's storeFailedJob(): the failed record and its index entry, then delete(). */
  async fail(queue: string, id: string, exception: string, now?: number): Promise<void> {
    const at = now ?? (await this.now());
    const payload = (await this.redis.hget(this.keys.job(id), 'payload')) ?? '';
    const record = JSON.stringify({ id, queue, payload, exception, failedAt: formatUtcSeconds(at) });
    await this.redis.multi().hset(this.keys.failedJobs, id, record).zadd(this.keys.failedIndex, at, id).exec();
    await this.complete(queue, id);
  }
}
