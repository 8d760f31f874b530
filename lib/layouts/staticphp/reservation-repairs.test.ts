import { describe, expect, it } from 'vitest';
import { readReservations, type ReservationRow } from './reservations';
import { QueueError } from '../../redis/errors';
import type { RedisQueue } from './redis-queue';
import type { SeenReservation } from '../../shapes/claim-repairs';
import { cleanTombstone, failReservation, releaseReservation } from './reservation-repairs';
import { sleep, testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

/** What the reservations page shows for one job, as its actions send it back. */
async function seen(queue: RedisQueue, jobId: number): Promise<SeenReservation & { row: ReservationRow }> {
  const row = (await readReservations(queue)).holders.flatMap((group) => group.rows).find((candidate) => candidate.jobId === jobId);
  if (!row) throw new Error(`job ${jobId} is not pending`);
  return {
    row,
    queue: row.queue,
    level: row.level,
    entry: row.entry,
    jobId,
    reservedBy: row.reservedBy,
    reservedUntil: row.reservedUntil,
    attempts: row.attempts ?? '',
  };
}

async function pendingCount(queue: RedisQueue, name: string, level = 0): Promise<number> {
  return Number(((await queue.redis.xpending(queue.keys.stream(name, level), queue.settings.group)) as [number])[0]);
}

describe('releaseReservation', () => {
  it('puts a held job back at the end of its level, ready now, with its attempts as they were', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { priority: 4 });
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    const other = await queue.push('mail', 'next', {}, { priority: 4 });
    const view = await seen(queue, id);

    const outcome = await releaseReservation(queue, view);

    expect(outcome).toMatchObject({ done: true, entry: expect.stringMatching(/^\d+-\d+$/) });
    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash).toMatchObject({ reserved_by: '', reserved_until: '0', attempts: '1', entry: (outcome as { entry: string }).entry });
    expect(await pendingCount(queue, 'mail', 4)).toBe(0);
    const stream = await queue.redis.xrange(queue.keys.stream('mail', 4), '-', '+');
    expect(stream.map(([, fields]) => fields[1])).toEqual([String(other), String(id)]);
    expect(stream.map(([entry]) => entry)).not.toContain(job.entry);
    expect(await queue.stats()).toEqual([{ queue: 'mail', pending: 2, delayed: 0, reserved: 0, total: 2 }]);
    // The old holder's claim is gone; the next reserve counts a second attempt.
    expect(await queue.complete(job)).toBe(false);
    expect((await queue.reserve(['mail'], 'web-2:2', 300))?.id).toBe(other);
    expect(await queue.reserve(['mail'], 'web-2:2', 300)).toMatchObject({ id, attempts: 2 });
  });

  it('changes nothing when the worker completed the job just before', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    const view = await seen(queue, id);
    expect(await queue.complete(job)).toBe(true);

    expect(await releaseReservation(queue, view)).toEqual({ done: false, reason: 'not-pending', message: expect.stringMatching(/^changed meanwhile/) });
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(0);
  });

  it('changes nothing when another worker reclaimed the overdue job just before', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    await queue.reserve(['mail'], 'web-1:1', 1);
    await sleep(1100);
    const view = await seen(queue, id);
    expect(view.row.state).toBe('overdue');
    const reclaimed = (await queue.reserve(['mail'], 'web-2:2', 1))!;
    expect(reclaimed).toMatchObject({ id, entry: view.entry, attempts: 2 });
    const before = await queue.redis.hgetall(queue.keys.job(id));

    expect(await releaseReservation(queue, view)).toMatchObject({ done: false, reason: 'claim-changed' });
    expect(await queue.redis.hgetall(queue.keys.job(id))).toEqual(before);
    expect(await pendingCount(queue, 'mail')).toBe(1);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(1);
    expect(await queue.complete(reclaimed)).toBe(true);
  });

  it('refuses a key of the wrong type before writing anything', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    await queue.reserve(['mail'], 'web-1:1', 300);
    const view = await seen(queue, id);
    await queue.redis.del(queue.keys.levels('mail'));
    await queue.redis.set(queue.keys.levels('mail'), 'oops');

    await expect(releaseReservation(queue, view)).rejects.toThrow(QueueError);
    await expect(releaseReservation(queue, view)).rejects.toThrow(queue.keys.levels('mail'));
    expect(await pendingCount(queue, 'mail')).toBe(1);
  });
});

describe('failReservation', () => {
  it('fails a held job on fail() terms: error cut at 60000 bytes, failed_at, unique key freed, in the failed set', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { uniqueKey: 'invoice-7' });
    await queue.reserve(['mail'], 'web-1:1', 300);
    const view = await seen(queue, id);
    const reason = `Stuck on a dead SMTP socket ${'é'.repeat(40_000)}`;

    expect(await failReservation(queue, view, reason)).toEqual({ done: true });

    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash).toMatchObject({ reserved_by: '', reserved_until: '0', entry: '', unique_key: '', attempts: '1' });
    expect(Buffer.byteLength(hash.error!.replace(/\n\.\.\. truncated$/, ''), 'binary')).toBeLessThanOrEqual(60_000);
    expect(hash.error!.startsWith('Stuck on a dead SMTP socket é')).toBe(true);
    expect(hash.error!.endsWith('\n... truncated')).toBe(true);
    expect(hash.failed_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).not.toBeNull();
    expect(await queue.redis.exists(queue.keys.unique('invoice-7'))).toBe(0);
    expect(await pendingCount(queue, 'mail')).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(0);
    expect(await queue.stats()).toEqual([]);
  });

  it('changes nothing when the worker released the job just before', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { uniqueKey: 'k' });
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    const view = await seen(queue, id);
    expect(await queue.release(job, 0, 'try again')).toBe(true);
    // The job is ready again and a worker holds it anew, under a new entry.
    const again = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    expect(again.entry).not.toBe(view.entry);

    expect(await failReservation(queue, view, 'stuck')).toMatchObject({ done: false, reason: 'not-pending' });
    expect(await queue.redis.zcard(queue.keys.failed)).toBe(0);
    expect(await queue.redis.get(queue.keys.unique('k'))).toBe(String(id));
    expect(await queue.redis.hget(queue.keys.job(id), 'reserved_until')).toBe(again.fields.reserved_until);
    expect(await queue.complete(again)).toBe(true);
  });

  it('changes nothing when the same holder was handed the job again by a reclaim meanwhile', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    await queue.reserve(['mail'], 'web-1:1', 1);
    await sleep(1100);
    const view = await seen(queue, id);
    // Same worker, same entry id: only attempts and the deadline tell the claims apart.
    const reclaimed = (await queue.reserve(['mail'], 'web-1:1', 1))!;
    expect(reclaimed.entry).toBe(view.entry);

    expect(await failReservation(queue, view, 'stuck')).toMatchObject({ done: false, reason: 'claim-changed' });
    expect(await queue.redis.zcard(queue.keys.failed)).toBe(0);
    expect(await queue.redis.hget(queue.keys.job(id), 'attempts')).toBe('2');
  });
});

describe('cleanTombstone', () => {
  it('acknowledges and deletes an entry whose job hash is gone', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    const keep = await queue.push('mail', 'keep', {});
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    await queue.redis.del(queue.keys.job(id));
    const row = (await readReservations(queue)).holders.flatMap((group) => group.rows).find((candidate) => candidate.entry === job.entry)!;
    expect(row.state).toBe('tombstone');

    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: row.entry, jobId: row.jobId as number | null })).toEqual({ done: true });
    expect(await pendingCount(queue, 'mail')).toBe(0);
    expect((await queue.redis.xrange(queue.keys.stream('mail', 0), '-', '+')).map(([, fields]) => fields[1])).toEqual([String(keep)]);
  });

  it('changes nothing when a reserve dropped the tombstone just before', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    const job = (await queue.reserve(['mail'], 'web-1:1', 1))!;
    await queue.redis.del(queue.keys.job(id));
    await sleep(1100);
    const keep = await queue.push('mail', 'keep', {});
    // Reclaims the tombstone (XACK + XDEL), then hands out the next job.
    expect((await queue.reserve(['mail'], 'web-2:2', 1))?.id).toBe(keep);

    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: job.entry, jobId: id })).toMatchObject({ done: false, reason: 'not-pending' });
    expect(await pendingCount(queue, 'mail')).toBe(1);
  });

  it('clears the pending record of an entry already deleted from the stream', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'send', {});
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;
    await queue.redis.xdel(queue.keys.stream('mail', 0), job.entry);

    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: job.entry, jobId: null })).toEqual({ done: true });
    expect(await pendingCount(queue, 'mail')).toBe(0);
  });

  it('leaves a job whose hash exists, and an entry no longer pending, alone', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    const job = (await queue.reserve(['mail'], 'web-1:1', 300))!;

    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: job.entry, jobId: id })).toMatchObject({ done: false, reason: 'job-exists' });
    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: job.entry, jobId: id + 1 })).toMatchObject({ done: false, reason: 'entry-changed' });
    expect(await pendingCount(queue, 'mail')).toBe(1);
    expect(await queue.complete(job)).toBe(true);
    expect(await cleanTombstone(queue, { queue: 'mail', level: '0', entry: job.entry, jobId: id })).toMatchObject({ done: false, reason: 'not-pending' });
  });
});
