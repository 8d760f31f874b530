import { describe, expect, it } from 'vitest';
import { MAIL_JOB, testMarkoFactory } from './test-layout';
import { serializeJob, signPayload } from './test-worker';

const openMarko = testMarkoFactory();

describe("marko's failed jobs", () => {
  it('lists them newest first in the failed row shape, with the class from the signed payload and the record read generically', async () => {
    const { layout, worker } = await openMarko();
    const now = await worker.now();
    const ids: string[] = [];
    for (const [i, queue] of ['mail', 'reports', 'mail'].entries()) {
      const id = await worker.push(queue, { className: `App\\Jobs\\Job${i}` });
      await worker.pop(queue, { now });
      await worker.fail(queue, id, `RuntimeException: failure ${i}\n#0 /app/src/Job.php(12)`, now - 100 + i);
      ids.push(id);
    }
    const page = await layout.failedJobs.failedPage(0, 2);
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(page.rows[0]).toMatchObject({
      queue: 'mail', name: 'App\\Jobs\\Job2', attempts: '', max_attempts: '',
      error: 'RuntimeException: failure 2\n#0 /app/src/Job.php(12)', errorFirstLine: 'RuntimeException: failure 2',
      failedAtSeconds: now - 98, recordProblem: null, retryCommand: `marko queue:retry ${ids[2]}`,
    });
    expect(Object.keys(page.rows[0]!.record!)).toEqual(['id', 'queue', 'payload', 'exception', 'failedAt']);
    expect(page.rows[0]!.failed_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await layout.failedJobs.failedRows(5, 2)).map((row) => row.id)).toEqual([ids[0]]);

    const search = await layout.failedJobs.searchFailed({ queue: 'mail', error: 'FAILURE 0' });
    expect(search).toMatchObject({ scanned: 3, total: 3, done: true, nextOffset: 3 });
    expect(search.matches.map((row) => row.id)).toEqual([ids[0]]);
    const paged = await layout.failedJobs.searchFailed({ name: 'job' }, { offset: 1, scanLimit: 1 });
    expect(paged).toMatchObject({ scanned: 1, nextOffset: 2, done: false });
    expect(paged.matches.map((row) => row.id)).toEqual([ids[1]]);
  });

  it('reads a record with a megabyte payload from its first 64 KiB and the part after its exception key', async () => {
    const { layout, redis, keys } = await openMarko();
    const payload = signPayload(serializeJob('App\\Jobs\\Import', { id: 'big', rows: 'x'.repeat(1_000_000) }));
    await redis.hset(keys.failedJobs, 'big', JSON.stringify({ id: 'big', queue: 'imports', payload, exception: 'Error: "too big"\n#0 trace', failedAt: 'x' }));
    await redis.zadd(keys.failedIndex, 1_700_000_000, 'big');
    const [row] = await layout.failedJobs.failedRows(1);
    expect(row).toMatchObject({ id: 'big', queue: 'imports', name: 'App\\Jobs\\Import', error: 'Error: "too big"\n#0 trace', record: null, failed_at: '2023-11-14 22:13:20' });
    expect(row!.recordLength).toBeGreaterThan(1_000_000);
    expect(row!.recordProblem).toBe(`The record is ${row!.recordLength} bytes; only its first 65536 were read.`);
  });

  it('shows a record that is not JSON as such, and leaves out an index entry with no record', async () => {
    const { layout, redis, keys } = await openMarko();
    await redis.hset(keys.failedJobs, 'bad', '{"id":"bad",');
    await redis.zadd(keys.failedIndex, 2, 'bad', 3, 'lost');
    const rows = await layout.failedJobs.failedRows(10);
    expect(rows.map((row) => [row.id, row.recordProblem])).toEqual([['bad', 'The record is not valid JSON.']]);
  });

  it('forgets one, the selected, those before a date, and all of them with records the index lost, each record with its entry', async () => {
    const { layout, redis, keys, worker } = await openMarko();
    const failedAt = [1_800_000_000, 1_800_086_400, 1_800_172_800, 1_800_259_200, 1_800_345_600];
    const ids: string[] = [];
    for (const at of failedAt) {
      const id = await worker.push('mail', MAIL_JOB);
      await worker.pop('mail');
      await worker.fail('mail', id, 'boom', at);
      ids.push(id);
    }
    await redis.hset(keys.failedJobs, 'unindexed', '{}');
    const failed = layout.failedJobs;
    await expect(failed.forgetFailed(null, null)).rejects.toThrow('Forgetting every failed job must be asked for explicitly');
    expect(await failed.forgetFailed(ids[0]!, null)).toBe(1);
    expect(await failed.forgetFailed(ids[0]!, null)).toBe(0);
    expect(await failed.forgetFailedIds([ids[4]!, 'never'])).toBe(1);
    expect(await failed.countFailedBefore('2027-01-17')).toBe(1);
    expect(await failed.forgetFailed(null, '2027-01-17')).toBe(1);
    expect(await redis.zrange(keys.failedIndex, 0, '-1')).toEqual([ids[2], ids[3]]);
    expect(await failed.forgetFailed(null, null, { all: true })).toBe(3);
    expect(await redis.exists(keys.failedJobs, keys.failedIndex)).toBe(0);
  });
});
