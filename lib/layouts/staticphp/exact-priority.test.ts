import { describe, expect, it } from 'vitest';
import { readDelayedTimeline } from './delayed-timeline';
import { runDoctor } from './doctor';
import { readFailedPage } from './failed';
import { readQueueDetail } from './queue-detail';
import { readReservations } from './reservations';
import { readJobDetail } from './job-detail';
import { levelOf } from './keys';
import type { RedisQueue } from './redis-queue';
import { expandIncludes } from '../../redis/lua-script';
import { testQueueFactory } from './test-redis';
import { queuelens } from '../../../bin/test-cli';

const openQueue = testQueueFactory();

/** 2^53 + 1: the first integer a JS number (and Lua's tonumber) cannot hold; PHP's 64-bit ints can. */
const BEYOND_DOUBLES = '9007199254740993';
const ROUNDED = '9007199254740992';

/** A ready job as PHP's PUSH writes it, with raw commands: the priority's digits in the hash, the stream key and the levels member. */
async function pushAsPhp(queue: RedisQueue, id: number | string, priority: string): Promise<string> {
  const { keys, redis } = queue;
  const entry = await redis.xadd(keys.stream('mail', priority), '*', 'job', String(id));
  await redis
    .multi()
    .hset(keys.job(id), {
      queue: 'mail',
      name: 'App\\Jobs\\Send',
      payload: '{"n":1}',
      attempts: '0',
      max_attempts: '3',
      priority,
      unique_key: '',
      available_at: '1785649677',
      reserved_until: '0',
      reserved_by: '',
      last_error: '',
      created_at: '2026-08-02 05:47:57',
      entry: entry!,
    })
    .zadd(keys.levels('mail'), priority, priority)
    .sadd(keys.queues, 'mail')
    .set(keys.seq, String(id))
    .exec();
  return entry!;
}

async function pendingCount(queue: RedisQueue, priority: string): Promise<number> {
  const summary = (await queue.redis.xpending(queue.keys.stream('mail', priority), queue.settings.group)) as [number, ...unknown[]];
  return summary[0];
}

describe('a priority beyond 2^53, written by PHP', () => {
  it('is reserved and completed on its own stream, leaving nothing pending', async () => {
    const queue = await openQueue();
    await pushAsPhp(queue, 1, BEYOND_DOUBLES);
    const job = await queue.reserve(['mail'], 'w:1', 60);
    expect(job).toMatchObject({ id: 1, priority: BEYOND_DOUBLES });
    expect(await pendingCount(queue, BEYOND_DOUBLES)).toBe(1);
    expect(await queue.complete(job!)).toBe(true);
    expect(await pendingCount(queue, BEYOND_DOUBLES)).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', BEYOND_DOUBLES))).toBe(0);
    expect(await queue.redis.exists(queue.keys.job(1), queue.keys.stream('mail', ROUNDED))).toBe(0);
  });

  it('is released, promoted back into its own stream and failed there', async () => {
    const queue = await openQueue();
    await pushAsPhp(queue, 1, BEYOND_DOUBLES);
    expect(await queue.release((await queue.reserve(['mail'], 'w:1', 60))!, 0, 'again')).toBe(true);
    const again = await queue.reserve(['mail'], 'w:1', 60);
    expect(again).toMatchObject({ id: 1, attempts: 2, priority: BEYOND_DOUBLES });
    expect(await queue.fail(again!, 'for good')).toBe(true);
    expect(await pendingCount(queue, BEYOND_DOUBLES)).toBe(0);
    expect(await queue.redis.zscore(queue.keys.failed, '1')).not.toBeNull();
    expect(await queue.redis.exists(queue.keys.stream('mail', ROUNDED))).toBe(0);
  });

  it('is found in its own stream by the dashboard readers', async () => {
    const queue = await openQueue();
    const entry = await pushAsPhp(queue, 1, BEYOND_DOUBLES);
    expect((await readJobDetail(queue, 1))?.location).toEqual({ state: 'ready', level: BEYOND_DOUBLES, entry });
    // Looked for in s:9007199254740992, the job would be an orphan.
    expect(await runDoctor(queue)).toEqual([]);
    await queue.reserve(['mail'], 'w:1', 60);
    expect((await readJobDetail(queue, 1))?.location).toMatchObject({ state: 'reserved', level: BEYOND_DOUBLES, entry });
  });

  it('is pushed by QueueLens as PHP pushes it, digit for digit', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'n', {}, { priority: BEYOND_DOUBLES });
    expect(await queue.redis.hget(queue.keys.job(id), 'priority')).toBe(BEYOND_DOUBLES);
    expect(await queue.redis.xlen(queue.keys.stream('mail', BEYOND_DOUBLES))).toBe(1);
    expect(await queue.redis.zrange(queue.keys.levels('mail'), 0, '-1')).toEqual([BEYOND_DOUBLES]);
    await expect(queue.push('mail', 'n', {}, { priority: '9223372036854775808' })).rejects.toThrow(/a PHP integer/);
    await expect(queue.push('mail', 'n', {}, { priority: '1.5' })).rejects.toThrow(/whole number/);
  });
});

describe('a job id beyond 2^53, written by PHP', () => {
  it('is refused with an error naming it, and no rounded key is touched', async () => {
    const queue = await openQueue();
    await pushAsPhp(queue, BEYOND_DOUBLES, '0');
    await expect(queue.reserve(['mail'], 'w:1', 60)).rejects.toThrow(`Job ${BEYOND_DOUBLES} of queue mail has an id beyond 2^53`);
    expect(await queue.redis.exists(queue.keys.job(ROUNDED))).toBe(0);
    // Left to its claim: still pending on its entry, for a PHP worker to reclaim once it runs out.
    expect(await queue.redis.hget(queue.keys.job(BEYOND_DOUBLES), 'reserved_by')).toBe('w:1');
    expect(await pendingCount(queue, '0')).toBe(1);
  });

  it('is never named by its rounded number: retry and forget refuse it, leave the job that number names alone, and reach it by its text', async () => {
    const queue = await openQueue();
    const { keys, redis } = queue;
    // Two failed neighbours, as ids counted up past 2^53 leave them: Number('…993') is …992, the other job.
    for (const id of [ROUNDED, BEYOND_DOUBLES]) {
      await redis.hset(keys.job(id), {
        queue: 'mail',
        name: `job ${id}`,
        payload: '{}',
        attempts: '1',
        max_attempts: '1',
        priority: '0',
        entry: '',
        error: 'boom',
      });
      await redis.zadd(keys.failed, 1, id);
    }
    const rounded = Number(BEYOND_DOUBLES);
    await expect(queue.retryFailed([rounded])).rejects.toThrow(`A job id must be a whole number from 1 to 2^53 - 1, got ${ROUNDED}`);
    await expect(queue.forgetFailed(rounded, null)).rejects.toThrow(/past that a JS number has been rounded/);
    await expect(queue.forgetFailedIds([1, rounded])).rejects.toThrow(/past that a JS number has been rounded/);
    expect(await redis.zrange(keys.failed, '0', '-1')).toEqual([ROUNDED, BEYOND_DOUBLES]);
    expect(await redis.hget(keys.job(ROUNDED), 'error')).toBe('boom');

    // Retrying every failed job reads the ids as text: each is requeued on its own key.
    await queue.retryFailed(null);
    const entries = await redis.xrange(keys.stream('mail', 0), '-', '+');
    expect(entries.map(([, fields]) => fields[1]).sort()).toEqual([ROUNDED, BEYOND_DOUBLES]);
    for (const id of [ROUNDED, BEYOND_DOUBLES]) expect(await redis.hget(keys.job(id), 'name')).toBe(`job ${id}`);
  });
});

/**
 * Two neighbours as ids counted up past 2^53 leave them, each with a name of
 * its own: Number('…993') is …992, so a view that rounds shows the other
 * job's id, or reads the other job's hash.
 */
async function neighbours(queue: RedisQueue, place: 'ready' | 'delayed' | 'failed'): Promise<void> {
  const { keys, redis } = queue;
  await redis.hset(keys.job(ROUNDED), { queue: 'other', name: 'the neighbour', payload: '{}', attempts: '0', max_attempts: '1', priority: '0', entry: '' });
  if (place === 'ready') {
    await pushAsPhp(queue, BEYOND_DOUBLES, '0');
    return;
  }
  const [seconds] = await redis.time();
  await redis.hset(keys.job(BEYOND_DOUBLES), {
    queue: 'mail',
    name: 'App\\Jobs\\Big',
    payload: '{}',
    attempts: '1',
    max_attempts: '1',
    priority: '0',
    entry: '',
    reserved_by: '',
    reserved_until: '0',
    ...(place === 'failed' ? { error: 'boom', failed_at: '2026-12-01 00:00:00' } : {}),
  });
  await redis.sadd(keys.queues, 'mail');
  if (place === 'failed') await redis.zadd(keys.failed, Number(seconds), BEYOND_DOUBLES);
  else await redis.zadd(keys.delayed('mail'), Number(seconds) + 600, BEYOND_DOUBLES);
}

describe('a job id beyond 2^53, as the read-only views show it', () => {
  it('is carried digit for digit by failedRows and failed --json (as a JSON string), with its own hash', async () => {
    const queue = await openQueue();
    await neighbours(queue, 'failed');
    expect(await queue.failedRows(10)).toMatchObject([{ id: BEYOND_DOUBLES, name: 'App\\Jobs\\Big', error: 'boom' }]);
    const printed = await queuelens('failed', '--json', '--prefix', queue.keys.prefix);
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(printed.stdout).toContain(`"id":"${BEYOND_DOUBLES}"`);
    expect(printed.stdout).not.toContain(ROUNDED);
  });

  it('is carried digit for digit by the failed list', async () => {
    const queue = await openQueue();
    await neighbours(queue, 'failed');
    const { rows } = await readFailedPage(queue, 0, 10);
    expect(rows).toMatchObject([{ id: BEYOND_DOUBLES, exact: false, name: 'App\\Jobs\\Big', queue: 'mail' }]);
  });

  it('is carried digit for digit by the queue page, ready and delayed, each with its own name', async () => {
    const queue = await openQueue();
    await neighbours(queue, 'ready');
    const ready = await readQueueDetail(queue, 'mail');
    expect(ready.nextJobs).toMatchObject([{ id: BEYOND_DOUBLES, name: 'App\\Jobs\\Send' }]);

    const delayedQueue = await openQueue();
    await neighbours(delayedQueue, 'delayed');
    expect((await readDelayedTimeline(delayedQueue, 'mail')).next).toMatchObject([{ id: BEYOND_DOUBLES, name: 'App\\Jobs\\Big' }]);
  });

  it('is carried digit for digit by the delayed timeline', async () => {
    const queue = await openQueue();
    await neighbours(queue, 'delayed');
    expect((await readDelayedTimeline(queue, 'mail')).next).toMatchObject([{ id: BEYOND_DOUBLES, name: 'App\\Jobs\\Big', heldBy: null }]);
  });

  it('is a running claim on the reservations page, not a job gone', async () => {
    const queue = await openQueue();
    await neighbours(queue, 'ready');
    // Reserve refuses to run it and leaves its claim to run out.
    await expect(queue.reserve(['mail'], 'w:1', 60)).rejects.toThrow(/beyond 2\^53/);
    const { holders } = await readReservations(queue);
    expect(holders.flatMap((holder) => holder.rows)).toMatchObject([{ jobId: BEYOND_DOUBLES, state: 'running', name: 'App\\Jobs\\Send', reservedBy: 'w:1' }]);
  });
});

describe('levelOf', () => {
  it('names the same level in TypeScript and in the scripts', async () => {
    const { redis } = await openQueue();
    const samples = ['0', '-0', '7', '007', '-007', '-5', BEYOND_DOUBLES, '-9223372036854775808', '9223372036854775807', '1.5', '-1.5', '1e3', 'abc', ''];
    const inLua = expandIncludes('local rcall = redis.call\n-- @include layout\nlocal out = {}\nfor i = 1, #ARGV do out[i] = levelOf(ARGV[i]) end\nreturn out');
    const levels = samples.map(levelOf);
    expect(levels).toEqual(['0', '0', '7', '7', '-7', '-5', BEYOND_DOUBLES, '-9223372036854775808', '9223372036854775807', '1', '-2', '1000', '0', '0']);
    expect(await redis.eval(inLua, 0, ...samples)).toEqual(levels);
  });
});
