import { describe, expect, it } from 'vitest';
import type { TrashWrite } from '../../shapes/trash';
import { lineRepairOrThrow } from '../line-repairs';
import type { LineRepairs } from '../pages';
import { MAIL_JOB, present, testMarkoFactory } from './test-layout';

const openMarko = testMarkoFactory();

type Marko = Awaited<ReturnType<typeof openMarko>>;

/** The trash under the test queue's own prefix, so that the factory's cleanup deletes it too. */
function trashOf(marko: Marko, overrides: Partial<TrashWrite> = {}): TrashWrite {
  return {
    dashboardPrefix: `${marko.queue.keys.prefix}ql:`,
    keepSeconds: 3600,
    maxEntries: 100,
    maxBytes: 1 << 30,
    who: 'alice',
    via: 'dashboard',
    ...overrides,
  };
}

/** Pushes, pops and fails `count` jobs on `queue` as marko's worker does; their ids, oldest first. */
async function failJobs({ worker }: Marko, count: number, queue = 'mail'): Promise<string[]> {
  const now = await worker.now();
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = await worker.push(queue, { className: 'App\\Jobs\\SendMail' });
    await worker.pop(queue, { now });
    await worker.fail(queue, id, `RuntimeException: failure ${n}\n#0 /app/src/Job.php(12)`, now - 100 + n);
    ids.push(id);
  }
  return ids;
}

describe('the marko trash', () => {
  it('keeps a forgotten record’s bytes and restores them identical, with its index score', async () => {
    const marko = await openMarko();
    const { redis, keys, layout } = marko;
    const [id] = await failJobs(marko, 1);
    // A record with bytes that are no UTF-8 and HTML in its exception, which a re-encoding in JS would change.
    const record = Buffer.concat([(await redis.hgetBuffer(keys.failedJobs, id!))!.subarray(0, -1), Buffer.from(',"note":"\xff\xfe<b>x</b>"}', 'latin1')]);
    await redis.hset(keys.failedJobs, id!, record);
    const score = await redis.zscore(keys.failedIndex, id!);
    const trash = trashOf(marko);
    const bin = present(layout.trash);

    expect(await layout.failedJobs.forgetFailedIds([id!], trash)).toBe(1);
    expect(await redis.hexists(keys.failedJobs, id!)).toBe(0);
    expect(await redis.zscore(keys.failedIndex, id!)).toBeNull();
    const page = await bin.list(trash, 0, 10);
    expect(page.total).toBe(1);
    expect(page.rows).toMatchObject([
      { id, queue: 'mail', name: 'App\\Jobs\\SendMail', from: 'failed', score, who: 'alice', via: 'dashboard', error: expect.stringContaining('failure 0') },
    ]);
    expect(page.rows[0]!.expiresAt - page.rows[0]!.trashedAt).toBe(3600);

    expect(await bin.restore(trash, [id!])).toMatchObject([{ id, outcome: 'restored' }]);
    expect(await redis.hgetBuffer(keys.failedJobs, id!)).toEqual(record);
    expect(await redis.zscore(keys.failedIndex, id!)).toBe(score);
    const trashKeys = layout.failedJobs.trashKeys(trash.dashboardPrefix);
    expect(await redis.exists(trashKeys.index, trashKeys.job(id!), trashKeys.where(id!))).toBe(0);
    expect(await bin.restore(trash, [id!])).toMatchObject([{ id, outcome: 'gone' }]);
  });

  it('refuses a restore whose id is failed again meanwhile, and keeps the record in the trash', async () => {
    const marko = await openMarko();
    const { redis, keys, layout } = marko;
    const [taken, indexedOnly] = await failJobs(marko, 2);
    const trash = trashOf(marko);
    const bin = present(layout.trash);
    expect(await layout.failedJobs.forgetFailedIds([taken!, indexedOnly!], trash)).toBe(2);
    await redis.hset(keys.failedJobs, taken!, '{"id":"someone else"}');
    await redis.zadd(keys.failedIndex, 1, indexedOnly!);

    expect(await bin.restore(trash, [taken!, indexedOnly!])).toMatchObject([
      { id: taken, outcome: 'id-taken' },
      { id: indexedOnly, outcome: 'id-taken' },
    ]);
    expect(await redis.hget(keys.failedJobs, taken!)).toBe('{"id":"someone else"}');
    expect((await bin.list(trash, 0, 10)).rows.map((row) => row.id).sort()).toEqual([taken, indexedOnly].sort());
  });

  it('keeps a record no index entry pointed at, and restores it without one; an index entry alone is forgotten and nothing kept', async () => {
    const marko = await openMarko();
    const { redis, keys, layout } = marko;
    await redis.hset(keys.failedJobs, 'unindexed', '{"id":"unindexed","queue":"mail"}');
    await redis.zadd(keys.failedIndex, 1_700_000_000, 'dangling');
    const trash = trashOf(marko);
    const bin = present(layout.trash);

    expect(await layout.failedJobs.forgetFailed(null, null, { all: true }, trash)).toBe(2);
    expect(await redis.exists(keys.failedJobs, keys.failedIndex)).toBe(0);
    expect((await bin.list(trash, 0, 10)).rows).toMatchObject([{ id: 'unindexed', queue: 'mail', score: '' }]);
    expect(await bin.restore(trash, ['unindexed', 'dangling'])).toMatchObject([
      { id: 'unindexed', outcome: 'restored' },
      { id: 'dangling', outcome: 'gone' },
    ]);
    expect(await redis.hget(keys.failedJobs, 'unindexed')).toBe('{"id":"unindexed","queue":"mail"}');
    expect(await redis.exists(keys.failedIndex)).toBe(0);
  });

  it('deletes for good with no keep time, and keeps at most its bound, the oldest going first', async () => {
    const marko = await openMarko();
    const { redis, keys, layout } = marko;
    const ids = await failJobs(marko, 5);
    const off = trashOf(marko, { keepSeconds: 0 });
    expect(await layout.failedJobs.forgetFailedIds([ids[0]!], off)).toBe(1);
    const trashKeys = layout.failedJobs.trashKeys(off.dashboardPrefix);
    expect(await redis.exists(trashKeys.index, trashKeys.job(ids[0]!))).toBe(0);

    const bounded = trashOf(marko, { maxEntries: 2 });
    for (const id of ids.slice(1)) {
      await layout.failedJobs.forgetFailedIds([id], bounded);
      // The index orders by the millisecond, and forgets by hand are further
      // apart than that; two in one millisecond tie and evict by id instead.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(await redis.hlen(keys.failedJobs)).toBe(0);
    expect((await present(layout.trash).list(bounded, 0, 10)).rows.map((row) => row.id)).toEqual([ids[4], ids[3]]);
    expect(await redis.exists(trashKeys.job(ids[1]!), trashKeys.where(ids[1]!))).toBe(0);
  });

  it('keeps a removed job’s hash whole from ready, delayed or reserved, and restores each for the next pop to run once', async () => {
    const marko = await openMarko();
    const { redis, keys, layout, worker } = marko;
    const remove = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'remove');
    const now = await worker.now();
    const reserved = await worker.push('mail', { className: 'App\\Jobs\\Import' });
    expect((await worker.pop('mail', { now }))?.id).toBe(reserved);
    const ready = await worker.push('mail', { className: 'App\\Jobs\\SendMail' });
    const delayed = await worker.later(3600, 'mail', { className: 'App\\Jobs\\Digest' }, now);
    // Bytes that are no UTF-8, which a re-encoding in JS would change.
    await redis.hset(keys.job(ready), 'payload', Buffer.from('\xff\xfe<b>x</b>', 'latin1'));
    const hashes = new Map(await Promise.all([ready, delayed, reserved].map(async (id) => [id, await redis.hgetallBuffer(keys.job(id))] as const)));
    const dueAt = await redis.zscore(keys.delayed('mail'), delayed);
    const trash = trashOf(marko);
    const bin = present(layout.trash);

    for (const id of [ready, delayed, reserved]) expect(await remove('mail', id, trash)).toBe(true);
    expect(await redis.exists(keys.ready('mail'), keys.delayed('mail'), keys.reserved('mail'), ...[ready, delayed, reserved].map((id) => keys.job(id)))).toBe(
      0,
    );
    const rows = (await bin.list(trash, 0, 10)).rows;
    expect(rows.map(({ id, from, queue, name, score }) => ({ id, from, queue, name, score })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: ready, from: 'ready', queue: 'mail', name: '', score: '' },
        { id: delayed, from: 'delayed', queue: 'mail', name: 'App\\Jobs\\Digest', score: dueAt },
        { id: reserved, from: 'reserved', queue: 'mail', name: 'App\\Jobs\\Import', score: '' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    expect(await bin.restore(trash, [ready, delayed, reserved])).toEqual([ready, delayed, reserved].map((id) => ({ id, outcome: 'restored', queue: 'mail' })));
    for (const id of [ready, delayed, reserved]) expect(await redis.hgetallBuffer(keys.job(id))).toEqual(hashes.get(id));
    expect(await redis.zscore(keys.delayed('mail'), delayed)).toBe(dueAt);
    const later = now + 5;
    const popped = [(await worker.pop('mail', { now: later }))?.id, (await worker.pop('mail', { now: later }))?.id].sort();
    expect(popped).toEqual([ready, reserved].sort());
    expect(await worker.pop('mail', { now: later })).toBeNull();
    expect((await worker.pop('mail', { now: Number(dueAt) }))?.id).toBe(delayed);
  });

  it('refuses to restore a removed job whose id has a hash again, and deletes for good with no keep time', async () => {
    const marko = await openMarko();
    const { redis, keys, layout, worker } = marko;
    const remove = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'remove');
    const [kept, deleted] = [await worker.push('mail', MAIL_JOB), await worker.push('mail', MAIL_JOB)];
    const trash = trashOf(marko);
    expect(await remove('mail', kept, trash)).toBe(true);
    expect(await remove('mail', deleted, trashOf(marko, { keepSeconds: 0 }))).toBe(true);
    expect(await redis.exists(keys.job(deleted))).toBe(0);
    expect(await remove('mail', deleted, trash)).toBe(false);
    expect((await present(layout.trash).list(trash, 0, 10)).rows.map((row) => row.id)).toEqual([kept]);

    await redis.hset(keys.job(kept), 'queue', 'someone else');
    expect(await present(layout.trash).restore(trash, [kept, deleted])).toMatchObject([
      { id: kept, outcome: 'id-taken' },
      { id: deleted, outcome: 'gone' },
    ]);
    expect(await redis.hgetall(keys.job(kept))).toEqual({ queue: 'someone else' });
    expect(await redis.zcard(keys.delayed('mail'))).toBe(0);
  });
});
