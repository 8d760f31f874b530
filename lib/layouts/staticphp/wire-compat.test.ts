import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { QueueClient } from '../../redis/client';
import { JOB_FIELDS } from '../../shapes/job-hash';
import type { RedisQueue } from './redis-queue';
import { scanKeysUnder } from '../../redis/scan-keys';
import { sleep, testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();
const run = promisify(execFile);

/** Writes a job hash the way the PHP driver's PUSH script does, field for field. */
async function writeJobHash(redis: QueueClient, prefix: string, id: number, fields: Record<string, string | number>) {
  const base = {
    queue: 'emails',
    name: 'Application\\Jobs\\SendInvoice',
    payload: `{"id":${id}}`,
    attempts: 0,
    max_attempts: 3,
    priority: 0,
    unique_key: '',
    available_at: 1785649677,
    reserved_until: 0,
    reserved_by: '',
    last_error: '',
    created_at: '2026-08-02 05:47:57',
    entry: '',
  };
  await redis.hset(`${prefix}j:${id}`, { ...base, ...fields });
}

/** A queue as a PHP application with the StaticPHP driver leaves it, written with raw commands only. */
async function writeQueueAsPhpWould(queue: RedisQueue): Promise<number> {
  const { redis } = queue;
  const p = queue.keys.prefix;
  const now = Number((await redis.time())[0]);
  for (const id of [1, 2, 3]) {
    const entry = await redis.xadd(`${p}q:emails:s:0`, '*', 'job', String(id));
    await writeJobHash(redis, p, id, { entry: entry! });
  }
  const urgent = await redis.xadd(`${p}q:emails:s:5`, '*', 'job', '4');
  await writeJobHash(redis, p, 4, { priority: 5, unique_key: 'nightly', entry: urgent! });
  await redis.set(`${p}u:nightly`, '4');
  await redis.zadd(`${p}q:emails:levels`, 0, '0', 5, '5');
  // A PHP worker reserved job 1 with a 60 second timeout.
  await redis.xgroup('CREATE', `${p}q:emails:s:0`, 'workers', '0', 'MKSTREAM');
  await redis.xreadgroup('GROUP', 'workers', 'shared', 'COUNT', 1, 'STREAMS', `${p}q:emails:s:0`, '>');
  await redis.hset(`${p}j:1`, { attempts: 1, reserved_by: 'web-1:4242', reserved_until: now + 60 });
  // One delayed job already due, one an hour away, one on another queue.
  await writeJobHash(redis, p, 5, { available_at: now - 10 });
  await writeJobHash(redis, p, 6, { available_at: now + 3600 });
  await writeJobHash(redis, p, 7, { queue: 'reports', available_at: now + 60 });
  await redis.zadd(`${p}q:emails:delayed`, now - 10, '5', now + 3600, '6');
  await redis.zadd(`${p}q:reports:delayed`, now + 60, '7');
  // Failed jobs; id 10's hash was deleted by hand.
  await writeJobHash(redis, p, 8, { attempts: 3, error: 'SMTP timeout\n#0 Mailer.php(12)', failed_at: '2026-08-02 05:47:57' });
  await writeJobHash(redis, p, 9, { attempts: 3, error: 'Out of paper', failed_at: '2026-08-02 06:00:00' });
  await redis.zadd(`${p}failed`, 1785649677, '8', 1785650400, '9', 1785650500, '10');
  await redis.sadd(`${p}queues`, 'emails', 'reports', 'forgotten');
  await redis.set(`${p}seq`, '10');
  return now;
}

const EXPECTED_STATS = [
  // s:0 holds 3 with 1 delivered, s:5 holds 1 with no group yet, and 1 delayed job is due.
  { queue: 'emails', pending: 4, delayed: 1, reserved: 1, total: 6 },
  { queue: 'reports', pending: 0, delayed: 1, reserved: 0, total: 1 },
];

describe('a queue written by the PHP driver', () => {
  it('reports the right stats and failed rows', async () => {
    const queue = await openQueue();
    await writeQueueAsPhpWould(queue);
    expect(await queue.stats()).toEqual(EXPECTED_STATS);
    expect(await queue.pending()).toBe(4);
    expect(await queue.failedCount()).toBe(3);
    const rows = await queue.failedRows(10);
    expect(rows.map((row) => row.id)).toEqual([9, 8]);
    expect(rows[1]).toMatchObject({ id: 8, queue: 'emails', attempts: '3', error: 'SMTP timeout\n#0 Mailer.php(12)', failed_at: '2026-08-02 05:47:57' });
  });

  it('is what `queuelens status --json` prints', async () => {
    const queue = await openQueue();
    await writeQueueAsPhpWould(queue);
    const { stdout } = await run('node', ['bin/queuelens.js', 'status', '--json', '--prefix', queue.keys.prefix]);
    expect(JSON.parse(stdout)).toEqual({ queues: EXPECTED_STATS, failed: 3 });
  });

  it('is worked and repaired by this driver', async () => {
    const queue = await openQueue();
    await writeQueueAsPhpWould(queue);
    // The higher level first; the due delayed job joins the back of level 0.
    const order = [];
    for (let job = await queue.reserve(['emails'], 'ts:1', 30); job; job = await queue.reserve(['emails'], 'ts:1', 30)) {
      order.push(job.id);
      await queue.complete(job);
    }
    expect(order).toEqual([4, 2, 3, 5]);
    // Job 1 is still held by the PHP worker; its deadline is a minute away.
    expect(await queue.stats()).toEqual([{ queue: 'emails', pending: 0, delayed: 1, reserved: 1, total: 2 }, EXPECTED_STATS[1]]);
    expect(await queue.redis.exists(`${queue.keys.prefix}u:nightly`)).toBe(0);
    expect(await queue.retryFailed([8, 10])).toEqual({ requeued: [8], notFailed: [], missing: [10], queues: ['emails'] });
    expect((await queue.reserve(['emails'], 'ts:1', 30))?.id).toBe(8);
    expect(await queue.push('emails', 'next', {})).toBe(11);
  });
});

describe('what this driver writes', () => {
  const TYPES: [RegExp, string][] = [
    [/^j:\d+$/, 'hash'],
    [/^q:[^:]+:s:-?\d+$/, 'stream'],
    [/^q:[^:]+:levels$/, 'zset'],
    [/^q:[^:]+:delayed$/, 'zset'],
    [/^u:.+$/, 'string'],
    [/^failed$/, 'zset'],
    [/^queues$/, 'set'],
    [/^seq$/, 'string'],
  ];

  it('is only the spec’s keys, with the spec’s types and fields', async () => {
    const queue = await openQueue();
    await queue.push('emails', 'a', {}, { uniqueKey: 'once', priority: -2 });
    await queue.push('emails', 'b', {}, { delaySeconds: 1 });
    await queue.push('reports', 'c', {});
    await queue.release((await queue.reserve(['emails'], 'h:1', 30))!, 0, 'again');
    await queue.fail((await queue.reserve(['reports'], 'h:1', 30))!, 'bad');
    await queue.retryFailed(null);
    await sleep(1100);
    for (let job = await queue.reserve(['emails', 'reports'], 'h:1', 1); job; job = await queue.reserve(['emails', 'reports'], 'h:1', 1)) {
      if (job.name === 'b') await queue.complete(job);
      else await queue.fail(job, 'kept for the record');
    }
    await queue.push('emails', 'pending', {}, { uniqueKey: 'held' });

    const keys: string[] = [];
    for await (const batch of scanKeysUnder(queue.redis, queue.keys.prefix)) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(8);
    for (const key of keys) {
      const rest = key.slice(queue.keys.prefix.length);
      const expected = TYPES.find(([pattern]) => pattern.test(rest));
      expect(expected, `${rest} is not in the spec's key list`).toBeDefined();
      expect(await queue.redis.type(key), rest).toBe(expected![1]);
      if (expected![1] === 'hash') {
        const fields = Object.keys(await queue.redis.hgetall(key));
        expect(fields.filter((field) => !(JOB_FIELDS as readonly string[]).includes(field)).sort(), rest).toEqual(
          fields.includes('failed_at') ? ['error', 'failed_at'] : [],
        );
      }
    }
  });
});
