import { describe, expect, it } from 'vitest';
import { isAbsent, retriesFailedJobs } from '../adapter';
import { readFailedQueues } from './scripts';
import { readMarkoCounts } from './counts';
import { markoLayout } from './layout';
import { MAIL_JOB as MAIL, testMarkoFactory } from './test-layout';
import { serializeJob, signPayload } from './test-worker';
import { queuelens, queuelensWith } from '../../../bin/test-cli';

const openMarko = testMarkoFactory();

describe('the marko layout, on keys written as its README describes them', () => {
  it('counts ready, due and future delayed, live and expired reservations and failed jobs per queue, by the server clock', async () => {
    const { redis, keys, layout, worker } = await openMarko();
    const now = await worker.now();
    const hash = (id: string, queue: string) =>
      redis.hset(keys.job(id), 'queue', queue, 'payload', signPayload(serializeJob('App\\Jobs\\X', { id })), 'attempts', 0);
    for (const id of ['r1', 'r2', 'd1', 'd2', 'v1', 'v2']) await hash(id, 'mail');
    await redis
      .multi()
      .rpush(keys.ready('mail'), 'r1', 'r2')
      .rpush(keys.notify('mail'), '1', '1', '1')
      .zadd(keys.delayed('mail'), now - 5, 'd1', now + 600, 'd2')
      .zadd(keys.reserved('mail'), now - 1, 'v1', now + 80, 'v2')
      // A queue named after a suffix: its ready list is a list, so it is a queue of its own.
      .rpush(keys.ready('odd:delayed'), 'x1')
      .hset(
        keys.failedJobs,
        'f1',
        JSON.stringify({ id: 'f1', queue: 'mail', payload: '', exception: 'boom' }),
        'f2',
        JSON.stringify({ id: 'f2', queue: 'gone', payload: '', exception: 'boom' }),
      )
      .zadd(keys.failedIndex, now - 100, 'f1', now - 50, 'f2')
      .exec();

    const counts = await layout.counts();
    expect(counts.failed).toBe(2);
    expect(counts.failedByQueue).toEqual({ looked: 2, total: 2, complete: true });
    expect(counts.discovery).toEqual({ names: ['mail', 'odd:delayed'], complete: true });
    // 'gone' has only a failed record left: it is listed, with nothing else.
    expect(counts.queues.map((row) => row.queue)).toEqual(['gone', 'mail', 'odd:delayed']);
    expect(counts.queues[1]).toEqual({
      queue: 'mail',
      pending: 3,
      delayed: 1,
      reserved: 2,
      total: 6,
      statistics: { ready: 2, size: 3, delayed: 2, reserved: 2, failed: 1 },
      dueDelayed: 1,
      expiredReserved: 1,
      notifyTokens: 3,
    });
    expect(counts.queues[0]).toMatchObject({ queue: 'gone', total: 0, statistics: { failed: 1 } });
    expect(counts.queues[2]).toMatchObject({ queue: 'odd:delayed', pending: 1, total: 1 });
  });

  it('reads only the named queues when the connection names them, and reports a key of the wrong type without stopping', async () => {
    const { redis, keys, prefix, queue } = await openMarko();
    await redis.set(keys.ready('broken'), 'not a list');
    await redis.rpush(keys.ready('fine'), 'a');
    await redis.rpush(keys.ready('unnamed'), 'b');
    const { queues, discovery } = await markoLayout(queue, { prefix, retryAfter: null, queues: ['broken', 'fine'] }).counts();
    expect(discovery).toBeNull();
    expect(queues.map((row) => row.queue)).toEqual(['broken', 'fine']);
    expect(queues[0]).toMatchObject({ total: 0, error: expect.stringContaining(keys.ready('broken')) });
    expect(queues[1]).toMatchObject({ pending: 1, total: 1 });
  });

  it('counts failed jobs per queue from a bounded window of the newest, a big record by its queue key alone', async () => {
    const { redis, keys, queue } = await openMarko();
    const big = JSON.stringify({
      id: 'big',
      queue: 'imports',
      payload: signPayload(serializeJob('App\\Jobs\\Import', { rows: 'x'.repeat(200_000) })),
      exception: 'e',
    });
    await redis.hset(keys.failedJobs, 'big', big, 'old', JSON.stringify({ id: 'old', queue: 'mail' }), 'bad', 'not json');
    await redis.zadd(keys.failedIndex, 3, 'big', 2, 'bad', 1, 'old', 0, 'missing');
    const all = await readMarkoCounts(queue, keys, ['imports', 'mail']);
    expect(all.queues.map((row) => [row.queue, row.statistics.failed])).toEqual([
      ['imports', 1],
      ['mail', 1],
    ]);
    expect(all.failedByQueue).toEqual({ looked: 4, total: 4, complete: true });
    const newest = await readMarkoCounts(queue, keys, ['imports', 'mail'], 2);
    expect(newest.queues.map((row) => [row.queue, row.statistics.failed])).toEqual([
      ['imports', 1],
      ['mail', 0],
    ]);
    expect(newest.failedByQueue).toEqual({ looked: 2, total: 4, complete: false });
  });

  it('reads the failed records for their queues about 512 KiB a script call, whatever their count, and counts every one', async () => {
    const { redis, keys, queue } = await openMarko();
    const record = (id: string, name: string) => JSON.stringify({ id, queue: name, payload: 'x'.repeat(200_000), exception: 'e' });
    for (let i = 0; i < 7; i++) {
      await redis.hset(keys.failedJobs, `f${i}`, record(`f${i}`, i % 2 === 0 ? 'imports' : 'mail'));
      await redis.zadd(keys.failedIndex, i, `f${i}`);
    }
    // A call stops after the record that passes the budget: the third of 200 KB.
    const call = await readFailedQueues.run(redis, {
      failedJobs: keys.failedJobs,
      failedIndex: keys.failedIndex,
      start: 0,
      count: 250,
      byteBudget: 512 * 1024,
    });
    expect(call.looked).toBe(3);
    const counts = await readMarkoCounts(queue, keys, ['imports', 'mail']);
    expect(counts.queues.map((row) => [row.queue, row.statistics.failed])).toEqual([
      ['imports', 4],
      ['mail', 3],
    ]);
    expect(counts.failedByQueue).toEqual({ looked: 7, total: 7, complete: true });
  });

  it('follows a worker through push, later, pop, crash, release and fail', async () => {
    const { layout, worker } = await openMarko();
    const now = await worker.now();
    const first = await worker.push('mail', MAIL);
    await worker.push('mail', MAIL);
    await worker.later(60, 'mail', MAIL, now);
    const row = async () => (await layout.counts()).queues.find((q) => q.queue === 'mail')!;
    expect((await row()).statistics).toEqual({ ready: 2, size: 2, delayed: 1, reserved: 0, failed: 0 });

    const popped = await worker.pop('mail', { now });
    expect(popped).toMatchObject({ id: first, attempts: 0 });
    expect(await row()).toMatchObject({ statistics: { ready: 1, reserved: 1 }, expiredReserved: 0 });

    // The worker releases it with a backoff, then the second job fails for good.
    expect(await worker.release('mail', { ...MAIL, ...popped! }, 30, now)).toBe(true);
    const second = (await worker.pop('mail', { now }))!;
    await worker.fail('mail', second.id, 'RuntimeException: SMTP down\n#0 trace', now);
    expect(await row()).toMatchObject({ statistics: { ready: 0, delayed: 2, reserved: 0, failed: 1 }, total: 2 });

    // 90 seconds on, a pop moves every due delayed job to the ready list and reserves the first.
    const later = (await worker.pop('mail', { now: now + 90 }))!;
    expect(later.id).toBe(first);
    expect(later.attempts).toBe(1);
    expect(await row()).toMatchObject({ statistics: { ready: 1, delayed: 0, reserved: 1, failed: 1 } });
  });

  it('says what it lacks: no runner, and retry only as the marko command', async () => {
    const { layout } = await openMarko();
    expect(isAbsent(layout.runner) && layout.runner.absent).toBe(
      'marko jobs are signed PHP objects: QueueLens reads and repairs them but does not push or run them',
    );
    expect(retriesFailedJobs(layout.failedJobs)).toBe(false);
    expect(layout.failedJobs.retryFailed.commandsFor(['7f3c', "it's"])).toEqual(['marko queue:retry 7f3c', "marko queue:retry 'it'\\''s'"]);
    expect(layout.failedJobs.retryFailed.commandsFor(null)).toEqual(['marko queue:retry --all']);
  });
});

describe('queuelens on a marko prefix', () => {
  it('prints counts, failed jobs, forgets one, refuses retry with the command to run, and checks the layout', async () => {
    const { worker, prefix, keys, redis } = await openMarko();
    await worker.push('mail', MAIL);
    const failing = await worker.push('mail', MAIL);
    await worker.pop('mail');
    const popped = (await worker.pop('mail'))!;
    expect(popped.id).toBe(failing);
    await worker.fail('mail', failing, 'RuntimeException: SMTP down');
    const connection = ['--layout', 'marko', '--prefix', prefix];

    const status = await queuelens('status', '--json', ...connection);
    expect(status.code).toBe(0);
    const counts = JSON.parse(status.stdout) as { queues: { queue: string; statistics: unknown }[]; failed: number; discovery: unknown };
    expect(counts.failed).toBe(1);
    expect(counts.discovery).toEqual({ names: ['mail'], complete: true });
    expect(counts.queues).toEqual([expect.objectContaining({ queue: 'mail', statistics: { ready: 0, size: 0, delayed: 0, reserved: 1, failed: 1 } })]);

    const failed = await queuelens('failed', '--json', ...connection);
    expect(JSON.parse(failed.stdout)).toEqual([
      expect.objectContaining({ id: failing, queue: 'mail', name: 'App\\Jobs\\SendMail', error: 'RuntimeException: SMTP down' }),
    ]);

    // As PHP's failedRows, the limit floors at 1: --limit 0 answers with the newest failed job.
    const newest = await queuelens('failed', '--json', '--limit', '0', ...connection);
    expect(newest).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(newest.stdout)).toEqual([expect.objectContaining({ id: failing })]);

    const retry = await queuelens('retry', '--id', failing, ...connection);
    expect(retry.code).toBe(2);
    expect(retry.stdout).toBe(`marko queue:retry ${failing}\n`);
    expect(retry.stderr).toMatch(/^queuelens: retry is not available on this layout: a failed marko job is retried by marko itself/);

    // The forgotten job's trash under the test's own prefix, so that its cleanup deletes it too.
    const ownTrash = { ...process.env, QUEUELENS_PREFIX: `${prefix}ql:` };
    const forgetAll = await queuelensWith(ownTrash, 'forget', '--before', '2000-01-01', ...connection);
    expect(forgetAll.stdout).toBe('Forgot 0 failed jobs\n');
    const forget = await queuelensWith(ownTrash, 'forget', '--id', failing, ...connection);
    expect(forget).toMatchObject({ code: 0, stdout: 'Forgot 1 failed job\n' });
    expect(await redis.exists(keys.failedJobs, keys.failedIndex)).toBe(0);

    const healthy = await queuelens('doctor', '--json', ...connection);
    expect(healthy).toMatchObject({ code: 0 });
    expect(JSON.parse(healthy.stdout)).toEqual({ findings: [] });
    await redis.zadd(keys.failedIndex, 1, 'lost');
    const broken = await queuelens('doctor', '--repair', ...connection);
    expect(broken.code).toBe(0);
    expect(broken.stdout).toBe(
      `repaired  index-without-record ${keys.failedIndex} lost  Remove lost from ${keys.failedIndex} (only if its record is still missing).\n`,
    );
    expect(await redis.exists(keys.failedIndex)).toBe(0);
    // Nine CLI processes, each compiling the CLI (tsx): 28 s alone on a loaded 2-core machine, as bin/cli.test.ts allows.
  }, 90_000);
});
