import { describe, expect, it } from 'vitest';
import type { FailedPagesReader, JobSnapshotReader } from '../pages';
import { FAILED_BATCH } from './failed';
import { MARKO_FAILED, MARKO_GONE } from './pages';
import { MAIL_JOB, present, testMarkoFactory } from './test-layout';
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
      queue: 'mail',
      name: 'App\\Jobs\\Job2',
      attempts: '',
      max_attempts: '',
      error: 'RuntimeException: failure 2\n#0 /app/src/Job.php(12)',
      errorFirstLine: 'RuntimeException: failure 2',
      failedAtSeconds: now - 98,
      recordProblem: null,
      retryCommand: `marko queue:retry ${ids[2]}`,
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
    expect(row).toMatchObject({
      id: 'big',
      queue: 'imports',
      name: 'App\\Jobs\\Import',
      error: 'Error: "too big"\n#0 trace',
      record: null,
      failed_at: '2023-11-14 22:13:20',
    });
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

  it('forgets every one in bounded steps the page repeats, records the index lost last, and counts what is left', async () => {
    const { layout, redis, keys, worker } = await openMarko();
    const now = await worker.now();
    // A batch and one more indexed, and one record besides that the index lost.
    for (let i = 0; i < FAILED_BATCH + 2; i++) await redis.hset(keys.failedJobs, `f${i}`, '{}');
    await redis.zadd(keys.failedIndex, ...Array.from({ length: FAILED_BATCH + 1 }, (_, i) => [now - i, `f${i}`]).flat());
    const failed = layout.failedJobs;
    expect(await failed.forgetOldestFailed(null)).toEqual({ forgotten: FAILED_BATCH, remaining: 2 });
    expect(await redis.zrange(keys.failedIndex, '0', '-1')).toEqual(['f0']);
    expect(await failed.forgetOldestFailed(null)).toEqual({ forgotten: 2, remaining: 0 });
    expect(await failed.forgetOldestFailed(null)).toEqual({ forgotten: 0, remaining: 0 });
    expect(await redis.exists(keys.failedJobs, keys.failedIndex)).toBe(0);
  });

  it('gives the failed page its rows with their retry commands, and its queues', async () => {
    const { layout, worker } = await openMarko({ queues: ['mail', 'sms'] });
    const id = await worker.push('mail', MAIL_JOB);
    await worker.pop('mail');
    await worker.fail('mail', id, 'RuntimeException: no mailer\n#0 trace');
    const pages = present<FailedPagesReader>(layout.failedPages);
    const page = await pages.page(0, 50);
    expect(page).toEqual({
      total: 1,
      offset: 0,
      limit: 50,
      rows: [
        {
          id,
          queue: 'mail',
          name: MAIL_JOB.className,
          attempts: '',
          maxAttempts: '',
          failedAt: expect.stringMatching(/^\d{4}-/),
          failedAtSeconds: expect.any(Number),
          errorFirstLine: 'RuntimeException: no mailer',
          retryCommand: `marko queue:retry ${id}`,
          exact: true,
        },
      ],
    });
    expect((await pages.search({ error: 'mailer' }, { offset: 0, scanLimit: 10 })).matches).toEqual(page.rows);
    expect((await pages.search({ queue: 'sms' }, { offset: 0, scanLimit: 10 })).matches).toEqual([]);
    expect(await pages.queueNames(1000)).toEqual(['mail', 'sms']);
  });

  it('says on a failed job’s page that it failed, when, its exception, its payload decoded, and the command that retries it', async () => {
    const { layout, worker } = await openMarko();
    const id = await worker.push('mail', MAIL_JOB);
    await worker.pop('mail');
    const now = await worker.now();
    await worker.fail('mail', id, 'boom\n#0 Mailer.php(12)', now);
    const snapshot = await present<JobSnapshotReader>(layout.jobSnapshot).read(id);
    expect(snapshot).toMatchObject({
      id,
      queue: 'mail',
      name: MAIL_JOB.className,
      status: 'failed',
      statusText: MARKO_FAILED,
      message: { problem: null, data: { kind: 'php' } },
      failed: { at: now, retry: { here: false, command: `marko queue:retry ${id}` }, error: 'boom\n#0 Mailer.php(12)' },
    });
    expect(JSON.stringify(snapshot)).toContain('a@example.com');
    await layout.failedJobs.forgetFailedIds([id]);
    expect(await present<JobSnapshotReader>(layout.jobSnapshot).read(id)).toMatchObject({ status: 'gone', statusText: MARKO_GONE });
  });
});
