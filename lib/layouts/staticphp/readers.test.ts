import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { RedisQueue } from './redis-queue';
import { sleep, testQueueFactory } from './test-redis';
import { readDelayedTimeline } from './delayed-timeline';
import { readFailedPage, searchFailed } from './failed';
import { readJobDetail, readJobFieldBytes } from './job-detail';
import { readQueueDetail } from './queue-detail';

const openQueue = testQueueFactory();

describe('readJobDetail', () => {
  it('follows a job through ready, reserved, overdue, delayed, failed and gone', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', { id: 12345678901234567890 }, { priority: 3 });
    const ready = await readJobDetail(queue, id);
    expect(ready?.location).toMatchObject({ state: 'ready', level: '3' });
    expect(ready?.payloadPretty).toBe('{\n  "id": 12345678901234567000\n}');
    expect(ready?.fields.map((field) => field.name)).toContain('created_at');

    const job = (await queue.reserve(['mail'], 'web-1:42', 1))!;
    expect((await readJobDetail(queue, id))?.location).toMatchObject({ state: 'reserved', reservedBy: 'web-1:42', overdue: false, deliveries: 1 });
    await sleep(1100);
    expect((await readJobDetail(queue, id))?.location).toMatchObject({ state: 'reserved', overdue: true });

    const again = (await queue.reserve(['mail'], 'web-2:7', 1))!;
    await queue.release(again, 600, 'later');
    const delayed = await readJobDetail(queue, id);
    expect(delayed?.location).toMatchObject({ state: 'delayed', parked: false });
    expect((delayed?.location as { until: number }).until).toBeGreaterThanOrEqual(delayed!.now + 599);

    await queue.redis.zadd(queue.keys.delayed('mail'), 0, String(id));
    await queue.fail((await queue.reserve(['mail'], 'web-2:7', 30))!, 'boom');
    expect((await readJobDetail(queue, id))?.location).toMatchObject({ state: 'failed' });
    expect(await queue.complete(job)).toBe(false);
    await queue.forgetFailed(id, null);
    expect(await readJobDetail(queue, id)).toBeNull();
  });

  it('shows non-UTF-8 bytes as escapes, cuts huge values and keeps them whole for download', async () => {
    const queue = await openQueue();
    const id = await queue.push('q', 'n', {});
    const huge = Buffer.alloc(10 * 1024 * 1024, 'x');
    await queue.redis.hset(queue.keys.job(id), 'payload', huge, 'last_error', Buffer.from([0x6f, 0x6b, 0xff]));
    const detail = (await readJobDetail(queue, id))!;
    const payload = detail.fields.find((field) => field.name === 'payload')!.value;
    expect(payload.truncated).toBe(true);
    expect(payload.bytes).toBe(huge.length);
    expect(payload.text.length).toBeLessThan(100_000);
    expect(detail.payloadPretty).toBeNull();
    expect(detail.fields.find((field) => field.name === 'last_error')!.value.text).toBe('ok\\xFF');
    expect((await readJobFieldBytes(queue, id, 'payload'))?.equals(huge)).toBe(true);
  });

  it('reports a hash with missing fields as found in no structure, and a key of another type as an error', async () => {
    const queue = await openQueue();
    await queue.redis.hset(queue.keys.job(7), 'name', 'half-written');
    expect(await readJobDetail(queue, 7)).toMatchObject({ fields: [{ name: 'name' }], location: { state: 'stray' } });
    await queue.redis.set(queue.keys.job(8), 'not a hash');
    await expect(readJobDetail(queue, 8)).rejects.toThrow(new QueueError(`${queue.keys.job(8)} is a string, not a job hash`));
  });
});

describe('the failed list', () => {
  async function failSome(names: string[]) {
    const queue = await openQueue();
    for (const [index, name] of names.entries()) {
      const id = await queue.push(index % 2 ? 'odd' : 'even', name, {});
      await queue.fail((await queue.reserve([index % 2 ? 'odd' : 'even'], 'h:1', 30))!, `Error ${index}: ${name} broke\ntrace`);
      await queue.redis.zadd(queue.keys.failed, 1_800_000_000 + index, String(id));
    }
    return queue;
  }

  it('pages through the whole failed set, newest first', async () => {
    const queue = await failSome(Array.from({ length: 7 }, (_, n) => `job-${n}`));
    const first = await readFailedPage(queue, 0, 3);
    expect(first.total).toBe(7);
    expect(first.rows.map((row) => row.name)).toEqual(['job-6', 'job-5', 'job-4']);
    expect(first.rows[0]).toMatchObject({
      queue: 'even',
      attempts: '1',
      maxAttempts: '3',
      errorFirstLine: 'Error 6: job-6 broke',
      failedAtSeconds: 1_800_000_006,
    });
    expect((await readFailedPage(queue, 6, 3)).rows.map((row) => row.name)).toEqual(['job-0']);
  });

  it('searches by queue, name and error text in bounded chunks', async () => {
    const queue = await failSome(['mail.send', 'report.build', 'mail.bounce', 'MAIL.digest', 'other']);
    const all = await searchFailed(queue, { name: 'mail' });
    expect(all.matches.map((row) => row.name)).toEqual(['MAIL.digest', 'mail.bounce', 'mail.send']);
    expect(all).toMatchObject({ scanned: 5, total: 5, done: true, nextOffset: 5 });

    const first = await searchFailed(queue, { name: 'mail' }, { scanLimit: 2, batchSize: 1 });
    expect(first).toMatchObject({ scanned: 2, done: false, nextOffset: 2 });
    expect(first.matches.map((row) => row.name)).toEqual(['MAIL.digest']);
    const rest = await searchFailed(queue, { name: 'mail' }, { offset: first.nextOffset });
    expect(rest.matches.map((row) => row.name)).toEqual(['mail.bounce', 'mail.send']);

    expect((await searchFailed(queue, { queue: 'odd' })).matches.map((row) => row.name)).toEqual(['MAIL.digest', 'report.build']);
    expect((await searchFailed(queue, { error: 'ERROR 4' })).matches.map((row) => row.name)).toEqual(['other']);
  });
});

describe('readQueueDetail', () => {
  it('lists levels, the next jobs in reserve order, the delayed jobs due soonest and its failed jobs', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.push('mail', 'b', {}, { priority: 10 });
    await queue.push('mail', 'c', {});
    await queue.push('mail', 'later', {}, { delaySeconds: 600 });
    await queue.push('mail', 'soon', {}, { delaySeconds: 60 });
    await queue.push('other', 'x', {});
    expect((await queue.reserve(['mail'], 'h:1', 30))?.name).toBe('b');
    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'nope');

    const detail = await readQueueDetail(queue, 'mail');
    expect(detail.counts).toEqual({ queue: 'mail', pending: 1, delayed: 2, reserved: 1, total: 4 });
    expect(detail.levelCount).toBe(2);
    expect(detail.levels).toEqual([
      { level: '10', stream: queue.keys.stream('mail', 10), length: 1, delivered: 1, hasGroup: true },
      { level: '0', stream: queue.keys.stream('mail', 0), length: 1, delivered: 0, hasGroup: true },
    ]);
    expect(detail.nextJobs.map((job) => [job.name, job.level])).toEqual([['c', '0']]);
    expect(detail.waiting).toBe(1);
    // The delayed jobs due soonest are the delayed timeline's next jobs now (the queue page reads both).
    expect((await readDelayedTimeline(queue, 'mail')).next.map((job) => job.name)).toEqual(['soon', 'later']);
    expect(detail.failed.map((row) => row.name)).toEqual(['a']);
  });

  /** Failed jobs written by hand as the driver writes them: `j:{id}` and its score in queue:failed. */
  async function addFailed(queue: RedisQueue, jobs: { id: number; queue: string; failedAt: number }[]) {
    const writes = queue.redis.pipeline();
    for (const job of jobs) {
      writes.hset(queue.keys.job(job.id), {
        queue: job.queue,
        name: `job-${job.id}`,
        attempts: '3',
        max_attempts: '3',
        failed_at: '2027-01-15 08:00:00',
        error: `Error in ${job.id}\ntrace`,
      });
      writes.zadd(queue.keys.failed, job.failedAt, String(job.id));
    }
    await writes.exec();
  }

  it("lists the newest failed jobs of its queue, newest first, among many other queues' failed jobs", async () => {
    const queue = await openQueue();
    // 600 failed jobs, one in eight of them mail's (75), the others spread over seven queues.
    await addFailed(
      queue,
      Array.from({ length: 600 }, (_, n) => ({ id: n + 1, queue: n % 8 === 0 ? 'mail' : `other-${n % 8}`, failedAt: 1_800_000_000 + n })),
    );
    // In the window: a hash that is gone and a j:{id} that is no hash; neither stops the read.
    await queue.redis.zadd(queue.keys.failed, 1_800_000_598.5, '9001', 1_800_000_599.5, '9002');
    await queue.redis.set(queue.keys.job(9002), 'not a hash');

    const detail = await readQueueDetail(queue, 'mail');
    const newestMail = Array.from({ length: 20 }, (_, n) => 593 - 8 * n);
    expect(detail.failed.map((row) => Number(row.id))).toEqual(newestMail);
    expect(detail.failed[0]).toMatchObject({
      queue: 'mail',
      name: 'job-593',
      attempts: '3',
      maxAttempts: '3',
      failedAtSeconds: 1_800_000_592,
      errorFirstLine: 'Error in 593',
    });

    expect((await readQueueDetail(queue, 'mail', { limit: 5 })).failed.map((row) => Number(row.id))).toEqual(newestMail.slice(0, 5));
  });

  it('finds failed jobs of its queue only within the window of newest failed jobs', async () => {
    const queue = await openQueue();
    await addFailed(queue, [
      { id: 1, queue: 'mail', failedAt: 1_800_000_000 },
      ...Array.from({ length: 30 }, (_, n) => ({ id: n + 2, queue: 'other', failedAt: 1_800_000_001 + n })),
      { id: 40, queue: 'mail', failedAt: 1_800_000_100 },
    ]);
    expect((await readQueueDetail(queue, 'mail', { failedScanLimit: 31 })).failed.map((row) => Number(row.id))).toEqual([40]);
    expect((await readQueueDetail(queue, 'mail', { failedScanLimit: 32 })).failed.map((row) => Number(row.id))).toEqual([40, 1]);
    expect((await readQueueDetail(queue, 'nobody')).failed).toEqual([]);
  });

  it('looks through a window longer than one script call reads, and not past it', async () => {
    const queue = await openQueue();
    // 1,200 failed jobs, newest last; mail's are the newest, the 701st newest and the 1,101st newest.
    const mailRanks = new Set([0, 700, 1100]);
    await addFailed(
      queue,
      Array.from({ length: 1200 }, (_, n) => ({ id: n + 1, queue: mailRanks.has(1199 - n) ? 'mail' : 'other', failedAt: 1_800_000_000 + n })),
    );
    expect((await readQueueDetail(queue, 'mail', { failedScanLimit: 1000 })).failed.map((row) => Number(row.id))).toEqual([1200, 500]);
    expect((await readQueueDetail(queue, 'mail', { failedScanLimit: 2000 })).failed.map((row) => Number(row.id))).toEqual([1200, 500, 100]);
  });

  it('lists at most maxLevels levels, the highest, and counts them all', async () => {
    const queue = await openQueue();
    for (const priority of [-5, 0, 3, 7, 12]) await queue.push('mail', `p${priority}`, {}, { priority });
    const detail = await readQueueDetail(queue, 'mail', { maxLevels: 3 });
    expect(detail.levels.map((level) => level.level)).toEqual(['12', '7', '3']);
    expect(detail.levelCount).toBe(5);
    // The counts stay exact: every level's stream is counted.
    expect(detail.counts.pending).toBe(5);
  });

  it('reads a queue no worker has reserved from without creating a group', async () => {
    const queue = await openQueue();
    await queue.push('fresh', 'one', {});
    await queue.push('fresh', 'two', {});
    const detail = await readQueueDetail(queue, 'fresh');
    expect(detail.levels).toEqual([{ level: '0', stream: queue.keys.stream('fresh', 0), length: 2, delivered: 0, hasGroup: false }]);
    expect(detail.nextJobs.map((job) => job.name)).toEqual(['one', 'two']);
    expect(await queue.redis.xinfo('GROUPS', queue.keys.stream('fresh', 0))).toEqual([]);
  });
});

describe('inspection while Redis is unreachable', () => {
  it('fails with a QueueError that says so, for every reader', async () => {
    const queue = await openQueue();
    await queue.push('q', 'n', {});
    // A second connection to the same keys, closed: the first one still cleans up after the test.
    const closed = await RedisQueue.connect(queue.settings);
    await closed.close();
    const readers = [readFailedPage(closed, 0, 10), searchFailed(closed, {}), readJobDetail(closed, 1), readQueueDetail(closed, 'q')];
    for (const reader of readers) {
      const error = await reader.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(QueueError);
      expect(error).toMatchObject({ unreachable: true });
    }
  });
});
