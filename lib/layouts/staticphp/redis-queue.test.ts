import { describe, expect, it } from 'vitest';
import { formatUtcSeconds } from '../dates';
import { QueueError } from '../../redis/errors';
import { INVALID_PAYLOAD_ERROR, PROMOTE_LIMIT, RedisQueue } from './redis-queue';
import { BATCH_SIZE } from '../../shapes/failed-jobs';
import { sleep, testSettings, testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

describe('the spec’s named tests', () => {
  it('testTheDriverRecoversWhenRedisHasForgottenItsScripts', async () => {
    const queue = await openQueue();
    await queue.push('default', 'first', {});
    await queue.redis.script('FLUSH');
    const second = await queue.push('default', 'second', {});
    await queue.redis.script('FLUSH');
    const [third, fourth] = await queue.pushMany([
      { queue: 'default', name: 'third', payload: {} },
      { queue: 'default', name: 'fourth', payload: {} },
    ]);
    await queue.redis.script('FLUSH');
    const reserved = await queue.reserve(['default'], 'host:1', 30);
    expect(second).toBe(2);
    expect([third, fourth]).toEqual([3, 4]);
    expect(reserved?.name).toBe('first');
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(4);
  });

  it('testTwoDriversOnOneServerDoNotSeeEachOther', async () => {
    const first = await openQueue();
    const second = await openQueue();
    await first.push('default', 'only-in-first', {});
    expect(await second.stats()).toEqual([]);
    expect(await second.reserve(['default'], 'host:1', 30)).toBeNull();
    expect(await second.push('default', 'only-in-second', {})).toBe(1);
    expect((await first.reserve(['default'], 'host:1', 30))?.name).toBe('only-in-first');
    expect((await second.reserve(['default'], 'host:1', 30))?.name).toBe('only-in-second');
  });

  it('testAReclaimArrivingBeforeTheDeadlineParksTheJobInstead', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'long', {});
    const held = await queue.reserve(['default'], 'patient:1', 30);
    await sleep(1100);
    // A worker with a one-second timeout finds the entry idle long enough…
    expect(await queue.reserve(['default'], 'hasty:2', 1)).toBeNull();
    // …but the holder's thirty seconds are not up: the job waits for them.
    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash.attempts).toBe('1'); // parking is not an attempt
    expect(hash.reserved_by).toBe('patient:1');
    expect(hash.entry).toBe('');
    expect(await queue.redis.zscore(queue.keys.delayed('default'), String(id))).toBe(hash.reserved_until);
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(0);
    // The patient holder can still finish its job.
    expect(await queue.complete(held!)).toBe(true);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
  });

  it('testAJobIsReclaimedOnceItsReservationRunsOut', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'abandoned', {});
    const first = await queue.reserve(['default'], 'dies:1', 1);
    await sleep(1200);
    const again = await queue.reserve(['default'], 'lives:2', 1);
    expect(again?.id).toBe(id);
    expect(again?.entry).toBe(first?.entry);
    expect(again?.attempts).toBe(2);
    expect(again?.fields.reserved_by).toBe('lives:2');
    // RESERVE says which branch handed the job out.
    expect(first?.reclaimed).toBe(false);
    expect(again?.reclaimed).toBe(true);
  });

  it('testADelayedJobWaitsForItsTime', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'later', {}, { delaySeconds: 2 });
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(0);
    expect(await queue.redis.hget(queue.keys.job(id), 'entry')).toBe('');
    expect(await queue.reserve(['default'], 'host:1', 30)).toBeNull();
    expect(await queue.stats()).toEqual([{ queue: 'default', pending: 0, delayed: 1, reserved: 0, total: 1 }]);
    await sleep(2100);
    expect((await queue.stats())[0]).toMatchObject({ pending: 1, delayed: 0 });
    const job = await queue.reserve(['default'], 'host:1', 30);
    expect(job?.id).toBe(id);
    expect(job?.fields.entry).toBe(job?.entry);
  });

  it('testHigherPriorityRunsFirstAndTiesStayInOrder', async () => {
    const queue = await openQueue();
    await queue.push('default', 'a0', {});
    await queue.push('default', 'b10', {}, { priority: 10 });
    await queue.push('default', 'c-5', {}, { priority: -5 });
    await queue.push('default', 'd0', {});
    await queue.push('default', 'e10', {}, { priority: 10 });
    await queue.push('default', 'f-5', {}, { priority: -5 });
    const order: string[] = [];
    for (let job = await queue.reserve(['default'], 'h:1', 30); job; job = await queue.reserve(['default'], 'h:1', 30)) {
      order.push(job.name);
    }
    expect(order).toEqual(['b10', 'e10', 'a0', 'd0', 'c-5', 'f-5']);
    expect(await queue.redis.zrange(queue.keys.levels('default'), 0, '-1', 'WITHSCORES')).toEqual(['-5', '-5', '0', '0', '10', '10']);
  });

  it('testAUniqueKeyCollapsesTwoPushesIntoOne', async () => {
    const queue = await openQueue();
    const first = await queue.push('default', 'import', { run: 1 }, { uniqueKey: 'nightly' });
    const second = await queue.push('default', 'import', { run: 2 }, { uniqueKey: 'nightly' });
    expect(second).toBe(first);
    expect(await queue.redis.hget(queue.keys.job(first), 'payload')).toBe('{"run":1}');
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(1);
    expect(await queue.redis.get(queue.keys.seq)).toBe('1');
    expect(await queue.redis.get(queue.keys.unique('nightly'))).toBe(String(first));

    // Completing frees the key…
    expect(await queue.complete((await queue.reserve(['default'], 'h:1', 30))!)).toBe(true);
    expect(await queue.redis.exists(queue.keys.unique('nightly'))).toBe(0);
    const third = await queue.push('default', 'import', { run: 3 }, { uniqueKey: 'nightly' });
    expect(third).toBe(2);
    // …and so does failing.
    await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, 'broken');
    expect(await queue.redis.exists(queue.keys.unique('nightly'))).toBe(0);
    expect(await queue.redis.hget(queue.keys.job(third), 'unique_key')).toBe('');
    // A key naming a hash that is gone is free.
    await queue.redis.set(queue.keys.unique('nightly'), '999');
    expect(await queue.push('default', 'import', { run: 4 }, { uniqueKey: 'nightly' })).toBe(3);
  });

  it('testRetryingAFailedJobStartsItOverOnItsOwnQueue', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', { to: 'a@example.com' }, { priority: 7, uniqueKey: 'mail-1', maxAttempts: 2 });
    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'smtp down');
    expect(await queue.failedCount()).toBe(1);

    const outcome = await queue.retryFailed([id], 5);
    expect(outcome).toEqual({ requeued: [id], notFailed: [], missing: [], queues: ['mail'] });
    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash).toMatchObject({ queue: 'mail', attempts: '0', max_attempts: '5', priority: '0', unique_key: '', reserved_by: '' });
    expect(hash).toMatchObject({ error: '', failed_at: '', last_error: '' });
    expect(await queue.failedCount()).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(1);

    // Retrying again, the job being live now, must not duplicate it.
    expect(await queue.retryFailed([id])).toEqual({ requeued: [], notFailed: [id], missing: [], queues: [] });
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(1);

    const again = await queue.reserve(['mail'], 'h:1', 30);
    expect(again).toMatchObject({ id, queue: 'mail', attempts: 1, maxAttempts: 5, priority: '0' });
  });

  it('testForgettingRejectsADateItCannotRead', async () => {
    const queue = await openQueue();
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '29/11/2026', '2026-11-29T10:00:00', '2026-11-29 25:00:00', '']) {
      await expect(queue.forgetFailed(null, bad)).rejects.toThrow(QueueError);
    }
    await queue.push('default', 'a', {});
    await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, 'x');
    expect(await queue.forgetFailed(null, '2000-01-01')).toBe(0);
    expect(await queue.forgetFailed(null, '2999-01-01 00:00:00')).toBe(1);
    expect(await queue.failedCount()).toBe(0);
  });
});

describe('push', () => {
  it('writes every field of the spec, with created_at from the server clock in UTC', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'App\\Jobs\\SendInvoice', { id: 42 }, { maxAttempts: 4 });
    const hash = await queue.redis.hgetall(queue.keys.job(id));
    const [seconds] = await queue.redis.time();
    expect(Object.keys(hash)).toEqual([
      'queue',
      'name',
      'payload',
      'attempts',
      'max_attempts',
      'priority',
      'unique_key',
      'available_at',
      'reserved_until',
      'reserved_by',
      'last_error',
      'created_at',
      'entry',
    ]);
    expect(hash).toMatchObject({
      queue: 'default',
      name: 'App\\Jobs\\SendInvoice',
      payload: '{"id":42}',
      attempts: '0',
      max_attempts: '4',
      priority: '0',
      unique_key: '',
      reserved_until: '0',
      reserved_by: '',
      last_error: '',
    });
    expect(Math.abs(Number(hash.available_at) - Number(seconds))).toBeLessThanOrEqual(1);
    expect(hash.created_at).toBe(formatUtcSeconds(Number(hash.available_at)));
    expect(hash.entry).toMatch(/^\d+-\d+$/);
    expect(await queue.redis.xrange(queue.keys.stream('default', 0), '-', '+')).toEqual([[hash.entry, ['job', String(id)]]]);
    expect(await queue.redis.smembers(queue.keys.queues)).toEqual(['default']);
  });

  it('refuses bad input with a clear QueueError and writes nothing', async () => {
    const queue = await openQueue();
    await expect(queue.push('', 'name', {})).rejects.toThrow('The queue name must be a non-empty string');
    await expect(queue.push('q', '', {})).rejects.toThrow('The job name must be a non-empty string');
    await expect(queue.push('q', 'n', {}, { priority: 1.5 })).rejects.toThrow(QueueError);
    await expect(queue.push('q', 'n', {}, { maxAttempts: 0 })).rejects.toThrow(QueueError);
    await expect(queue.push('q', 'n', {}, { delaySeconds: -1 })).rejects.toThrow(QueueError);
    await expect(queue.push('q', 'n', undefined)).rejects.toThrow('The payload cannot be written as JSON');
    expect(await queue.redis.exists(queue.keys.seq)).toBe(0);
  });

  it('stores odd queue names, HTML and non-ASCII text as data', async () => {
    const queue = await openQueue();
    const name = 'q:with spaces/and:colons<script>';
    const payload = { html: '<img src=x onerror=alert(1)>', text: 'naïve 日本語 🚀', lua: "]] .. redis.call('FLUSHALL') .. [[" };
    const id = await queue.push(name, '<b>job</b>', payload);
    const job = await queue.reserve([name], 'h:1', 30);
    expect(job?.id).toBe(id);
    expect(JSON.parse(job!.payload)).toEqual(payload);
    expect(job?.name).toBe('<b>job</b>');
    expect((await queue.stats())[0]?.queue).toBe(name);
  });
});

describe('settleAndReserve', () => {
  it('completes the job and hands out the next one, in that order', async () => {
    const queue = await openQueue();
    const [first, second] = await queue.pushMany([
      { queue: 'default', name: 'first', payload: {} },
      { queue: 'default', name: 'second', payload: {} },
    ]);
    const held = (await queue.reserve(['default'], 'host:1', 30))!;
    expect(held.id).toBe(first);
    const { settled, next } = await queue.settleAndReserve(held, { outcome: 'complete' }, ['default'], 'host:1', 30);
    expect(settled).toBe(true);
    expect(next).toMatchObject({ id: second, attempts: 1, reclaimed: false, fields: { reserved_by: 'host:1', entry: next?.entry } });
    expect(await queue.redis.hgetall(queue.keys.job(second!))).toEqual(next?.fields);
    expect(await queue.redis.exists(queue.keys.job(first!))).toBe(0);
    const last = await queue.settleAndReserve(next!, { outcome: 'complete' }, ['default'], 'host:1', 30);
    expect(last).toEqual({ settled: true, next: null });
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(0);
  });

  it('releases or fails the job as release() and fail() do, then reserves from the next queue that has a job', async () => {
    const queue = await openQueue();
    const retried = await queue.push('mail', 'retried', {}, { uniqueKey: 'once' });
    const broken = await queue.push('mail', 'broken', {}, { uniqueKey: 'twice' });
    const other = await queue.push('reports', 'other', {});
    const first = (await queue.reserve(['mail'], 'w:1', 30))!;
    const released = await queue.settleAndReserve(first, { outcome: 'release', delaySeconds: 60, error: 'smtp busy' }, ['empty', 'mail', 'reports'], 'w:1', 30);
    expect(released).toMatchObject({ settled: true, next: { id: broken } });
    const hash = await queue.redis.hgetall(queue.keys.job(retried));
    expect(hash).toMatchObject({ attempts: '1', last_error: 'smtp busy', reserved_until: '0', reserved_by: '', entry: '' });
    expect(await queue.redis.zscore(queue.keys.delayed('mail'), String(retried))).toBe(hash.available_at);

    const failed = await queue.settleAndReserve(released.next!, { outcome: 'fail', error: 'no such mailbox' }, ['mail', 'reports'], 'w:1', 30);
    expect(failed).toMatchObject({ settled: true, next: { id: other, queue: 'reports' } });
    const [row] = await queue.failedRows(1);
    expect(row).toMatchObject({ id: broken, error: 'no such mailbox', unique_key: '', entry: '', reserved_by: '' });
    expect(await queue.redis.exists(queue.keys.unique('twice'))).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(0);
  });

  it('settles nothing for a holder whose claim was reclaimed, and still hands out the next job', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'slow', {});
    const waiting = await queue.push('default', 'waiting', {});
    const stale = (await queue.reserve(['default'], 'slow:1', 1))!;
    await sleep(1100);
    const current = (await queue.reserve(['default'], 'fresh:2', 1))!;
    expect(current).toMatchObject({ id, reclaimed: true, attempts: 2 });
    const late = await queue.settleAndReserve(stale, { outcome: 'complete' }, ['default'], 'slow:1', 30);
    expect(late).toMatchObject({ settled: false, next: { id: waiting, fields: { reserved_by: 'slow:1' } } });
    // The reclaimed entry is the new holder's now: still there, still pending.
    expect(await queue.redis.hget(queue.keys.job(id), 'reserved_by')).toBe('fresh:2');
    expect(((await queue.redis.xpending(queue.keys.stream('default', 0), 'workers')) as unknown[])[0]).toBe(2);
    expect(await queue.complete(current)).toBe(true);
  });

  it('refuses a key of the wrong type before settling anything', async () => {
    const queue = await openQueue();
    await queue.push('default', 'a', {});
    const held = (await queue.reserve(['default'], 'w:1', 30))!;
    await queue.redis.set(queue.keys.levels('next'), 'not a sorted set');
    await expect(queue.settleAndReserve(held, { outcome: 'complete' }, ['next'], 'w:1', 30)).rejects.toThrow(queue.keys.levels('next'));
    expect(await queue.redis.hget(queue.keys.job(held.id), 'reserved_by')).toBe('w:1');
    expect(await queue.complete(held)).toBe(true);
  });

  it('refuses a stream or a job hash of the wrong type, found by the settle’s first command on it, and writes nothing', async () => {
    const queue = await openQueue();
    const [first, second] = await queue.pushMany([
      { queue: 'default', name: 'a', payload: {} },
      { queue: 'other', name: 'b', payload: {} },
    ]);
    const held = (await queue.reserve(['default'], 'w:1', 30))!;
    const other = (await queue.reserve(['other'], 'w:1', 30))!;
    await queue.redis.del(queue.keys.stream('default', 0));
    await queue.redis.set(queue.keys.stream('default', 0), 'not a stream');
    await expect(queue.settleAndReserve(held, { outcome: 'complete' }, ['default'], 'w:1', 30)).rejects.toThrow(queue.keys.stream('default', 0));
    await expect(queue.fail(held, 'x')).rejects.toThrow(queue.keys.stream('default', 0));
    expect(await queue.redis.hget(queue.keys.job(first!), 'reserved_by')).toBe('w:1');
    expect(await queue.failedCount()).toBe(0);

    await queue.redis.del(queue.keys.job(second!));
    await queue.redis.set(queue.keys.job(second!), 'not a hash');
    await expect(queue.release(other, 0, 'x')).rejects.toThrow(queue.keys.job(second!));
    await expect(queue.settleAndReserve(other, { outcome: 'complete' }, ['default'], 'w:1', 30)).rejects.toThrow(queue.keys.job(second!));
    expect(((await queue.redis.xpending(queue.keys.stream('other', 0), 'workers')) as unknown[])[0]).toBe(1);
    expect(await queue.redis.zcard(queue.keys.delayed('other'))).toBe(0);
  });
});

describe('reserve', () => {
  it('walks the queues in the order given', async () => {
    const queue = await openQueue();
    await queue.push('low', 'from-low', {});
    await queue.push('high', 'from-high', {});
    expect((await queue.reserve(['empty', 'high', 'low'], 'h:1', 30))?.name).toBe('from-high');
    expect((await queue.reserve(['empty', 'high', 'low'], 'h:1', 30))?.name).toBe('from-low');
    expect(await queue.reserve(['empty', 'high', 'low'], 'h:1', 30)).toBeNull();
  });

  it('cuts reserved_by to 64 characters and uses the shared consumer name', async () => {
    const queue = await openQueue();
    await queue.push('default', 'a', {});
    const job = await queue.reserve(['default'], 'w'.repeat(100), 30);
    expect(job?.fields.reserved_by).toBe('w'.repeat(64));
    const consumers = (await queue.redis.xinfo('CONSUMERS', queue.keys.stream('default', 0), 'workers')) as unknown[][];
    expect(consumers.map((consumer) => consumer[1])).toEqual(['shared']);
  });

  it('creates its group at id 0 so jobs pushed before any worker are seen', async () => {
    const queue = await openQueue({ group: 'custom-group' });
    await queue.push('default', 'early', {});
    expect(await queue.stats()).toEqual([{ queue: 'default', pending: 1, delayed: 0, reserved: 0, total: 1 }]);
    // Reporting never creates a group.
    expect(await queue.redis.xinfo('GROUPS', queue.keys.stream('default', 0))).toEqual([]);
    expect((await queue.reserve(['default'], 'h:1', 30))?.name).toBe('early');
    const groups = (await queue.redis.xinfo('GROUPS', queue.keys.stream('default', 0))) as unknown[][];
    expect(groups.map((group) => group[1])).toEqual(['custom-group']);
  });

  it('fails a job whose payload is not JSON on the spot and answers null', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'broken', {});
    await queue.redis.hset(queue.keys.job(id), 'payload', '{"unterminated');
    expect(await queue.reserve(['default'], 'h:1', 30)).toBeNull();
    const [row] = await queue.failedRows(1);
    expect(row).toMatchObject({ id, error: INVALID_PAYLOAD_ERROR, entry: '' });
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(0);
  });

  it('drops a tombstone whose hash is gone and hands out the next job', async () => {
    const queue = await openQueue();
    const gone = await queue.push('default', 'gone', {});
    await queue.push('default', 'next', {});
    await queue.redis.del(queue.keys.job(gone));
    expect((await queue.reserve(['default'], 'h:1', 30))?.name).toBe('next');
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(1);
  });

  it('drains a burst of 10,000 due jobs 50 per reserve', async () => {
    const queue = await openQueue();
    const jobs = Array.from({ length: 10_000 }, (_, n) => ({ queue: 'burst', name: 'tick', payload: { n }, options: { delaySeconds: 1 } }));
    await queue.pushMany(jobs);
    expect(await queue.redis.zcard(queue.keys.delayed('burst'))).toBe(10_000);
    await sleep(2100);
    await queue.reserve(['burst'], 'h:1', 30);
    expect(await queue.redis.zcard(queue.keys.delayed('burst'))).toBe(10_000 - PROMOTE_LIMIT);
    expect(await queue.redis.xlen(queue.keys.stream('burst', 0))).toBe(PROMOTE_LIMIT);
    await queue.reserve(['burst'], 'h:1', 30);
    expect(await queue.redis.zcard(queue.keys.delayed('burst'))).toBe(10_000 - 2 * PROMOTE_LIMIT);
    expect((await queue.stats())[0]).toEqual({ queue: 'burst', pending: 9_998, delayed: 0, reserved: 2, total: 10_000 });
  });
});

describe('complete, release and fail', () => {
  it('complete deletes the job and acknowledges its entry', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'a', {});
    const job = (await queue.reserve(['default'], 'h:1', 30))!;
    expect(await queue.complete(job)).toBe(true);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(0);
    expect(await queue.stats()).toEqual([]);
  });

  it('release keeps the attempt count, writes last_error and waits in the delayed set', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'a', {});
    const job = (await queue.reserve(['default'], 'h:1', 30))!;
    expect(await queue.release(job, 60, 'try later')).toBe(true);
    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash).toMatchObject({ attempts: '1', last_error: 'try later', reserved_until: '0', reserved_by: '', entry: '' });
    expect(await queue.redis.zscore(queue.keys.delayed('default'), String(id))).toBe(hash.available_at);
    expect(await queue.stats()).toEqual([{ queue: 'default', pending: 0, delayed: 1, reserved: 0, total: 1 }]);
  });

  it('a released job joins the back of its level', async () => {
    const queue = await openQueue();
    await queue.push('default', 'first', {});
    await queue.push('default', 'second', {});
    await queue.release((await queue.reserve(['default'], 'h:1', 30))!, 0, 'again');
    const order = [];
    for (let job = await queue.reserve(['default'], 'h:1', 30); job; job = await queue.reserve(['default'], 'h:1', 30)) order.push(job.name);
    expect(order).toEqual(['second', 'first']);
  });

  it('fail cuts error at 60000 bytes, even mid-character, and writes failed_at in UTC', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'a', {});
    const job = (await queue.reserve(['default'], 'h:1', 30))!;
    const message = 'é'.repeat(40_001); // 80,002 bytes; byte 60,000 falls inside a character
    expect(await queue.fail(job, message)).toBe(true);
    const stored = (await queue.redis.hgetBuffer(queue.keys.job(id), 'error'))!;
    const suffix = Buffer.from('\n... truncated');
    expect(stored.length).toBe(60_000 + suffix.length);
    expect(stored.subarray(0, 60_000).equals(Buffer.from(message).subarray(0, 60_000))).toBe(true);
    expect(stored.subarray(60_000).equals(suffix)).toBe(true);
    const failedAt = await queue.redis.hget(queue.keys.job(id), 'failed_at');
    const score = await queue.redis.zscore(queue.keys.failed, String(id));
    expect(failedAt).toBe(formatUtcSeconds(Number(score)));
    // last_error is release()'s; fail() leaves it alone.
    expect(await queue.redis.hget(queue.keys.job(id), 'last_error')).toBe('');
  });

  it('a holder whose claim was reclaimed cannot settle the job any more', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'a', {});
    const stale = (await queue.reserve(['default'], 'slow:1', 1))!;
    await sleep(1200);
    const current = (await queue.reserve(['default'], 'fresh:2', 1))!;
    expect(current.id).toBe(id);
    expect(await queue.complete(stale)).toBe(false);
    expect(await queue.fail(stale, 'late')).toBe(false);
    expect(await queue.release(stale, 0, 'late')).toBe(false);
    expect(await queue.redis.hget(queue.keys.job(id), 'reserved_by')).toBe('fresh:2');
    expect(await queue.redis.xlen(queue.keys.stream('default', 0))).toBe(1);
    expect(await queue.complete(current)).toBe(true);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
  });
});

describe('reports', () => {
  it('stats counts an expired claim as reserved until somebody reclaims it', async () => {
    const queue = await openQueue();
    await queue.push('default', 'a', {});
    await queue.reserve(['default'], 'h:1', 1);
    await sleep(1200);
    expect(await queue.stats()).toEqual([{ queue: 'default', pending: 0, delayed: 0, reserved: 1, total: 1 }]);
    expect(await queue.pending('default')).toBe(0);
  });

  it('stats sorts queues by name and skips those whose total is 0', async () => {
    const queue = await openQueue();
    await queue.push('zeta', 'a', {});
    await queue.push('alpha', 'a', {}, { delaySeconds: 3600 });
    await queue.push('drained', 'a', {});
    await queue.complete((await queue.reserve(['drained'], 'h:1', 30))!);
    expect(await queue.stats()).toEqual([
      { queue: 'alpha', pending: 0, delayed: 1, reserved: 0, total: 1 },
      { queue: 'zeta', pending: 1, delayed: 0, reserved: 0, total: 1 },
    ]);
    expect(await queue.pending()).toBe(1);
    expect(await queue.pending('alpha')).toBe(0);
    expect(await queue.pending('never-used')).toBe(0);
  });

  it('failedRows is newest first, floors its limit at 1, pages and skips vanished hashes', async () => {
    const queue = await openQueue();
    const ids = [];
    for (let n = 0; n < 4; n++) {
      const id = await queue.push('default', `job-${n}`, {});
      ids.push(id);
      await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, `error ${n}`);
      // Distinct scores: failures are scored by the second.
      await queue.redis.zadd(queue.keys.failed, 1_700_000_000 + n, String(id));
    }
    await queue.redis.del(queue.keys.job(ids[2]!));
    expect((await queue.failedRows(10)).map((row) => row.id)).toEqual([ids[3], ids[1], ids[0]]);
    expect((await queue.failedRows(0)).map((row) => row.id)).toEqual([ids[3]]);
    expect((await queue.failedRows(2, 2)).map((row) => row.id)).toEqual([ids[1], ids[0]]);
    expect(await queue.failedCount()).toBe(4);
  });

  it('retryFailed(null) requeues every failed job in batches and reports vanished hashes', async () => {
    const queue = await openQueue();
    const total = 450;
    await queue.pushMany(Array.from({ length: total }, (_, n) => ({ queue: n % 2 ? 'odd' : 'even', name: 'x', payload: { n } })));
    for (let job = await queue.reserve(['odd', 'even'], 'h:1', 30); job; job = await queue.reserve(['odd', 'even'], 'h:1', 30)) {
      await queue.fail(job, 'boom');
    }
    await queue.redis.del(queue.keys.job(1));
    const outcome = await queue.retryFailed(null);
    expect(outcome.requeued).toHaveLength(total - 1);
    expect(outcome.missing).toEqual([1]);
    expect(await queue.failedCount()).toBe(0);
    expect(await queue.stats()).toEqual([
      { queue: 'even', pending: 224, delayed: 0, reserved: 0, total: 224 },
      { queue: 'odd', pending: 225, delayed: 0, reserved: 0, total: 225 },
    ]);
  });

  it('forgetFailed deletes one id, never a live job, and refuses to forget everything unless asked', async () => {
    const queue = await openQueue();
    const live = await queue.push('default', 'live', {});
    const failed = await queue.push('default', 'doomed', {}, { priority: 1 });
    await queue.fail((await queue.reserve(['default'], 'h:1', 30))!, 'x');
    expect(await queue.forgetFailed(live, null)).toBe(0);
    expect(await queue.redis.exists(queue.keys.job(live))).toBe(1);
    await expect(queue.forgetFailed(null, null)).rejects.toThrow(/explicitly/);
    await expect(queue.forgetFailed(failed, '2026-01-01')).rejects.toThrow(QueueError);
    expect(await queue.failedCount()).toBe(1);
    expect(await queue.forgetFailed(null, null, { all: true })).toBe(1);
    expect(await queue.redis.exists(queue.keys.job(failed))).toBe(0);
    expect(await queue.forgetFailed(failed, null)).toBe(0);
  });
});

describe('a queue in bad shape', () => {
  it('refuses to push when queue:seq is behind the highest id, and overwrites nothing', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'precious', { keep: true });
    await queue.redis.set(queue.keys.seq, '0');
    await expect(queue.push('default', 'intruder', {})).rejects.toThrow(/already taken/);
    expect(await queue.redis.hget(queue.keys.job(id), 'name')).toBe('precious');
  });

  it('names a key of the wrong type and changes nothing', async () => {
    const queue = await openQueue();
    await queue.push('default', 'a', {});
    const job = (await queue.reserve(['default'], 'h:1', 30))!;
    await queue.redis.set(queue.keys.failed, 'not a sorted set');
    await expect(queue.fail(job, 'x')).rejects.toThrow(`The key ${queue.keys.failed} holds the wrong Redis type`);
    expect(await queue.redis.hget(queue.keys.job(job.id), 'reserved_by')).toBe('h:1');
    await expect(queue.failedCount()).rejects.toThrow(/Redis refused a queue command: WRONGTYPE/);

    await queue.redis.set(queue.keys.delayed('other'), 'oops');
    await expect(queue.push('other', 'a', {})).rejects.toThrow(queue.keys.delayed('other'));
    await expect(queue.reserve(['other'], 'h:1', 30)).rejects.toThrow(queue.keys.delayed('other'));
  });

  it('cannot be reached: connect names host and port', async () => {
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await RedisQueue.connect({ ...(await openQueue()).settings, port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueError);
    expect((error as Error).message).toMatch(new RegExp(`^Could not reach redis at 127\\.0\\.0\\.1:${port}`));
  });

  it('a server that goes away mid-session surfaces as QueueError, and the queue recovers when it is back', async () => {
    const { spawn } = await import('node:child_process');
    const net = await import('node:net');
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as import('node:net').AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const startServer = () => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    let server = startServer();
    try {
      // Not from openQueue: its cleanup would run against the killed server.
      let queue: RedisQueue | undefined;
      for (let tries = 0; !queue; tries++) {
        queue = await RedisQueue.connect(testSettings({ port })).catch(async (error: unknown) => {
          if (tries > 50) throw error;
          await sleep(100);
          return undefined;
        });
      }
      await queue.push('default', 'a', {});
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      await expect(queue.stats()).rejects.toThrow(`The queue could not reach redis: 127.0.0.1:${port} (`);
      server = startServer();
      let stats: unknown;
      for (let tries = 0; stats === undefined && tries < 50; tries++) {
        stats = await queue.stats().catch(() => sleep(100).then(() => undefined));
      }
      expect(stats).toEqual([]); // a new, empty server: nothing kept on disk
      await queue.close();
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('a server that stops answering', () => {
  it('fails a command after commandTimeoutMs with a QueueError instead of hanging', async () => {
    const { spawn } = await import('node:child_process');
    const net = await import('node:net');
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as import('node:net').AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    try {
      let queue: RedisQueue | undefined;
      for (let tries = 0; !queue; tries++) {
        queue = await RedisQueue.connect(testSettings({ port }), { commandTimeoutMs: 300 }).catch(async (error: unknown) => {
          if (tries > 50) throw error;
          await sleep(100);
          return undefined;
        });
      }
      server.kill('SIGSTOP');
      const error = await queue.stats().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(QueueError);
      expect(error).toMatchObject({
        unreachable: true,
        message: expect.stringMatching(/^The queue could not reach redis: 127\.0\.0\.1:\d+ \(Command timed out\)$/),
      });
      server.kill('SIGCONT');
      queue.redis.disconnect();
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('stats over a damaged queue', () => {
  it('reports the queue with a wrong-typed key as an error row and still counts the others', async () => {
    const queue = await openQueue();
    await queue.push('healthy', 'a', {});
    await queue.push('broken', 'a', {});
    await queue.push('broken-stream', 'a', {});
    await queue.redis.del(queue.keys.delayed('broken'));
    await queue.redis.set(queue.keys.delayed('broken'), 'not a sorted set');
    await queue.redis.del(queue.keys.stream('broken-stream', 0));
    await queue.redis.set(queue.keys.stream('broken-stream', 0), 'not a stream');
    const rows = await queue.stats();
    expect(rows.map((row) => [row.queue, row.total, row.error?.replace(/:.*/, '')])).toEqual([
      ['broken', 0, 'Redis refused a queue command'],
      ['broken-stream', 0, 'Redis refused a queue command'],
      ['healthy', 1, undefined],
    ]);
    expect(rows[0]?.error).toMatch(/WRONGTYPE/);
  });
});

describe('stats over many queues', () => {
  it('counts every queue right across the counting script’s batches, each in its own row', async () => {
    const queue = await openQueue();
    // 60 queues: more than two batches. Queue n has n ready jobs at two levels, one delayed, and one reserved when n is even.
    const names = Array.from({ length: 60 }, (_, n) => `q${String(n + 1).padStart(2, '0')}`);
    await queue.pushMany(
      names.flatMap((name, n) =>
        Array.from({ length: n + 1 }, (_, job) => ({ queue: name, name: 'a', payload: {}, options: { priority: job % 2 === 0 ? 0 : 5 } })),
      ),
    );
    for (const name of names) await queue.push(name, 'later', {}, { delaySeconds: 3600 });
    for (const [n, name] of names.entries()) if (n % 2 === 1) await queue.reserve([name], 'host:1', 60);
    expect(await queue.stats()).toEqual(
      names.map((name, n) => {
        const reserved = n % 2 === 1 ? 1 : 0;
        return { queue: name, pending: n + 1 - reserved, delayed: 1, reserved, total: n + 2 };
      }),
    );
  });
});

describe('bulk steps for the dashboard', () => {
  it('retries and forgets in bounded steps, reporting what remains', async () => {
    const queue = await openQueue();
    await queue.pushMany(Array.from({ length: 450 }, () => ({ queue: 'bulk', name: 'x', payload: {} })));
    for (let job = await queue.reserve(['bulk'], 'h:1', 30); job; job = await queue.reserve(['bulk'], 'h:1', 30)) await queue.fail(job, 'x');
    const step = await queue.retryOldestFailed(2);
    expect(step.requeued).toHaveLength(BATCH_SIZE);
    expect(step.remaining).toBe(450 - BATCH_SIZE);
    expect(await queue.countFailedBefore(null)).toBe(450 - BATCH_SIZE);
    expect(await queue.countFailedBefore('2000-01-01')).toBe(0);
    expect(await queue.forgetOldestFailed('2000-01-01')).toEqual({ forgotten: 0, remaining: 0 });
    expect(await queue.forgetOldestFailed(null)).toEqual({ forgotten: BATCH_SIZE, remaining: 450 - 2 * BATCH_SIZE });
    const stillFailed = (await queue.redis.zrange(queue.keys.failed, 0, '1')).map(Number);
    expect(await queue.forgetFailedIds([...stillFailed, ...step.requeued.slice(0, 3), 99_999])).toBe(2);
    expect(await queue.failedCount()).toBe(450 - 2 * BATCH_SIZE - 2);
  });
});
