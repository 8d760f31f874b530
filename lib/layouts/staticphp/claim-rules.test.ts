/**
 * The claim rules QueueLens shares with the PHP RESERVE, REQUEUE and settle
 * scripts, on layouts as the PHP driver leaves them (the states are written
 * here field by field, as ../shared/fixtures' rich-layout shows them).
 */
import { describe, expect, it } from 'vitest';
import type { ReservedJob } from './job';
import type { RedisQueue } from './redis-queue';
import { releaseReservation } from './reservation-repairs';
import { readFixtureJson } from './test-fixtures';
import { sleep, testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

async function serverNow(queue: RedisQueue): Promise<number> {
  return Number((await queue.redis.time())[0]);
}

async function pendingCount(queue: RedisQueue, name: string, level: number): Promise<number> {
  const summary = await queue.redis.xpending(queue.keys.stream(name, level), queue.settings.group).catch(() => [0]);
  return Number((summary as [number])[0]);
}

/**
 * What PHP's retry of a live job leaves when it lands in the same
 * millisecond as the job's own entry: a second entry, with the same id, in
 * level 0's stream, and the hash (priority 0, attempts 0) pointing at it.
 */
async function retriedLiveInAnotherLevel(queue: RedisQueue, name: string, id: number, entry: string): Promise<void> {
  await queue.redis.xadd(queue.keys.stream(name, 0), entry, 'job', String(id));
  await queue.redis.zadd(queue.keys.levels(name), 0, '0');
  await queue.redis.hset(queue.keys.job(id), 'priority', '0', 'attempts', '0', 'entry', entry);
}

describe('a parked job never runs while its holder’s claim is live', () => {
  it('a fresh entry whose hash carries a live reserved_until is parked at that deadline, not claimed', async () => {
    const queue = await openQueue();
    const id = await queue.push('parked', 'long', {});
    const deadline = (await serverNow(queue)) + 300;
    // As "Run now" on a parked job used to leave it: in its stream, its holder's claim live.
    await queue.redis.hset(queue.keys.job(id), 'attempts', '1', 'reserved_by', 'slowhost:1', 'reserved_until', String(deadline));

    expect(await queue.reserve(['parked'], 'hasty:2', 1)).toBeNull();

    const hash = await queue.redis.hgetall(queue.keys.job(id));
    expect(hash).toMatchObject({ attempts: '1', reserved_by: 'slowhost:1', reserved_until: String(deadline), entry: '' });
    expect(await queue.redis.zscore(queue.keys.delayed('parked'), String(id))).toBe(String(deadline));
    expect(await queue.redis.xlen(queue.keys.stream('parked', 0))).toBe(0);
    expect(await pendingCount(queue, 'parked', 0)).toBe(0);
  });

  it('a fresh entry whose holder’s deadline has passed is claimed, and says it was read fresh', async () => {
    const queue = await openQueue();
    const id = await queue.push('parked', 'long', {});
    const past = (await serverNow(queue)) - 1;
    await queue.redis.hset(queue.keys.job(id), 'attempts', '1', 'reserved_by', 'slowhost:1', 'reserved_until', String(past));
    expect(await queue.reserve(['parked'], 'w:2', 30)).toMatchObject({ id, attempts: 2, reclaimed: false, fields: { reserved_by: 'w:2' } });
  });
});

describe('retry writes what PHP’s REQUEUE writes', () => {
  it('leaves the fields as rich-layout’s job 15, put back by retryFailed(15, 3), has them', async () => {
    const fixture = readFixtureJson<{
      prefix: string;
      keys: { key: string; value: [{ utf8: string }, { utf8: string }][] }[];
    }>('staticphp/rich-layout.json');
    const php = Object.fromEntries(fixture.keys.find(({ key }) => key === `${fixture.prefix}j:15`)!.value.map(([field, value]) => [field.utf8, value.utf8]));

    const queue = await openQueue();
    const id = await queue.push('failing', 'App\\Jobs\\Fails', { f: 5 }, { maxAttempts: 3 });
    await queue.release((await queue.reserve(['failing'], 'w:1', 30))!, 0, 'the first attempt broke');
    await queue.fail((await queue.reserve(['failing'], 'w:1', 30))!, 'the second attempt broke for good');
    expect(await queue.retryFailed([id], 3)).toEqual({ requeued: [id], notFailed: [], missing: [], queues: ['failing'] });

    const ours = await queue.redis.hgetall(queue.keys.job(id));
    expect(Object.keys(ours).sort()).toEqual(Object.keys(php).sort());
    const times = new Set(['available_at', 'created_at', 'entry']);
    const unchanging = (hash: Record<string, string>) => Object.fromEntries(Object.entries(hash).filter(([field]) => !times.has(field)));
    expect(unchanging(ours)).toEqual(unchanging(php));
    expect(ours).toMatchObject({ last_error: '', error: '', failed_at: '', max_attempts: '3' });
  });
});

describe('stale-entry detection tells two streams apart', () => {
  it('reserve drops the entry of that id in a stream that is not the job’s own, and claims the job’s own', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { priority: 5 });
    const entry = (await queue.redis.hget(queue.keys.job(id), 'entry'))!;
    await retriedLiveInAnotherLevel(queue, 'mail', id, entry);

    const job = (await queue.reserve(['mail'], 'w:1', 30))!;

    expect(job).toMatchObject({ id, entry, priority: '0', attempts: 1 });
    expect(await queue.redis.xlen(queue.keys.stream('mail', 5))).toBe(0);
    expect(await pendingCount(queue, 'mail', 5)).toBe(0);
    expect(await pendingCount(queue, 'mail', 0)).toBe(1);
    expect(await queue.complete(job)).toBe(true);
    expect(await pendingCount(queue, 'mail', 0)).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(0);
  });

  it('a holder that lost its claim acknowledges its own entry when the job moved to the same id in another stream', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { priority: 5 });
    const held = (await queue.reserve(['mail'], 'w:1', 30))!;
    await retriedLiveInAnotherLevel(queue, 'mail', id, held.entry);
    await queue.redis.hset(queue.keys.job(id), 'reserved_by', '', 'reserved_until', '0');

    expect(await queue.release(held, 0, 'too late')).toBe(false);

    expect(await pendingCount(queue, 'mail', 5)).toBe(0);
    expect(await queue.redis.xlen(queue.keys.stream('mail', 5))).toBe(0);
    // The job's own entry, in level 0, is untouched and waits to be read.
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(1);
    expect(await queue.reserve(['mail'], 'w:2', 30)).toMatchObject({ id, entry: held.entry, priority: '0' });
  });

  it('an operator’s release of a reservation changes nothing once the job’s entry id is another stream’s', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {}, { priority: 5 });
    const held = (await queue.reserve(['mail'], 'w:1', 300))!;
    const seen = {
      queue: 'mail',
      level: '5',
      entry: held.entry,
      jobId: id,
      reservedBy: held.fields.reserved_by,
      reservedUntil: held.fields.reserved_until,
      attempts: held.fields.attempts,
    };
    await queue.redis.xadd(queue.keys.stream('mail', 0), held.entry, 'job', String(id));
    await queue.redis.hset(queue.keys.job(id), 'priority', '0');

    expect(await releaseReservation(queue, seen)).toMatchObject({ done: false, reason: 'claim-changed' });
    expect(await pendingCount(queue, 'mail', 5)).toBe(1);
    expect(await queue.redis.hget(queue.keys.job(id), 'entry')).toBe(held.entry);
  });
});

describe('a claim ended by an operator stays ended', () => {
  /**
   * The claim a worker holds after an operator released its reservation and
   * a worker of the same id (one process's slots share it) took the job
   * again within the same second: reserved_by and reserved_until (whole
   * seconds) are the ones the first claim wrote too. Tried until both claims
   * land in one second.
   */
  async function claimedTwiceInOneSecond(queue: RedisQueue): Promise<[ReservedJob, ReservedJob]> {
    for (let tries = 0; tries < 5; tries += 1) {
      const id = await queue.push('mail', 'send', {});
      const [, micros] = await queue.redis.time();
      await sleep(1000 - Number(micros) / 1000 + 10);
      const first = (await queue.reserve(['mail'], 'host:1', 60))!;
      const released = await releaseReservation(queue, {
        queue: 'mail',
        level: '0',
        entry: first.entry,
        jobId: id,
        reservedBy: first.fields.reserved_by,
        reservedUntil: first.fields.reserved_until,
        attempts: first.fields.attempts,
      });
      expect(released).toMatchObject({ done: true });
      const second = (await queue.reserve(['mail'], 'host:1', 60))!;
      expect(second.id).toBe(id);
      if (second.fields.reserved_until === first.fields.reserved_until) return [first, second];
      expect(await queue.complete(second)).toBe(true);
    }
    throw new Error('no two claims landed in one second in 5 tries');
  }

  it('the first holder’s settle changes nothing of the claim its worker id made again in the same second', async () => {
    const queue = await openQueue();
    const [first, second] = await claimedTwiceInOneSecond(queue);

    // Before: the release stood, the job went to the delayed set due now,
    // and a third worker was handed it while the second claim was live.
    expect(await queue.release(first, 0, 'the operator ended this claim')).toBe(false);
    expect(await queue.reserve(['mail'], 'host:2', 60)).toBeNull();
    expect(await queue.complete(first)).toBe(false);
    expect(await queue.redis.hget(queue.keys.job(second.id), 'entry')).toBe(second.entry);
    expect(await queue.complete(second)).toBe(true);
    expect(await queue.redis.exists(queue.keys.job(second.id))).toBe(0);
    expect(await pendingCount(queue, 'mail', 0)).toBe(0);
  });

  it('reclaims only once an entry among the first ten pending has been idle past the timeout, and drops an entry deleted by hand then', async () => {
    const queue = await openQueue();
    const ids = await queue.pushMany(Array.from({ length: 12 }, (_, n) => ({ queue: 'mail', name: `job.${n}`, payload: {} })));
    const held: ReservedJob[] = [];
    for (let n = 0; n < 11; n++) held.push((await queue.reserve(['mail'], `host:${n}`, 60))!);
    // The oldest pending entry, deleted from the stream by hand while held.
    await queue.redis.xdel(queue.keys.stream('mail', 0), held[0]!.entry);
    // Nothing has been idle for a second: the next job is read fresh, and the deleted entry stays pending until it has.
    const fresh = (await queue.reserve(['mail'], 'quick:1', 1))!;
    expect(fresh.id).toBe(ids[11]);
    expect(await pendingCount(queue, 'mail', 0)).toBe(12);

    await sleep(1100);
    // Now XAUTOCLAIM runs. Dropping the deleted entry uses up its COUNT 1 (Redis counts it as an answer)…
    expect(await queue.reserve(['mail'], 'quick:2', 1)).toBeNull();
    expect(await pendingCount(queue, 'mail', 0)).toBe(11);
    // …and the next reclaims the oldest held entry, whose claim has a minute to go: the job is parked at its deadline.
    expect(await queue.reserve(['mail'], 'quick:3', 1)).toBeNull();
    expect(await pendingCount(queue, 'mail', 0)).toBe(10);
    expect(await queue.redis.zscore(queue.keys.delayed('mail'), String(ids[1]))).toBe(held[1]!.fields.reserved_until);
  });

  it('a holder whose job was parked and promoted meanwhile still settles it', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    const held = (await queue.reserve(['mail'], 'host:1', 60))!;
    // A reclaim that met the live deadline parked the job, and the deadline's promotion (here by hand) gave it a new entry no worker was handed.
    await queue.redis.xack(queue.keys.stream('mail', 0), queue.settings.group, held.entry);
    await queue.redis.xdel(queue.keys.stream('mail', 0), held.entry);
    const promoted = await queue.redis.xadd(queue.keys.stream('mail', 0), '*', 'job', String(id));
    await queue.redis.hset(queue.keys.job(id), 'entry', promoted!);

    expect(await queue.complete(held)).toBe(true);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
  });
});
