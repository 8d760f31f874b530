import { describe, expect, it } from 'vitest';
import { sleep, testQueueFactory, waitFor } from './test-redis';
import type { RedisQueue } from './redis-queue';
import { Worker } from '../../worker/worker';
import { throughputBetween, type QueueSample, type ThroughputSample } from '../../shapes/throughput';
import { MAX_QUEUES, sampleThroughput } from './throughput';
import { staticphpThroughput } from './layout';

const openQueue = testQueueFactory();

/** Waits until the server's clock is in a later second than `at`, so failures scored in that second are behind a sample. */
async function nextServerSecond(queue: RedisQueue, at: number): Promise<void> {
  await waitFor(async () => (Number((await queue.redis.time())[0]) > Math.floor(at / 1000) ? true : undefined));
}

function rowOf<Row extends { queue: string }>(sample: { queues: readonly Row[] }, queue: string): Row {
  const row = sample.queues.find((candidate) => candidate.queue === queue);
  if (!row) throw new Error(`no row for ${queue}`);
  return row;
}

describe('sampleThroughput', () => {
  it('names as its queues, and finds among every queue, the ones a sample covers: at most MAX_QUEUES, so that no history is read where none is written', async () => {
    const queue = await openQueue();
    await queue.pushMany(Array.from({ length: MAX_QUEUES + 5 }, (_, n) => ({ queue: `tenant-${n}`, name: 'job', payload: {} })));
    const source = staticphpThroughput(queue);
    const sample = await sampleThroughput(queue);
    expect(sample.truncated).toBe(true);
    const sampled = sample.queues.map((row) => row.queue);
    expect(await source.queueNames()).toEqual(sampled);
    expect(sample.queues).toHaveLength(MAX_QUEUES);
    expect(await source.coveredAmong(await queue.queueNames())).toEqual(sampled);
    expect(await source.coveredAmong(sampled.slice(0, 3))).toEqual(sampled.slice(0, 3));
  });

  it('counts every job a real worker processed, pushed and failed between two samples', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'ok', {}); // registers the queue and makes its stream before the first sample
    const first = await sampleThroughput(queue);
    expect(first.countersAvailable).toBe(true);
    await queue.pushMany([
      ...Array.from({ length: 49 }, (_, n) => ({ queue: 'mail', name: 'ok', payload: { n }, options: { priority: n % 3 } })),
      ...Array.from({ length: 5 }, () => ({ queue: 'mail', name: 'broken', payload: {}, options: { maxAttempts: 1 } })),
    ]);
    await queue.push('other', 'ok', {});
    let finished = 0;
    const worker = new Worker(queue, {
      queues: ['mail'],
      handlers: {
        ok: () => undefined,
        broken: () => {
          throw new Error('no such mailbox');
        },
      },
      idleMs: 20,
      onEvent: (event) => {
        if (event.type === 'completed' || event.type === 'failed') finished++;
      },
    });
    const running = worker.run();
    await waitFor(async () => (finished === 55 ? true : undefined), 20_000);
    worker.stop();
    await running;
    const lastFailure = Date.now();
    await nextServerSecond(queue, Math.max(lastFailure, first.at));
    const second = await sampleThroughput(queue, first);

    const mail = rowOf(throughputBetween(first, second), 'mail');
    expect(mail).toMatchObject({ processed: 55, pushed: 54, failed: 5, pending: 0, delayed: 0, reserved: 0, waitSeconds: null });
    const other = rowOf(throughputBetween(first, second), 'other');
    expect(other).toMatchObject({ processed: 0, pushed: 1, failed: 0, pending: 1 });
    expect(second.failedUnattributed).toBe(0);
    // The next sample does not count those failures again.
    await nextServerSecond(queue, second.at);
    const third = await sampleThroughput(queue, second);
    expect(rowOf(throughputBetween(second, third), 'mail')).toMatchObject({ processed: 0, pushed: 0, failed: 0 });
  });

  it('measures the rate of a worker running at a steady pace, within 2 jobs of what the worker reports over the same window', async () => {
    const queue = await openQueue();
    await queue.pushMany(Array.from({ length: 200 }, (_, n) => ({ queue: 'paced', name: 'tick', payload: { n } })));
    let completed = 0;
    // 40 ms a job, one at a time: about 20 a second, slow enough that sampling at the window's ends is a small error.
    const worker = new Worker(queue, {
      queues: ['paced'],
      handlers: { tick: () => sleep(40) },
      idleMs: 20,
      onEvent: (event) => {
        if (event.type === 'completed') completed++;
      },
    });
    const running = worker.run();
    try {
      await waitFor(async () => (completed >= 5 ? true : undefined));
      const completedBefore = completed;
      const before = await sampleThroughput(queue);
      await sleep(3_000);
      const after = await sampleThroughput(queue, before);
      const completedInWindow = completed - completedBefore;
      const paced = rowOf(throughputBetween(before, after), 'paced');
      const { seconds } = throughputBetween(before, after);
      // A job may finish between a sample and the test's reading of its own counter, at either end.
      expect(Math.abs(paced.processed! - completedInWindow)).toBeLessThanOrEqual(2);
      expect(completedInWindow).toBeGreaterThan(10);
      const measuredRate = paced.processed! / seconds;
      const reportedRate = completedInWindow / seconds;
      expect(Math.abs(measuredRate - reportedRate) / reportedRate).toBeLessThan(0.15);
      expect(paced.reserved).toBeLessThanOrEqual(1);
      expect(paced.pending).toBeGreaterThan(0);
      // The oldest waiting job joined the stream when the test pushed it, at least 3 s ago.
      expect(paced.waitSeconds).toBeGreaterThanOrEqual(3);
    } finally {
      worker.stop();
      await running;
    }
  });

  it('gives the wait of the oldest job not handed out yet, from its entry id, and of a due delayed job', async () => {
    const queue = await openQueue();
    const [seconds] = await queue.redis.time();
    const nowMs = Number(seconds) * 1000;
    const stream = queue.keys.stream('old', 0);
    // Laid out by hand as the driver would: one delivered entry five minutes old, one waiting for two minutes.
    await queue.redis.sadd(queue.keys.queues, 'old', 'due');
    await queue.redis.zadd(queue.keys.levels('old'), 0, '0');
    await queue.redis.xadd(stream, `${nowMs - 300_000}-0`, 'job', '1');
    await queue.redis.xadd(stream, `${nowMs - 120_000}-0`, 'job', '2');
    await queue.redis.xgroup('CREATE', stream, queue.settings.group, '0');
    await queue.redis.xreadgroup('GROUP', queue.settings.group, 'shared', 'COUNT', 1, 'STREAMS', stream, '>');
    await queue.redis.zadd(queue.keys.delayed('due'), Number(seconds) - 45, '3');

    const sample = await sampleThroughput(queue);
    const old = rowOf(sample, 'old');
    expect(old.waitSeconds).toBeGreaterThanOrEqual(120);
    expect(old.waitSeconds).toBeLessThan(125);
    expect(old).toMatchObject({ pending: 1, reserved: 1, failedSince: null });
    const due = rowOf(sample, 'due');
    expect(due.waitSeconds).toBeGreaterThanOrEqual(45);
    expect(due.waitSeconds).toBeLessThan(50);
  });
});

describe('throughputBetween', () => {
  const sample = (at: number, streams: QueueSample['streams'], countersAvailable = true): ThroughputSample => ({
    at,
    queues: [{ queue: 'q', pending: 0, delayed: 0, reserved: 0, total: 0, streams, waitSeconds: null, failedSince: 2 }],
    countersAvailable,
    failedUnattributed: 0,
    truncated: false,
  });

  it('takes a counter that went backwards as a stream made again, and counts a new level from zero', () => {
    const before = sample(1_000, [{ level: '0', added: 500, length: 20 }]);
    const after = sample(6_000, [
      { level: '0', added: 7, length: 3 },
      { level: '5', added: 4, length: 1 },
    ]);
    expect(throughputBetween(before, after)).toEqual({
      at: 6_000,
      seconds: 5,
      countersAvailable: true,
      queues: [{ queue: 'q', processed: 4 + 3, pushed: 7 + 4, failed: 2, pending: 0, delayed: 0, reserved: 0, waitSeconds: null }],
    });
  });

  it('reports no processed or pushed figures without entries-added (Redis before 7.0), and still the failures', () => {
    const before = sample(0, [{ level: '0', added: null, length: 20 }], false);
    const after = sample(5_000, [{ level: '0', added: null, length: 3 }], false);
    expect(throughputBetween(before, after)).toMatchObject({ countersAvailable: false, queues: [{ processed: null, pushed: null, failed: 2 }] });
  });
});
