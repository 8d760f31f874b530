import { describe, expect, it } from 'vitest';
import type { RedisQueue } from '../layouts/staticphp/redis-queue';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { SharedReads } from './shared-reads';

const openQueue = testQueueFactory();

/** A read of Redis that counts itself: each call increments a key of the test's own, and returns the count so far. */
function countingRead(queue: RedisQueue, name = 'reads') {
  const key = `${queue.keys.prefix}${name}`;
  return { load: () => queue.redis.incr(key), reads: async () => Number((await queue.redis.get(key)) ?? 0) };
}

/** A clock the test moves by hand. */
function handClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('SharedReads', () => {
  it('answers concurrent callers of one key with one read', async () => {
    const queue = await openQueue();
    const { load, reads } = countingRead(queue);
    const shared = new SharedReads({ keepMs: 1_000 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => shared.read('main', ['overview'], 1_000, load)));
    expect(answers).toEqual(Array.from({ length: 50 }, () => 1));
    expect(await reads()).toBe(1);
  });

  it('answers from the snapshot while it is as fresh as the caller asks, and reads again after', async () => {
    const queue = await openQueue();
    const { load, reads } = countingRead(queue);
    const clock = handClock();
    const shared = new SharedReads({ keepMs: 1_000, now: clock.now });
    expect(await shared.read('main', ['overview'], 1_000, load)).toBe(1);
    clock.advance(400);
    expect(await shared.read('main', ['overview'], 1_000, load)).toBe(1);
    // A caller polling faster accepts less: 400 ms is too old for it.
    expect(await shared.read('main', ['overview'], 250, load)).toBe(2);
    clock.advance(1_001);
    // Older than keepMs: nobody gets it, whatever they would accept.
    expect(await shared.read('main', ['overview'], 60_000, load)).toBe(3);
    expect(await reads()).toBe(3);
  });

  it('gives a failed read to the callers that waited for it, and never to a later one', async () => {
    const queue = await openQueue();
    const { load, reads } = countingRead(queue);
    const shared = new SharedReads({ keepMs: 60_000 });
    const failing = async () => {
      await load();
      // Redis refuses a command on a key of the wrong type: a real error, from Redis.
      await queue.redis.set(`${queue.keys.prefix}list`, 'not a list');
      return queue.redis.lrange(`${queue.keys.prefix}list`, 0, -1);
    };
    const waiting = await Promise.allSettled([shared.read('main', ['layout'], 60_000, failing), shared.read('main', ['layout'], 60_000, failing)]);
    expect(waiting.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((waiting[0] as PromiseRejectedResult).reason)).toContain('WRONGTYPE');
    expect(await reads()).toBe(1);
    expect(shared.size).toBe(0);
    expect(await shared.read('main', ['layout'], 60_000, load)).toBe(2);
  });

  it('never shares a read between connections or between parameters', async () => {
    const queue = await openQueue();
    const shared = new SharedReads({ keepMs: 60_000 });
    const counters = ['a', 'b', 'c', 'd'].map((name) => countingRead(queue, name));
    const [first, second, third, fourth] = counters;
    const answers = await Promise.all([
      shared.read('main', ['failed', 0, 50], 60_000, first!.load),
      shared.read('staging', ['failed', 0, 50], 60_000, second!.load),
      shared.read('main', ['failed', 50, 50], 60_000, third!.load),
      // The same text split differently is another key: parameters are not joined into one string.
      shared.read('main', ['failed', '0', '50'], 60_000, fourth!.load),
    ]);
    expect(answers).toEqual([1, 1, 1, 1]);
    expect(await Promise.all(counters.map((counter) => counter.reads()))).toEqual([1, 1, 1, 1]);
  });

  it('forgets a connection’s reads, those under way too, and no other connection’s', async () => {
    const queue = await openQueue();
    const { load, reads } = countingRead(queue);
    const shared = new SharedReads({ keepMs: 60_000 });
    await shared.read('main', ['reservations'], 60_000, load);
    await shared.read('staging', ['reservations'], 60_000, load);
    const underWay = shared.read('main', ['overview'], 60_000, load);
    shared.forget('main');
    expect(await shared.read('main', ['reservations'], 60_000, load)).toBe(4);
    expect(await shared.read('main', ['overview'], 60_000, load)).toBe(5);
    expect(await underWay).toBe(3);
    expect(await shared.read('staging', ['reservations'], 60_000, load)).toBe(2);
    expect(await reads()).toBe(5);
  });

  it('drops a snapshot once nobody could accept it', async () => {
    const queue = await openQueue();
    const { load } = countingRead(queue);
    const shared = new SharedReads({ keepMs: 50 });
    await shared.read('main', ['jobs', 7], 50, load);
    expect(shared.size).toBe(1);
    await expect.poll(() => shared.size).toBe(0);
  });
});
