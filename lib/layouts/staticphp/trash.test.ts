import { describe, expect, it } from 'vitest';
import { Worker } from '../../worker/worker';
import { NO_TRASH_FILTER, type TrashFilter, type TrashWrite } from '../../shapes/trash';
import { type RedisQueue } from './redis-queue';
import { sleep, testQueueFactory, waitFor } from './test-redis';
import { readTrashPage, restoreFromTrash } from './trash';
import { staticphpKeyTable } from './key-table';
import { QUEUELENS_OWN_TALLY } from '../key-table';

const openQueue = testQueueFactory();

/** The trash under the test queue's own prefix, so that the factory's cleanup deletes it too. */
function trashOf(queue: RedisQueue, overrides: Partial<TrashWrite> = {}): TrashWrite {
  return { dashboardPrefix: `${queue.keys.prefix}ql:`, keepSeconds: 3600, maxEntries: 100, maxBytes: 1 << 30, who: 'alice', via: 'dashboard', ...overrides };
}

/** Pushes `count` jobs and fails each from its reservation; their ids, oldest first. */
async function failedJobs(queue: RedisQueue, count: number, name = 'doomed'): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    ids.push(await queue.push('default', name, { n }));
    await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, `row ${n} has 7 columns`);
  }
  return ids;
}

async function hashBytes(queue: RedisQueue, id: number | string): Promise<Record<string, string>> {
  const fields = await queue.redis.hgetallBuffer(queue.keys.job(id));
  return Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, value.toString('hex')]));
}

describe('the StaticPHP trash', () => {
  it('keeps a forgotten job whole and restores the identical hash bytes and failed set score', async () => {
    const queue = await openQueue();
    const [id] = await failedJobs(queue, 1);
    // Bytes that are no UTF-8 and HTML, which a re-encoding in JS would change.
    await queue.redis.hset(queue.keys.job(id!), 'payload', Buffer.from([0x7b, 0xff, 0xfe, 0x3c, 0x62, 0x3e, 0x7d]));
    const before = await hashBytes(queue, id!);
    const score = await queue.redis.zscore(queue.keys.failed, String(id));
    const trash = trashOf(queue);

    expect(await queue.forgetFailedIds([id!], trash)).toBe(1);
    expect(await queue.redis.exists(queue.keys.job(id!))).toBe(0);
    expect(await queue.failedCount()).toBe(0);
    const page = await readTrashPage(queue, trash, 0, 10);
    expect(page.total).toBe(1);
    expect(page.rows).toMatchObject([{ id: String(id), name: 'doomed', queue: 'default', from: 'failed', score, who: 'alice', via: 'dashboard' }]);
    expect(page.rows[0]!.expiresAt - page.rows[0]!.trashedAt).toBe(3600);
    const keys = queue.trashKeys(trash.dashboardPrefix);
    expect(await queue.redis.ttl(keys.job(String(id)))).toBeGreaterThan(3500);

    // The queue it was taken from comes back with it: the dashboard refreshes that queue's figures.
    expect(await restoreFromTrash(queue, trash, [String(id)])).toEqual([{ id: String(id), outcome: 'restored', queue: 'default' }]);
    expect(await hashBytes(queue, id!)).toEqual(before);
    expect(await queue.redis.ttl(queue.keys.job(id!))).toBe(-1);
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).toBe(score);
    expect(await queue.redis.exists(keys.index, keys.job(String(id)), keys.where(String(id)))).toBe(0);
    expect(await restoreFromTrash(queue, trash, [String(id)])).toEqual([{ id: String(id), outcome: 'gone', queue: '' }]);
  });

  it('refuses a restore whose id or unique key was taken meanwhile, and keeps the job in the trash', async () => {
    const queue = await openQueue();
    const [reused, unique] = await failedJobs(queue, 2);
    await queue.redis.hset(queue.keys.job(unique!), 'unique_key', 'nightly-import');
    const trash = trashOf(queue);
    await queue.forgetFailedIds([reused!, unique!], trash);
    await queue.redis.hset(queue.keys.job(reused!), 'name', 'someone else');
    const holder = await queue.push('default', 'import', {}, { uniqueKey: 'nightly-import' });

    expect(await restoreFromTrash(queue, trash, [String(reused), String(unique)])).toMatchObject([
      { id: String(reused), outcome: 'id-taken' },
      { id: String(unique), outcome: 'unique-taken' },
    ]);
    expect(await queue.redis.hget(queue.keys.job(reused!), 'name')).toBe('someone else');
    expect((await readTrashPage(queue, trash, 0, 10)).rows.map((row) => row.id).sort()).toEqual([String(reused), String(unique)].sort());

    // Once the holder has run, the key is free and the job comes back.
    await queue.complete((await queue.reserve(['default'], 'h:1', 30))!);
    expect(await queue.redis.exists(queue.keys.job(holder))).toBe(0);
    expect(await restoreFromTrash(queue, trash, [String(unique)])).toMatchObject([{ id: String(unique), outcome: 'restored' }]);
  });

  it('is bounded by count: the oldest entries go first, inside the forget', async () => {
    const queue = await openQueue();
    const ids = await failedJobs(queue, 5);
    const trash = trashOf(queue, { maxEntries: 3 });
    for (const id of ids) {
      await queue.forgetFailedIds([id], trash);
      await sleep(3); // the index orders by the millisecond: one each, so "oldest" is well defined
    }
    const page = await readTrashPage(queue, trash, 0, 10);
    expect(page.rows.map((row) => row.id)).toEqual(ids.slice(2).reverse().map(String));
    // A limit of 0 reads the counts alone, as acting on every match asks before each forget.
    expect(await readTrashPage(queue, trash, 0, 0)).toMatchObject({ rows: [], total: 3, maxEntries: 3 });
    const keys = queue.trashKeys(trash.dashboardPrefix);
    expect(await queue.redis.exists(keys.job(String(ids[0])), keys.where(String(ids[1])))).toBe(0);
  });

  it('is bounded by bytes: the oldest go first while the kept memory is over the bound, and a restore gives its bytes back', async () => {
    const queue = await openQueue();
    const big = 'x'.repeat(20_000);
    const ids: number[] = [];
    for (let n = 0; n < 4; n++) {
      ids.push(await queue.push('default', 'big', { n, big }));
      await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, 'too big');
    }
    // three such jobs fit, four do not
    const trash = trashOf(queue, { maxBytes: 70_000 });
    const keys = queue.trashKeys(trash.dashboardPrefix);
    for (const id of ids.slice(0, 3)) {
      await queue.forgetFailedIds([id], trash);
      await sleep(3);
    }
    const three = (await readTrashPage(queue, trash, 0, 10)).bytes;
    expect(three).toBeGreaterThan(60_000);
    expect(three).toBeLessThanOrEqual(70_000);
    await queue.forgetFailedIds([ids[3]!], trash);
    const page = await readTrashPage(queue, trash, 0, 10);
    expect(page.rows.map((row) => row.id)).toEqual(ids.slice(1).reverse().map(String));
    expect(page.bytes).toBeLessThanOrEqual(70_000);
    expect(await queue.redis.hexists(keys.sizes, String(ids[0]))).toBe(0);
    expect(await restoreFromTrash(queue, trash, [String(ids[1])])).toMatchObject([{ id: String(ids[1]), outcome: 'restored' }]);
    expect((await readTrashPage(queue, trash, 0, 10)).bytes).toBeLessThan(page.bytes - 20_000);
    expect(await queue.redis.hkeys(keys.sizes)).toEqual(expect.arrayContaining([String(ids[2]), String(ids[3])]));
  });

  it('is filtered by queue, place and operator, over the whole index, newest first', async () => {
    const queue = await openQueue();
    const fail = async (name: string) => {
      const id = await queue.push(name, 'doomed', {});
      await queue.fail((await queue.reserve([name], 'h:1', 30))!, 'no');
      return id;
    };
    const mail = [await fail('mail'), await fail('mail'), await fail('mail')];
    const sms = [await fail('sms'), await fail('sms')];
    for (const id of mail) await queue.forgetFailedIds([id], trashOf(queue, { who: 'alice' }));
    for (const id of sms) {
      await sleep(3);
      await queue.forgetFailedIds([id], trashOf(queue, { who: 'bob' }));
    }
    const listed = async (filter: Partial<TrashFilter>, offset = 0, limit = 10) => {
      const page = await readTrashPage(queue, trashOf(queue), offset, limit, { ...NO_TRASH_FILTER, ...filter });
      return { ids: page.rows.map((row) => Number(row.id)), total: page.total };
    };
    expect(await listed({ queue: 'sm' })).toEqual({ ids: [...sms].reverse(), total: 2 });
    expect(await listed({ who: 'ali' })).toEqual({ ids: expect.arrayContaining(mail), total: 3 });
    expect(await listed({ who: 'ali', queue: 'sms' })).toEqual({ ids: [], total: 0 });
    expect(await listed({ from: 'ready' })).toEqual({ ids: [], total: 0 });
    expect(await listed({ from: 'failed' }, 1, 2)).toEqual({ ids: [sms[0], expect.any(Number)], total: 5 });
  });

  it('forgets a job past its keep time: its keys expire and the next forget trims the index', async () => {
    const queue = await openQueue();
    const [first, second] = await failedJobs(queue, 2);
    const trash = trashOf(queue, { keepSeconds: 1 });
    await queue.forgetFailedIds([first!], trash);
    const keys = queue.trashKeys(trash.dashboardPrefix);
    await waitFor(async () => ((await queue.redis.exists(keys.job(String(first)), keys.where(String(first)))) === 0 ? true : undefined), 5000);
    expect((await readTrashPage(queue, trash, 0, 10)).rows).toEqual([]);
    await sleep(1100);
    await queue.forgetFailedIds([second!], trash);
    expect(await queue.redis.zrange(keys.index, '0', '-1')).toEqual([String(second)]);
    expect(await restoreFromTrash(queue, trash, [String(first)])).toMatchObject([{ id: String(first), outcome: 'gone' }]);
  });

  it('keeps nothing when its keep time is 0, and the bulk forget trashes too', async () => {
    const queue = await openQueue();
    const [deleted, ...bulk] = await failedJobs(queue, 3);
    const off = trashOf(queue, { keepSeconds: 0 });
    await queue.forgetFailedIds([deleted!], off);
    expect(await queue.redis.exists(queue.trashKeys(off.dashboardPrefix).index)).toBe(0);
    const trash = trashOf(queue);
    expect(await queue.forgetFailed(null, null, { all: true }, trash)).toBe(2);
    expect((await readTrashPage(queue, trash, 0, 10)).rows.map((row) => row.id).sort()).toEqual(bulk.map(String).sort());
  });

  it('a restored job is retried and run by queuelens work exactly once', async () => {
    const queue = await openQueue();
    const [id] = await failedJobs(queue, 1, 'record');
    const trash = trashOf(queue);
    await queue.forgetFailedIds([id!], trash);
    await restoreFromTrash(queue, trash, [String(id)]);
    expect((await queue.retryFailed([id!])).requeued).toEqual([id]);
    const runs: number[] = [];
    const worker = new Worker(queue, {
      queues: ['default'],
      handlers: { record: (_payload, { job }) => void runs.push(job.id) },
      concurrency: 2,
      idleMs: 20,
      workerId: 'w:1',
    });
    const running = worker.run();
    try {
      await waitFor(async () => ((await queue.stats()).length === 0 && runs.length > 0 ? true : undefined));
      await sleep(200);
    } finally {
      worker.stop();
      await running;
    }
    expect(runs).toEqual([id]);
    expect(await queue.failedCount()).toBe(0);
  });

  it('the keys census counts the trash as QueueLens’s own, not as strangers, when QUEUELENS_PREFIX lies under the driver’s', async () => {
    const queue = await openQueue();
    const trash = trashOf(queue);
    await queue.forgetFailedIds(await failedJobs(queue, 2), trash);
    const census = { own: 0, strangers: 0 };
    for (let cursor = '0', done = false; !done;) {
      const step = await staticphpKeyTable(queue).censusStep(cursor, trash.dashboardPrefix);
      census.own += step.tallies[QUEUELENS_OWN_TALLY] ?? 0;
      census.strangers += step.strangerCount;
      ({ cursor, done } = step);
    }
    // the index, the sizes and their total, and per job its hash and where it was
    expect(census).toEqual({ own: 7, strangers: 0 });
  });

  it('lists newest first by the millisecond, not by how the ids sort', async () => {
    const queue = await openQueue();
    const ids = await failedJobs(queue, 10);
    const trash = trashOf(queue);
    // 9 then 10 within one second: as text, "9" sorts after "10".
    await queue.forgetFailedIds([ids[8]!], trash);
    await sleep(5);
    await queue.forgetFailedIds([ids[9]!], trash);
    expect((await readTrashPage(queue, trash, 0, 10)).rows.map((row) => row.id)).toEqual([String(ids[9]), String(ids[8])]);
  });
});
