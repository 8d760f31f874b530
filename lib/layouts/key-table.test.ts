import { describe, expect, it } from 'vitest';
import { isAbsent } from './adapter';
import { markoLayout } from './marko/layout';
import { MAIL_JOB, testMarkoFactory } from './marko/test-layout';
import type { KeyTableReader, LayoutCensusStep } from './pages';
import { openFixtureChannel } from './yii2/test-drivers';
import { yii2KeyTable } from './yii2/key-table';
import { testQueueFactory } from './staticphp/test-redis';

const openQueue = testQueueFactory();
const openMarko = testMarkoFactory();

/** Every step of a census, with its cursors, until it says it is done. */
async function census(reader: KeyTableReader): Promise<LayoutCensusStep[]> {
  const steps: LayoutCensusStep[] = [];
  let cursor = '0';
  for (;;) {
    const step = await reader.censusStep(cursor);
    steps.push(step);
    if (step.done) return steps;
    cursor = step.cursor;
  }
}

const sum = (steps: LayoutCensusStep[], label: string) => steps.reduce((total, step) => total + (step.tallies[label] ?? 0), 0);

describe('the yii2 keys page', () => {
  it('lists an ng channel’s twelve keys with the real driver’s types and sizes, and flags a wrong type, a TTL and a lock without expiry', async () => {
    const { channel, expected, cleanup } = await openFixtureChannel(await openQueue(), 'ng-strict');
    const { redis } = channel.connection;
    const keys = channel.keys;
    try {
      const reader = yii2KeyTable(channel.connection, [keys], 'yii2-ng');
      const clean = await reader.read();
      expect(clean.scope).toBe(`channel ${keys.channel}`);
      expect(clean.keys.map((row) => row.key)).toEqual(
        ['message_id', 'messages', 'waiting', 'delayed', 'reserved', 'attempts', 'moving_lock', 'prioritized', 'priorities', 'ranks', 'seq', 'marker'].map(
          (suffix) => `${keys.channel}.${suffix}`,
        ),
      );
      const messages = clean.keys.find((row) => row.key === keys.messages)!;
      expect(messages).toMatchObject({ type: 'hash', expectedType: 'hash', mismatch: false, ttlWrong: false, queue: keys.channel });
      expect(messages.memoryBytes).toBeGreaterThan(0);
      // One message per job the real driver still counted: waiting, delayed or reserved at capture.
      const { waiting, delayed, reserved } = expected.statistics;
      expect(messages.size).toBe(waiting + delayed + reserved);
      expect(clean.keys.find((row) => row.key === keys.movingLock)).toMatchObject({ type: 'none', size: null, expires: true, ttlWrong: false });
      expect([clean.mismatches, clean.ttlWrong]).toEqual([0, 0]);

      await redis.del(keys.attempts);
      await redis.set(keys.attempts, 'not a hash');
      await redis.expire(keys.messages, 3600);
      // clear() sets the lock without expiry (and deletes it at once); left so, it stops every stock mover.
      await redis.set(keys.movingLock, '1');
      const broken = await reader.read();
      expect(broken.keys.find((row) => row.key === keys.attempts)).toMatchObject({
        type: 'string',
        expectedType: 'hash',
        mismatch: true,
        size: 'not a hash'.length,
      });
      expect(broken.keys.find((row) => row.key === keys.messages)!.ttlWrong).toBe(true);
      expect(broken.keys.find((row) => row.key === keys.movingLock)).toMatchObject({ type: 'string', ttlWrong: true });
      expect([broken.mismatches, broken.ttlWrong]).toEqual([1, 2]);
    } finally {
      await cleanup();
    }
  });

  it('counts a stock channel’s keys in its census and lists the rest under its name, ng’s keys among them', async () => {
    const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'stock');
    const { redis } = channel.connection;
    const keys = channel.keys;
    try {
      await redis.set(`${keys.channel}.left-behind`, 'x');
      await redis.zadd(keys.prioritized, 1, '1');
      await redis.del(keys.attempts);
      await redis.set(keys.attempts, 'x');
      const steps = await census(yii2KeyTable(channel.connection, [keys], 'yii2'));
      const existing = await redis.exists(keys.messageId, keys.messages, keys.waiting, keys.delayed, keys.reserved, keys.movingLock);
      expect(sum(steps, 'Channel keys')).toBe(existing);
      expect(
        steps
          .flatMap((step) => step.strangers)
          .map(({ key }) => key)
          .sort(),
      ).toEqual([`${keys.channel}.left-behind`, keys.prioritized].sort());
      expect(steps.reduce((total, step) => total + step.strangerCount, 0)).toBe(2);
      expect(steps.flatMap((step) => step.wrongType)).toEqual([{ key: keys.attempts, type: 'string' }]);
      expect(steps.at(-1)).toMatchObject({ cursor: '0', done: true, walks: 1 });
    } finally {
      await cleanup();
    }
  });

  it('opens a key under the channel’s name a page at a time, and refuses any other key', async () => {
    const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'stock');
    try {
      const reader = yii2KeyTable(channel.connection, [channel.keys], 'yii2');
      const waiting = await reader.contents(channel.keys.waiting, '');
      expect(waiting.type).toBe('list');
      if (waiting.type !== 'list') throw new Error('not a list');
      expect(waiting.items.map((item) => item.text)).toEqual(await channel.connection.redis.lrange(channel.keys.waiting, 0, 49));
      await expect(reader.contents('queue-of-someone-else.messages', '')).rejects.toMatchObject({
        invalidRequest: true,
        message: expect.stringContaining(`Only keys under ${channel.keys.channel}.`),
      });
      // The bare channel name is no key of the channel.
      await expect(reader.contents(`${channel.keys.channel}.`, '')).rejects.toMatchObject({ invalidRequest: true });
    } finally {
      await cleanup();
    }
  });

  it('refuses a census cursor it did not give', async () => {
    const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'stock');
    try {
      const reader = yii2KeyTable(channel.connection, [channel.keys], 'yii2');
      for (const cursor of ['1-0', 'x', '0-18446744073709551616', '-1'])
        await expect(reader.censusStep(cursor)).rejects.toMatchObject({ invalidRequest: true });
    } finally {
      await cleanup();
    }
  });
});

describe('the marko keys page', () => {
  it('lists the failed keys and each queue’s four keys with their types and sizes, and counts job hashes and strangers in the census', async () => {
    const { layout, worker, redis, keys, queue, prefix } = await openMarko();
    const reader = layout.keyTable;
    if (isAbsent(reader)) throw new Error(reader.absent);
    const ids = [await worker.push('mail', MAIL_JOB), await worker.push('mail', MAIL_JOB), await worker.push('sms', MAIL_JOB)];
    await worker.pop('mail');
    await redis.set(`${prefix}stray`, '1');
    await redis.set(keys.job('broken'), 'not a hash');

    const table = await reader.read();
    expect(table.scope).toBe(`prefix ${prefix}`);
    expect(table.keys.map((row) => [row.key, row.queue, row.type, row.size])).toEqual([
      [keys.failedJobs, null, 'none', null],
      [keys.failedIndex, null, 'none', null],
      [keys.ready('mail'), 'mail', 'list', 1],
      [keys.delayed('mail'), 'mail', 'none', null],
      [keys.reserved('mail'), 'mail', 'zset', 1],
      [keys.notify('mail'), 'mail', 'list', await redis.llen(keys.notify('mail'))],
      [keys.ready('sms'), 'sms', 'list', 1],
      [keys.delayed('sms'), 'sms', 'none', null],
      [keys.reserved('sms'), 'sms', 'none', null],
      [keys.notify('sms'), 'sms', 'list', 1],
    ]);
    expect(table.mismatches).toBe(0);

    const steps = await census(reader);
    expect(sum(steps, 'Job hashes')).toBe(ids.length);
    expect(sum(steps, 'Queue keys')).toBe(
      await redis.exists(keys.ready('mail'), keys.reserved('mail'), keys.notify('mail'), keys.ready('sms'), keys.notify('sms')),
    );
    expect(steps.flatMap((step) => step.strangers)).toEqual([{ key: `${prefix}stray`, type: 'string' }]);
    expect(steps.flatMap((step) => step.wrongType)).toEqual([{ key: keys.job('broken'), type: 'string' }]);

    // Named queues are listed as named, found or not.
    const named = markoLayout(queue, { prefix, retryAfter: null, queues: ['sms'] }).keyTable;
    if (isAbsent(named)) throw new Error(named.absent);
    expect((await named.read()).keys.map((row) => row.queue)).toEqual([null, null, 'sms', 'sms', 'sms', 'sms']);
  });
});
