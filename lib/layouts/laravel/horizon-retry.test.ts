import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isAbsent, type FailedRetries } from '../adapter';
import { retryEveryFailed } from '../retry-every-failed';
import { HORIZON_RETRY_BATCH, HorizonKeys } from './horizon';
import { retryHorizonFailed } from './scripts';
import { present, testLaravelFactory } from './test-laravel';
import { horizonFails } from './test-horizon';

const openLaravel = testLaravelFactory({ horizon: true });
const CLI = fileURLToPath(new URL('../../../bin/queuelens.js', import.meta.url));

/** `queuelens` on the test's Laravel and Horizon prefixes: its exit code and output. */
async function queuelens(open: Open, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const connection = ['--layout', 'laravel', '--prefix', open.prefix, '--horizon-prefix', open.horizonPrefix!];
  try {
    return { code: 0, ...(await promisify(execFile)('node', [CLI, ...args, ...connection])) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

type Open = Awaited<ReturnType<typeof openLaravel>>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The payload the real Illuminate\Queue\RedisQueue reserved for `name` (attempts 1), as a failing worker hands it to Horizon. */
async function reservedPayload(open: Open, name: string, jobClass: 'HarnessJob' | 'ExpiringJob' = 'HarnessJob'): Promise<Buffer> {
  const id = await open.laravel.push(name, jobClass);
  expect(await open.laravel.pop(60)).toMatchObject({ id, attempts: 1 });
  const [payload] = await open.redis.zrangeBuffer(open.layout.keys.reserved('default'), 0, '0');
  await open.redis.del(open.layout.keys.reserved('default'));
  return payload!;
}

function retryOf(open: Open): FailedRetries {
  const retry = present(open.layout.failedJobs).retryFailed;
  if (isAbsent(retry)) throw new Error(`absent: ${retry.absent}`);
  return retry;
}

async function serverNow(open: Open): Promise<number> {
  return Number((await open.redis.time())[0]);
}

interface Retried {
  id: string;
  status: string;
  retried_at: number;
}

async function retriedBy(open: Open, keys: HorizonKeys, id: string): Promise<Retried[]> {
  return JSON.parse((await open.redis.hget(keys.job(id), 'retried_by')) ?? 'null') as Retried[];
}

describe('Laravel Horizon’s failed jobs, retried from QueueLens as Horizon’s RetryFailedJob does', () => {
  it('pushes a new payload the real Laravel pop runs once: a new id, attempts 0, retry_of, retryUntil moved; retried_by records it', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    const failedId = await horizonFails(open.redis, keys, await reservedPayload(open, 'expiring', 'ExpiringJob'), {
      exception: 'RuntimeException: boom',
      at: now - 600.5,
    });
    const failedPayload = JSON.parse((await open.redis.hget(keys.job(failedId), 'payload'))!) as Record<string, unknown>;
    // The real driver wrote retryUntil 90 s after the push, as a whole second.
    expect(failedPayload.retryUntil).toEqual(expect.any(Number));
    // Laravel 8's RedisQueue gives the payload an id of its own beside the uuid Horizon names the job by.
    expect(failedPayload).toMatchObject({ uuid: failedId, id: expect.not.stringMatching(failedId), attempts: 1 });

    const before = await serverNow(open);
    const outcome = await retryOf(open).ids([failedId]);
    expect(outcome).toEqual({ requeued: [failedId], notFailed: [], missing: [], refused: [], queues: ['default'] });

    const retries = await retriedBy(open, keys, failedId);
    expect(retries).toHaveLength(1);
    const [retry] = retries;
    expect(retry).toEqual({ id: expect.stringMatching(UUID), status: 'pending', retried_at: expect.any(Number) });
    expect(retry!.retried_at - before).toBeGreaterThanOrEqual(0);
    expect(retry!.retried_at - before).toBeLessThan(5);
    // Horizon keeps the record on its failed list, still failed: only retried_by changed.
    expect(await open.redis.zscore(keys.failedIndex, failedId)).not.toBeNull();
    expect(await open.redis.hget(keys.job(failedId), 'status')).toBe('failed');
    // One payload and one notify token, as RedisQueue::pushRaw writes them.
    expect(await open.redis.llen(open.layout.keys.ready('default'))).toBe(1);
    expect(await open.redis.llen(open.layout.keys.notify('default'))).toBe(1);
    expect(await open.laravel.size()).toBe(1);

    const ran = await open.laravel.drain();
    expect(ran.map(({ id, attempts, name }) => ({ id, attempts, name }))).toEqual([{ id: retry!.id, attempts: 1, name: 'expiring' }]);
    const popped = ran[0]!.payload;
    // The payload as pushed (the job's raw body; its reserved copy counts the pop): the retry's own id and uuid, attempts 0, the failed job named.
    expect(popped).toMatchObject({ id: retry!.id, uuid: retry!.id, attempts: 0, retry_of: failedId, displayName: 'ExpiringJob' });
    // No pushedAt (Horizon adds one; the bare driver does not): now + ceil(retryUntil - now), about the old deadline.
    expect(popped.retryUntil).toEqual(expect.any(Number));
    expect(Math.abs((popped.retryUntil as number) - (failedPayload.retryUntil as number))).toBeLessThanOrEqual(1);
    // Everything else is the failed payload's, the command's serialized bytes included.
    for (const field of ['job', 'data', 'maxTries', 'timeout', 'displayName']) expect(popped[field]).toEqual(failedPayload[field]);
    expect(await open.laravel.drain()).toEqual([]);
    expect(await open.laravel.size()).toBe(0);
  });

  it('moves retryUntil as far ahead of now as it was of pushedAt, and leaves it null where the payload has none', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    // As Horizon's JobPayload::prepare() writes pushedAt: microtime as a string.
    const pushedAt = (now - 1000).toFixed(4);
    const withDeadline = JSON.parse((await reservedPayload(open, 'deadline')).toString('utf8')) as Record<string, unknown>;
    const deadlined = await horizonFails(open.redis, keys, Buffer.from(JSON.stringify({ ...withDeadline, pushedAt, retryUntil: now - 1000 + 89.5 })), {
      exception: 'x',
      at: now - 900,
    });
    const plain = await horizonFails(open.redis, keys, await reservedPayload(open, 'plain'), { exception: 'y', at: now - 800 });

    const before = await serverNow(open);
    expect((await retryOf(open).ids([deadlined, plain])).requeued).toEqual([deadlined, plain]);
    const ran = await open.laravel.drain();
    expect(ran.map((job) => job.payload.retry_of)).toEqual([deadlined, plain]);
    const moved = ran[0]!.payload.retryUntil as number;
    // ceil(89.5) = 90 seconds from the retry.
    expect(moved - before).toBeGreaterThanOrEqual(90);
    expect(moved - before).toBeLessThan(95);
    expect(ran[1]!.payload.retryUntil).toBeNull();
  });

  it('reports an id no longer failed, gone or not retriable and pushes nothing for it; a pending retry is not pushed twice', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    const retried = await horizonFails(open.redis, keys, await reservedPayload(open, 'once'), { exception: 'a', at: now - 50 });
    const forgotten = await horizonFails(open.redis, keys, await reservedPayload(open, 'forgotten'), { exception: 'b', at: now - 40 });
    const expired = await horizonFails(open.redis, keys, await reservedPayload(open, 'expired'), { exception: 'c', at: now - 30 });
    const queueless = await horizonFails(open.redis, keys, await reservedPayload(open, 'queueless'), { exception: 'd', at: now - 20 });
    const pushedAgain = await horizonFails(open.redis, keys, await reservedPayload(open, 'pushed again'), { exception: 'e', at: now - 10 });
    const retry = retryOf(open);

    expect((await retry.ids([retried])).requeued).toEqual([retried]);
    // A second tab's retry of the same job: its retry has not run yet.
    const again = await retry.ids([retried]);
    expect(again).toMatchObject({ requeued: [], refused: [{ id: retried, why: expect.stringMatching(/^its retry [0-9a-f-]{36} has not run yet$/) }] });

    expect(await present(open.layout.failedJobs).forgetFailedIds([forgotten])).toBe(1);
    await open.redis.del(keys.job(expired));
    await open.redis.hdel(keys.job(queueless), 'queue');
    // queue:retry pushed the same uuid again: Horizon wrote the live job's state into the record.
    await open.redis.hset(keys.job(pushedAgain), 'status', 'pending');

    const outcome = await retry.ids([forgotten, expired, queueless, pushedAgain, 'never-failed']);
    expect(outcome).toEqual({
      requeued: [],
      notFailed: [forgotten, pushedAgain, 'never-failed'],
      missing: [expired],
      refused: [{ id: queueless, why: 'its record names no queue' }],
      queues: [],
    });
    // The expired record's index entry went with it; the others are as they were.
    expect(await open.redis.zscore(keys.failedIndex, expired)).toBeNull();
    expect(await open.redis.zscore(keys.failedIndex, queueless)).not.toBeNull();
    expect(await open.redis.hexists(keys.job(queueless), 'retried_by')).toBe(0);
    // Only the one retry was ever pushed.
    expect((await open.laravel.drain()).map((job) => job.payload.retry_of)).toEqual([retried]);
  });

  it('retries more ids than one call takes, each once, and refuses what Horizon’s retry does not do', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    const payload = JSON.parse((await reservedPayload(open, 'many')).toString('utf8')) as Record<string, unknown>;
    const ids: string[] = [];
    const count = HORIZON_RETRY_BATCH * 2 + 3;
    for (let i = 0; i < count; i++) {
      const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      ids.push(await horizonFails(open.redis, keys, Buffer.from(JSON.stringify({ ...payload, uuid, id: uuid })), { exception: 'z', at: now - 100 + i }));
    }
    const retry = retryOf(open);
    const outcome = await retry.ids([...ids, ids[0]!]);
    expect(outcome.requeued).toEqual(ids);
    expect(await open.laravel.size()).toBe(count);
    expect(isAbsent(retry.editAndRetry)).toBe(true);
    await expect(retry.ids([ids[0]!], { maxAttempts: 3 })).rejects.toThrow(/Max attempts cannot be set here/);
    const ran = await open.laravel.drain();
    expect(new Set(ran.map((job) => job.payload.retry_of)).size).toBe(count);
  });

  it('answers ids past its byte budget as unreached, having retried at least one, and refuses a queue key of another type', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    const [first, second] = [
      await horizonFails(open.redis, keys, await reservedPayload(open, 'first'), { exception: 'a', at: now - 20 }),
      await horizonFails(open.redis, keys, await reservedPayload(open, 'second'), { exception: 'b', at: now - 10 }),
    ];
    const rows = await retryHorizonFailed.run(open.redis, {
      failedIndex: keys.failedIndex,
      horizonPrefix: keys.prefix,
      laravelPrefix: open.layout.keys.prefix,
      byteBudget: 1,
      skipRetried: '0',
      idsAndNewIds: [first, 'a1b2c3d4-0000-4000-8000-000000000001', second, 'a1b2c3d4-0000-4000-8000-000000000002'],
    });
    expect(rows).toEqual([
      { id: first, outcome: 'retried', newId: 'a1b2c3d4-0000-4000-8000-000000000001', queue: 'default' },
      { id: second, outcome: 'unreached' },
    ]);
    await open.redis.del(open.layout.keys.notify('default'));
    await open.redis.set(open.layout.keys.notify('default'), 'not a list');
    expect(await retryOf(open).ids([second])).toMatchObject({
      requeued: [],
      refused: [{ id: second, why: `its queue’s key ${open.layout.keys.notify('default')} is no list` }],
    });
    expect(await open.redis.hexists(keys.job(second), 'retried_by')).toBe(0);
    await open.redis.del(open.layout.keys.notify('default'));
  });

  it('is retried by `queuelens retry --id` as from the page, and --all passes it once retried; --max-attempts says why not and exits 2', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const id = await horizonFails(open.redis, keys, await reservedPayload(open, 'cli'), { exception: 'x', at: (await serverNow(open)) - 5 });
    expect(await queuelens(open, 'retry', '--id', id, '--id', 'never-failed')).toMatchObject({
      code: 0,
      stdout: 'Retried 1 job; not failed (skipped): never-failed\n',
    });
    const all = await queuelens(open, 'retry', '--all');
    // The one failed job was retried already: every failed job is looked at, none retried twice.
    expect(all).toMatchObject({ code: 0, stdout: 'Retried 0 jobs\n' });
    expect((await queuelens(open, 'retry', '--id', id, '--max-attempts', '3')).code).toBe(2);
    expect((await open.laravel.drain()).map((job) => job.payload.retry_of)).toEqual([id]);
  }, 120_000);

  it('retries every failed job in bounded steps oldest first, once each: those already retried are passed over, and a second run retries none', async () => {
    const open = await openLaravel();
    const keys = new HorizonKeys(open.horizonPrefix!);
    const now = await serverNow(open);
    const payload = JSON.parse((await reservedPayload(open, 'every')).toString('utf8')) as Record<string, unknown>;
    const ids: string[] = [];
    const count = HORIZON_RETRY_BATCH * 2 + 2;
    for (let i = 0; i < count; i++) {
      const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      ids.push(await horizonFails(open.redis, keys, Buffer.from(JSON.stringify({ ...payload, uuid, id: uuid })), { exception: 'z', at: now - 1000 + i }));
    }
    const retry = retryOf(open);
    if (isAbsent(retry.oldest)) throw new Error(`absent: ${retry.oldest.absent}`);
    // Two retried before: one by Horizon and run (completed), one pending; one record expired.
    await open.redis.hset(keys.job(ids[1]!), 'retried_by', JSON.stringify([{ id: 'r-1', status: 'completed', retried_at: now - 5 }]));
    expect((await retry.ids([ids[2]!])).requeued).toEqual([ids[2]]);
    await open.redis.del(keys.job(ids[3]!));

    const first = await retry.oldest();
    // Ranks 0-4: 0 and 4 retried, 1 and 2 passed over, 3's entry gone with its record (the ranks after it moved down one).
    expect(first).toMatchObject({
      requeued: [ids[0], ids[4]],
      missing: [ids[3]],
      refused: [],
      looked: HORIZON_RETRY_BATCH,
      next: String(HORIZON_RETRY_BATCH - 1),
    });
    expect(first.remaining).toBe(count - 1 - (HORIZON_RETRY_BATCH - 1));
    const all = await retryEveryFailed(present(open.layout.failedJobs), retry);
    const expected = ids.filter((_, i) => i > 4);
    expect(all).toEqual({ requeued: expected, notFailed: [], missing: [], refused: [], queues: ['default'] });
    expect(await retryEveryFailed(present(open.layout.failedJobs), retry)).toEqual({ requeued: [], notFailed: [], missing: [], refused: [], queues: [] });
    const ran = await open.laravel.drain();
    expect(ran.map((job) => job.payload.retry_of).sort()).toEqual([ids[0], ids[2], ids[4], ...expected].sort());
  });
});
