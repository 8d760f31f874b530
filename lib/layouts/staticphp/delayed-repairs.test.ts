import { describe, expect, it } from 'vitest';
import { promoteDueStep, runDelayedJobNow } from './delayed-repairs';
import { QueueError } from '../../redis/errors';
import { PROMOTE_LIMIT, type RedisQueue } from './redis-queue';
import { testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

async function serverNow(queue: RedisQueue): Promise<number> {
  return Number((await queue.redis.time())[0]);
}

/** The job ids of a stream's entries, oldest first. */
async function streamIds(queue: RedisQueue, name: string, level: number): Promise<number[]> {
  const entries = await queue.redis.xrange(queue.keys.stream(name, level), '-', '+');
  return entries.map(([, fields]) => Number(fields[1]));
}

describe('promoteDueStep', () => {
  it('promotes at most PROMOTE_LIMIT due jobs per call, soonest due first, and leaves future ones', async () => {
    const queue = await openQueue();
    const ids = await queue.pushMany(Array.from({ length: 60 }, (_, n) => ({ queue: 'mail', name: 'send', payload: { n }, options: { delaySeconds: 3600 } })));
    const future = await queue.push('mail', 'later', {}, { delaySeconds: 3600 });
    const now = await serverNow(queue);
    // Due in the reverse order of their ids.
    for (const [index, id] of ids.entries()) await queue.redis.zadd(queue.keys.delayed('mail'), now - 1000 + (ids.length - index), String(id));
    const soonestFirst = [...ids].reverse();

    const first = await promoteDueStep(queue, 'mail');
    expect(first).toEqual({ promoted: soonestFirst.slice(0, PROMOTE_LIMIT), vanished: [], remainingDue: 10 });
    expect(await streamIds(queue, 'mail', 0)).toEqual(soonestFirst.slice(0, PROMOTE_LIMIT));
    const [entry] = (await queue.redis.xrange(queue.keys.stream('mail', 0), '-', '+', 'COUNT', 1))[0]!;
    expect(await queue.redis.hget(queue.keys.job(soonestFirst[0]!), 'entry')).toBe(entry);

    expect(await promoteDueStep(queue, 'mail')).toEqual({ promoted: soonestFirst.slice(PROMOTE_LIMIT), vanished: [], remainingDue: 0 });
    expect(await promoteDueStep(queue, 'mail')).toEqual({ promoted: [], vanished: [], remainingDue: 0 });
    expect(await queue.redis.zrange(queue.keys.delayed('mail'), 0, '-1')).toEqual([String(future)]);
    expect((await queue.stats())[0]).toEqual({ queue: 'mail', pending: 60, delayed: 1, reserved: 0, total: 61 });
    // What it promoted is what a worker gets next.
    expect((await queue.reserve(['mail'], 'h:1', 30))?.id).toBe(soonestFirst[0]);
  });

  it("registers each job's level, and drops a due id whose hash is gone", async () => {
    const queue = await openQueue();
    const high = await queue.push('q', 'high', {}, { priority: 7, delaySeconds: 3600 });
    const low = await queue.push('q', 'low', {}, { priority: -5, delaySeconds: 3600 });
    await queue.redis.zadd(queue.keys.delayed('q'), 1, String(high), 2, '999999', 3, String(low));

    expect(await promoteDueStep(queue, 'q')).toEqual({ promoted: [high, low], vanished: [999999], remainingDue: 0 });
    expect(await queue.redis.zrange(queue.keys.levels('q'), 0, '-1', 'WITHSCORES')).toEqual(['-5', '-5', '7', '7']);
    expect(await streamIds(queue, 'q', 7)).toEqual([high]);
    expect(await streamIds(queue, 'q', -5)).toEqual([low]);
    expect(await queue.redis.zcard(queue.keys.delayed('q'))).toBe(0);
    expect((await queue.reserve(['q'], 'h:1', 30))?.id).toBe(high);
  });

  it('does not duplicate a job a reserve promoted first, sequentially or at the same moment', async () => {
    const queue = await openQueue();
    const other = await openQueue({ prefix: queue.keys.prefix });
    const id = await queue.push('race', 'once', {}, { delaySeconds: 3600 });
    await queue.redis.zadd(queue.keys.delayed('race'), 1, String(id));
    expect((await queue.reserve(['race'], 'h:1', 30))?.id).toBe(id);
    expect(await promoteDueStep(queue, 'race')).toEqual({ promoted: [], vanished: [], remainingDue: 0 });
    expect(await queue.redis.xlen(queue.keys.stream('race', 0))).toBe(1);

    const ids = await queue.pushMany(Array.from({ length: 30 }, () => ({ queue: 'race', name: 'both', payload: {}, options: { delaySeconds: 3600 } })));
    for (const each of ids) await queue.redis.zadd(queue.keys.delayed('race'), 1, String(each));
    const [reserved, step] = await Promise.all([other.reserve(['race'], 'h:2', 30), promoteDueStep(queue, 'race')]);
    expect(reserved).not.toBeNull();
    // Each of the 30 is in the stream once, whichever script ran first.
    expect((await streamIds(queue, 'race', 0)).slice(1).sort((a, b) => a - b)).toEqual(ids);
    expect(step.promoted.length === 0 || step.promoted.length === 30).toBe(true);
    expect(await queue.redis.zcard(queue.keys.delayed('race'))).toBe(0);
  });

  it('refuses the whole batch when a stream it would write has the wrong type', async () => {
    const queue = await openQueue();
    const fine = await queue.push('q', 'fine', {}, { delaySeconds: 3600 });
    const blocked = await queue.push('q', 'blocked', {}, { priority: 3, delaySeconds: 3600 });
    await queue.redis.zadd(queue.keys.delayed('q'), 1, String(fine), 2, String(blocked));
    await queue.redis.set(queue.keys.stream('q', 3), 'not a stream');

    await expect(promoteDueStep(queue, 'q')).rejects.toThrow(
      new QueueError(`The key ${queue.keys.stream('q', 3)} holds the wrong Redis type for the queue layout; nothing was changed. Inspect or remove that key.`),
    );
    expect(await queue.redis.zcard(queue.keys.delayed('q'))).toBe(2);
    expect(await queue.redis.exists(queue.keys.stream('q', 0))).toBe(0);
  });
});

describe('runDelayedJobNow', () => {
  it("moves one future job into its level's stream at once, and nothing else", async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'weekly', {}, { priority: -5, delaySeconds: 7 * 86_400 });
    const other = await queue.push('mail', 'other', {}, { delaySeconds: 7 * 86_400 });
    const availableAt = await queue.redis.hget(queue.keys.job(id), 'available_at');

    const outcome = await runDelayedJobNow(queue, 'mail', id);

    expect(outcome).toMatchObject({ outcome: 'promoted', level: '-5' });
    expect(await queue.redis.hget(queue.keys.job(id), 'entry')).toBe(outcome.outcome === 'promoted' ? outcome.entry : null);
    expect(await queue.redis.hget(queue.keys.job(id), 'available_at')).toBe(availableAt);
    expect(await streamIds(queue, 'mail', -5)).toEqual([id]);
    expect(await queue.redis.zrange(queue.keys.levels('mail'), 0, '-1')).toEqual(['-5']);
    expect(await queue.redis.zrange(queue.keys.delayed('mail'), 0, '-1')).toEqual([String(other)]);
    expect((await queue.reserve(['mail'], 'h:1', 30))?.id).toBe(id);
  });

  it('answers not-delayed, and adds no entry, for a job a worker promoted meanwhile or that was never delayed', async () => {
    const queue = await openQueue();
    const id = await queue.push('race', 'once', {}, { delaySeconds: 3600 });
    await queue.redis.zadd(queue.keys.delayed('race'), 1, String(id));
    await queue.reserve(['race'], 'h:1', 30);
    expect(await runDelayedJobNow(queue, 'race', id)).toEqual({ outcome: 'not-delayed' });
    expect(await queue.redis.xlen(queue.keys.stream('race', 0))).toBe(1);

    const ready = await queue.push('race', 'ready', {});
    expect(await runDelayedJobNow(queue, 'race', ready)).toEqual({ outcome: 'not-delayed' });
    expect(await streamIds(queue, 'race', 0)).toEqual([id, ready]);
    // Named under another queue than its own delayed set: not delayed there.
    const elsewhere = await queue.push('other', 'x', {}, { delaySeconds: 3600 });
    expect(await runDelayedJobNow(queue, 'race', elsewhere)).toEqual({ outcome: 'not-delayed' });
    expect(await queue.redis.zscore(queue.keys.delayed('other'), String(elsewhere))).not.toBeNull();
  });

  it('refuses a job parked while its holder’s claim is live, naming the holder and the deadline, and moves it once the claim ended', async () => {
    const queue = await openQueue();
    const id = await queue.push('parked', 'long', {}, { delaySeconds: 3600 });
    const deadline = Number((await queue.redis.time())[0]) + 300;
    // As a reclaim arriving before the holder's deadline leaves it.
    await queue.redis.hset(queue.keys.job(id), 'attempts', '1', 'reserved_by', 'slowhost:1', 'reserved_until', String(deadline));
    await queue.redis.zadd(queue.keys.delayed('parked'), deadline, String(id));

    expect(await runDelayedJobNow(queue, 'parked', id)).toEqual({ outcome: 'held', holder: 'slowhost:1', until: deadline });
    expect(await queue.redis.zscore(queue.keys.delayed('parked'), String(id))).toBe(String(deadline));
    expect(await queue.redis.exists(queue.keys.stream('parked', 0))).toBe(0);
    expect(await queue.redis.hget(queue.keys.job(id), 'entry')).toBe('');

    await queue.redis.hset(queue.keys.job(id), 'reserved_until', String(deadline - 301));
    expect(await runDelayedJobNow(queue, 'parked', id)).toMatchObject({ outcome: 'promoted', level: '0' });
    expect(await streamIds(queue, 'parked', 0)).toEqual([id]);
  });

  it('drops an id whose hash is gone, and refuses a stream of the wrong type without changing anything', async () => {
    const queue = await openQueue();
    await queue.redis.zadd(queue.keys.delayed('q'), 2_000_000_000, '424242');
    expect(await runDelayedJobNow(queue, 'q', 424242)).toEqual({ outcome: 'gone' });
    expect(await queue.redis.exists(queue.keys.delayed('q'))).toBe(0);

    const id = await queue.push('q', 'blocked', {}, { priority: 4, delaySeconds: 3600 });
    await queue.redis.set(queue.keys.stream('q', 4), 'not a stream');
    await expect(runDelayedJobNow(queue, 'q', id)).rejects.toThrow(/wrong Redis type/);
    expect(await queue.redis.zscore(queue.keys.delayed('q'), String(id))).not.toBeNull();
  });
});
