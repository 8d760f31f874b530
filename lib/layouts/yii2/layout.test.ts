import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deleteKeysUnder } from '../../redis/scan-keys';
import { testQueueFactory } from '../staticphp/test-redis';
import { isAbsent } from '../adapter';
import { yii2Layout } from './layout';
import { driverOf, loadYii2Fixture, yii2Settings, YII2_FIXTURES, type Yii2Expected } from './test-fixtures';
import { queuelens } from '../../../bin/test-cli';

const openQueue = testQueueFactory();

/** A channel of its own for each test, deleted after it (the factory deletes only its own prefix). */
async function openChannel() {
  const queue = await openQueue();
  const channel = `test-${randomUUID()}`;
  return {
    queue,
    channel,
    cleanup: () => deleteKeysUnder(queue.redis, `${channel}.`),
  };
}

/** The states in which the driver left a job in Redis; the rest are gone and counted in `done`. */
const GONE = new Set(['exhausted', 'crash-exhausted-dropped', 'retry-dropped']);

function statesOf(expected: Yii2Expected, state: string): number {
  return Object.values(expected.jobs).filter((job) => job.state === state).length;
}

describe('the yii2 layout, against what the real drivers wrote', () => {
  for (const name of YII2_FIXTURES) {
    it(`counts ${name} exactly as the driver's own statistics did, split by the server's clock`, async () => {
      const { queue, channel, cleanup } = await openChannel();
      try {
        const expected = await loadYii2Fixture(queue.redis, name, channel);
        const driver = driverOf(expected);
        const { queues, failed } = await yii2Layout(queue, yii2Settings(driver, [channel])).counts();
        const live = Object.values(expected.jobs).filter((job) => !GONE.has(job.state)).length;
        const expired = statesOf(expected, 'reserved-expired-retry');
        const { waiting, delayed, reserved } = expected.statistics;
        expect(failed).toBeNull();
        expect(queues).toEqual([
          {
            queue: channel,
            statistics: expected.statistics,
            // Every delayed job in these captures is minutes from due; the stock capture has one reservation run out.
            pending: waiting,
            delayed,
            reserved,
            total: waiting + delayed + reserved,
            dueDelayed: 0,
            expiredReserved: expired,
            messages: live,
            ...(driver === 'yii2-ng' ? { awaitingTakeover: 0 } : {}),
          },
        ]);
        expect(expected.statistics.done).toBe(3);
        expect(expired).toBe(name === 'stock' ? 1 : 0);
      } finally {
        await cleanup();
      }
    });
  }

  it('counts a due delayed job as pending and an expired reservation as reserved, as the drivers move them only later', async () => {
    const { queue, channel, cleanup } = await openChannel();
    try {
      const [now] = await queue.redis.time();
      const k = (suffix: string) => `${channel}.${suffix}`;
      await queue.redis
        .multi()
        .set(k('message_id'), '5')
        .hset(k('messages'), '1', '300;x', '2', '300;x', '3', '300;x', '4', '300;x', '5', '300;x')
        .lpush(k('waiting'), '1')
        .zadd(k('delayed'), Number(now) - 5, '2', Number(now) + 600, '3')
        .zadd(k('reserved'), Number(now), '4', Number(now) + 30, '5')
        .exec();
      const [row] = (await yii2Layout(queue, yii2Settings('yii2', [channel])).counts()).queues;
      expect(row).toMatchObject({
        pending: 2,
        delayed: 1,
        reserved: 2,
        total: 5,
        dueDelayed: 1,
        expiredReserved: 1,
        messages: 5,
        statistics: { waiting: 1, delayed: 2, reserved: 2, done: 0 },
      });
    } finally {
      await cleanup();
    }
  });

  it('reports a channel whose key has the wrong type and still counts the others', async () => {
    const broken = await openChannel();
    const fine = await openChannel();
    try {
      await broken.queue.redis.set(`${broken.channel}.waiting`, 'not a list');
      await fine.queue.redis.lpush(`${fine.channel}.waiting`, '1');
      const { queues } = await yii2Layout(broken.queue, yii2Settings('yii2', [broken.channel, fine.channel])).counts();
      expect(queues[0]).toMatchObject({ queue: broken.channel, total: 0, error: expect.stringContaining(`${broken.channel}.waiting`) });
      expect(queues[1]).toMatchObject({ queue: fine.channel, pending: 1, total: 1 });
      expect(queues[1]!.error).toBeUndefined();
    } finally {
      await broken.cleanup();
      await fine.cleanup();
    }
  });

  it('says what it lacks instead of failing at run time', async () => {
    const { queue, channel } = await openChannel();
    const layout = yii2Layout(queue, yii2Settings('yii2-ng', [channel]));
    expect(isAbsent(layout.failedJobs) && layout.failedJobs.absent).toBe('yii2-queue keeps no failed jobs: a job that used its attempts is deleted');
    expect(isAbsent(layout.runner)).toBe(true);
  });
});

describe('queuelens on a yii2 channel', () => {
  it('prints the counts of each channel and refuses what yii2 keeps no data for, in one line', async () => {
    const ng = await openChannel();
    const stock = await openChannel();
    try {
      const ngExpected = await loadYii2Fixture(ng.queue.redis, 'ng-strict', ng.channel);
      const stockExpected = await loadYii2Fixture(stock.queue.redis, 'stock', stock.channel);
      const ngStatus = await queuelens('status', '--json', '--layout', 'yii2-ng', '--channel', ng.channel);
      expect(ngStatus.code).toBe(0);
      const ngCounts = JSON.parse(ngStatus.stdout) as { queues: { statistics: unknown }[]; failed: null };
      expect(ngCounts.failed).toBeNull();
      expect(ngCounts.queues.map((row) => row.statistics)).toEqual([ngExpected.statistics]);

      const both = JSON.parse((await queuelens('status', '--json', '--layout', 'yii2', '--channel', stock.channel, '--channel', ng.channel)).stdout) as {
        queues: { queue: string; statistics: { waiting: number } }[];
      };
      expect(both.queues.map((row) => row.queue)).toEqual([stock.channel, ng.channel]);
      expect(both.queues[0]!.statistics).toEqual(stockExpected.statistics);
      // Read as the stock driver reads it, ng's line is invisible: only the stock list counts as waiting.
      expect(both.queues[1]!.statistics.waiting).toBe(0);

      const table = await queuelens('status', '--layout', 'yii2-ng', '--channel', ng.channel);
      expect(table.stdout).toMatch(
        new RegExp(
          `^Read yii2-queue-redis-ng, channel ${ng.channel} on redis 127\\.0\\.0\\.1:\\d+\\.\\nqueue\\s+pending\\s+delayed\\s+reserved\\s+total\\n${ng.channel}\\s+13\\s+8\\s+2\\s+23\\n`,
        ),
      );
      expect(table.stdout).toContain('failed: none kept (yii2-queue keeps no failed jobs: a job that used its attempts is deleted)');

      for (const command of [['failed'], ['retry', '--all'], ['forget', '--all']]) {
        const refused = await queuelens(...command, '--layout', 'yii2-ng', '--channel', ng.channel);
        expect(refused).toMatchObject({ code: 2, stdout: '' });
        expect(refused.stderr).toBe(
          `queuelens: ${command[0]} is not available on yii2-queue-redis-ng, channel ${ng.channel}: yii2-queue keeps no failed jobs: a job that used its attempts is deleted\n`,
        );
      }
      const push = await queuelens('push', 'mail', 'Job', '{}', '--layout', 'yii2');
      expect(push.code).toBe(2);
      expect(push.stderr).toMatch(/^queuelens: push is not available on yii2-queue, channel queue: yii2 jobs are PHP objects/);
      const wrong = await queuelens('status', '--layout', 'sidekiq');
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/^queuelens: --layout takes one of staticphp, yii2, yii2-ng, marko, laravel, not "sidekiq"\n/);
    } finally {
      await ng.cleanup();
      await stock.cleanup();
    }
  });
});
