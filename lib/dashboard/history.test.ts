import { describe, expect, it } from 'vitest';
import type { Throughput } from '../shapes/throughput';
import { staticphpThroughput } from '../layouts/staticphp/layout';
import { RedisQueue } from '../layouts/staticphp/redis-queue';
import { sleep, testQueueFactory } from '../layouts/staticphp/test-redis';
import {
  addFailedTotals,
  mergeThroughput,
  readFailedTotals,
  readHistory,
  RecentHistory,
  recordThroughput,
  RESOLUTIONS,
  ThroughputSampler,
  totalOf,
  type ThroughputFigures,
} from './history';
import { dashboardKeys, throughputKeys, type ThroughputKeys } from './keys';

const openQueue = testQueueFactory();

/** A queue and throughput keys under the test's random prefix, so the factory's cleanup deletes them. */
async function openLayout(): Promise<{ queue: RedisQueue; keys: ThroughputKeys }> {
  const queue = await openQueue();
  return { queue, keys: throughputKeys(dashboardKeys(`${queue.keys.prefix}ql:`), queue.keys.prefix) };
}

/** Another dashboard instance: its own connection to the same layout. */
async function anotherInstance(queue: RedisQueue): Promise<RedisQueue> {
  return RedisQueue.connect(queue.settings);
}

const figures: ThroughputFigures = { processed: 3, pushed: 4, failed: 1, pending: 10, delayed: 2, reserved: 1, waitSeconds: 7.5 };

function stretch(at: number, seconds: number, overrides: Partial<ThroughputFigures> = {}): Throughput {
  return { at, seconds, countersAvailable: true, queues: [{ queue: 'mail', ...figures, ...overrides }] };
}

describe('throughput history', () => {
  it('two instances sampling at once write one series, with no point counted twice', async () => {
    const { queue, keys } = await openLayout();
    const other = await anotherInstance(queue);
    try {
      await queue.push('mail', 'ok', {});
      const samplers = [
        new ThroughputSampler(staticphpThroughput(queue), keys, { lockMs: 5_000 }),
        new ThroughputSampler(staticphpThroughput(other), keys, { lockMs: 5_000 }),
      ];
      const rounds: string[][] = [];
      for (let round = 0; round < 4; round++) {
        if (round > 0) await queue.pushMany(Array.from({ length: round }, () => ({ queue: 'mail', name: 'ok', payload: {} })));
        rounds.push((await Promise.all(samplers.map((sampler) => sampler.tick()))).sort());
      }
      expect(rounds).toEqual([
        ['first-sample', 'standby'],
        ['recorded', 'standby'],
        ['recorded', 'standby'],
        ['recorded', 'standby'],
      ]);
      const points = await readHistory(queue.redis, keys, 'mail', '15m');
      expect(points).toHaveLength(3);
      expect(points.map((point) => point.pushed)).toEqual([1, 2, 3]);
      expect(await readHistory(queue.redis, keys, null, '15m')).toHaveLength(3);
    } finally {
      await other.close();
    }
  });

  it('a new instance continues the same history once the old one stops renewing the lock (a restart keeps history)', async () => {
    const { queue, keys } = await openLayout();
    await queue.push('mail', 'ok', {});
    const first = new ThroughputSampler(staticphpThroughput(queue), keys, { lockMs: 300 });
    expect(await first.tick()).toBe('first-sample');
    await queue.push('mail', 'ok', {});
    expect(await first.tick()).toBe('recorded');

    // The first instance is gone; the restarted one has a new connection and a new token.
    const restarted = await anotherInstance(queue);
    try {
      const second = new ThroughputSampler(staticphpThroughput(restarted), keys, { lockMs: 300 });
      expect(await second.tick()).toBe('standby');
      await sleep(400);
      expect(await second.tick()).toBe('first-sample');
      await queue.pushMany([
        { queue: 'mail', name: 'ok', payload: {} },
        { queue: 'mail', name: 'ok', payload: {} },
      ]);
      expect(await second.tick()).toBe('recorded');
      const points = await readHistory(restarted.redis, keys, 'mail', '1h');
      expect(points.map((point) => point.pushed)).toEqual([1, 2]);
      expect(points[1]!.pending).toBe(4);
      expect(points[0]!.at).toBeLessThanOrEqual(points[1]!.at);
    } finally {
      await restarted.close();
    }
  });

  it('keeps each series capped and expiring, and reads figures back as written, unknown ones as null', async () => {
    const { queue, keys } = await openLayout();
    const { maxPoints, keepSeconds } = RESOLUTIONS['5s'];
    for (let point = 0; point < maxPoints + 300; point++) await recordThroughput(queue.redis, keys, '5s', stretch(0, 5));
    const key = keys.series('5s', 'mail');
    // MAXLEN ~ trims whole stream nodes of 100 entries.
    expect(await queue.redis.xlen(key)).toBeLessThanOrEqual(maxPoints + 100);
    expect(await queue.redis.xlen(key)).toBeGreaterThanOrEqual(maxPoints);
    expect(await queue.redis.ttl(key)).toBeGreaterThan(keepSeconds - 10);
    await recordThroughput(queue.redis, keys, '1m', stretch(0, 60, { processed: null, pushed: null, waitSeconds: null }));
    expect(await readHistory(queue.redis, keys, 'mail', '24h')).toMatchObject([
      { seconds: 60, processed: null, pushed: null, failed: 1, pending: 10, waitSeconds: null },
    ]);
    const [latest] = (await readHistory(queue.redis, keys, 'mail', '15m')).slice(-1);
    expect(latest).toMatchObject({ seconds: 5, ...figures });
  });

  it('RecentHistory reads only what was written since its last read, and answers what readHistory does', async () => {
    const { queue, keys } = await openLayout();
    const twoQueues = (at: number, processed: number): Throughput => ({
      ...stretch(at, 5, { processed }),
      queues: [
        { queue: 'mail', ...figures, processed },
        { queue: 'sms', ...figures, processed: processed * 10 },
      ],
    });
    // Points older than the range, written with ids of their time: never read.
    const [seconds] = await queue.redis.time();
    await queue.redis.xadd(keys.series('5s', 'mail'), `${Number(seconds) * 1000 - 16 * 60_000}-0`, 'seconds', 5, 'processed', 999);
    const recent = new RecentHistory('15m');
    const bothRead = () => recent.read(queue.redis, keys, ['mail', null, 'sms']);
    const fromScratch = () => Promise.all(['mail', null, 'sms'].map((name) => readHistory(queue.redis, keys, name, '15m')));

    for (let point = 1; point <= 3; point++) await recordThroughput(queue.redis, keys, '5s', twoQueues(point, point));
    const first = await bothRead();
    expect(first.map((points) => points.map((point) => point.processed))).toEqual([
      [1, 2, 3],
      [11, 22, 33],
      [10, 20, 30],
    ]);
    expect(first).toEqual(await fromScratch());

    // Two reads at once after new points, as two polling tabs: each point once.
    for (let point = 4; point <= 5; point++) await recordThroughput(queue.redis, keys, '5s', twoQueues(point, point));
    const [one, other] = await Promise.all([bothRead(), bothRead()]);
    expect(one!.map((points) => points.map((point) => point.processed))).toEqual([
      [1, 2, 3, 4, 5],
      [11, 22, 33, 44, 55],
      [10, 20, 30, 40, 50],
    ]);
    expect(other).toEqual(one);
    expect(await bothRead()).toEqual(await fromScratch());
  });

  it('keeps a running count of failures per queue, for the Prometheus counter', async () => {
    const { queue, keys } = await openLayout();
    await addFailedTotals(queue.redis, keys, stretch(5_000, 5, { failed: 2 }));
    await addFailedTotals(queue.redis, keys, stretch(10_000, 5, { failed: 0 }));
    await addFailedTotals(queue.redis, keys, {
      ...stretch(15_000, 5, { failed: 3 }),
      queues: [
        { queue: 'sms', ...figures, failed: 1 },
        { queue: 'mail', ...figures, failed: 3 },
      ],
    });
    expect(await readFailedTotals(queue.redis, keys)).toEqual(
      new Map([
        ['mail', 5],
        ['sms', 1],
      ]),
    );
    expect(await queue.redis.ttl(keys.failedTotals)).toBeGreaterThan(RESOLUTIONS['1m'].keepSeconds - 10);
  });
});

describe('mergeThroughput and totalOf', () => {
  it('adds counts over consecutive stretches and keeps the later backlog', () => {
    const merged = mergeThroughput(stretch(5_000, 5), stretch(10_000, 5, { pending: 4, waitSeconds: null }));
    expect(merged).toEqual({
      at: 10_000,
      seconds: 10,
      countersAvailable: true,
      queues: [{ queue: 'mail', ...figures, processed: 6, pushed: 8, failed: 2, pending: 4, waitSeconds: null }],
    });
  });

  it('sums every queue, takes the longest wait, and leaves a count unknown when any queue does not know it', () => {
    expect(totalOf([figures, { ...figures, processed: null, waitSeconds: 20 }])).toEqual({
      processed: null,
      pushed: 8,
      failed: 2,
      pending: 20,
      delayed: 4,
      reserved: 2,
      waitSeconds: 20,
    });
  });
});
