import { describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../redis/connection';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { sleep, testQueueFactory } from '../staticphp/test-redis';
import { promoteDueJobs, reclaimReservation, releaseExpiredReservation, removeYii2Job, runDelayedNow, type Yii2Channel } from './repairs';
import { driverReserve, ngReserve, ngSettle, stockReserve, withFixtureChannels } from './test-drivers';
import type { Yii2FixtureName } from './test-fixtures';

const openQueue = testQueueFactory();

/** Runs `test` on fixture channels of its own (as many as `names`), deleted afterwards. */
const withChannels = (names: Yii2FixtureName[], test: (...channels: Yii2Channel[]) => Promise<void>) => withFixtureChannels(openQueue, names, test);

async function redisNow(queue: RedisConnection): Promise<number> {
  return Number((await queue.redis.time())[0]);
}

/** Waits until the Redis clock is early in a second, so that reads of it a few ms apart agree on the second. */
async function earlyInASecond(queue: RedisConnection): Promise<void> {
  const [, micros] = await queue.redis.time();
  if (Number(micros) > 700_000) await sleep(400);
}

/** Every key of the channel that a job can be in, for "nothing else changed". */
async function whereIs({ connection: { redis }, keys }: Yii2Channel, id: string) {
  return {
    message: (await redis.hexists(keys.messages, id)) === 1,
    waiting: (await redis.lpos(keys.waiting, id)) !== null,
    prioritized: await redis.zscore(keys.prioritized, id),
    delayed: await redis.zscore(keys.delayed, id),
    reserved: await redis.zscore(keys.reserved, id),
    attempts: await redis.hget(keys.attempts, id),
    priority: await redis.hget(keys.priorities, id),
    rank: await redis.hget(keys.ranks, id),
  };
}

const GONE = { message: false, waiting: false, prioritized: null, delayed: null, reserved: null, attempts: null, priority: null, rank: null };

describe('removing a yii2 job', () => {
  it('deletes a stock job from its list and its attempts, and the next reserve takes the job behind it', async () => {
    await withChannels(['stock'], async (channel) => {
      // Job 7 is the tail of the list: next to run. Job 5 is an expired reservation with attempts.
      expect(await removeYii2Job(channel, '7')).toBe(true);
      expect(await whereIs(channel, '7')).toEqual(GONE);
      expect(await removeYii2Job(channel, '5')).toBe(true);
      expect(await whereIs(channel, '5')).toEqual(GONE);
      expect(await removeYii2Job(channel, '7')).toBe(false);
      expect(await stockReserve(channel)).toBe('8');
    });
  });

  it('takes an id only near an end of a long stock list, and refuses one deeper before it changes anything, the lock included', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      const fillers = (side: string) => Array.from({ length: READY_REMOVAL_REACH + 1_000 }, (_, i) => `${side}-${i}`);
      // The fixture's line in the middle of a list longer than twice the reach.
      await redis.lpush(channel.keys.waiting, ...fillers('head'));
      await redis.rpush(channel.keys.waiting, ...fillers('tail'));
      const [before, length] = [await whereIs(channel, '7'), await redis.llen(channel.keys.waiting)];
      await expect(removeYii2Job(channel, '7')).rejects.toThrow(/not near either end of .*waiting.*nothing was changed/);
      expect(await whereIs(channel, '7')).toEqual(before);
      expect([await redis.llen(channel.keys.waiting), await redis.exists(channel.keys.movingLock)]).toEqual([length, 0]);
      // A job in a set has nothing in the list to lose: job 5 is an expired reservation.
      expect(await removeYii2Job(channel, '5')).toBe(true);
      // Once the tail's fillers are run, job 7 is near the tail again, and goes.
      await redis.ltrim(channel.keys.waiting, 0, -(READY_REMOVAL_REACH + 1_001));
      expect(await removeYii2Job(channel, '7')).toBe(true);
      expect(await whereIs(channel, '7')).toEqual(GONE);
    });
  });

  it("deletes an ng job with its priority and rank, as ng's remove does", async () => {
    await withChannels(['ng-aging'], async (channel) => {
      const before = await whereIs(channel, '5');
      expect(before).toMatchObject({ message: true, attempts: '2', priority: '50' });
      expect(before.rank).not.toBeNull();
      expect(await removeYii2Job(channel, '5')).toBe(true);
      expect(await whereIs(channel, '5')).toEqual(GONE);
      expect(await ngReserve(channel)).toBe('9');
    });
  });

  it('refuses a channel with a key of the wrong type, changing nothing', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      await redis.del(channel.keys.attempts);
      await redis.set(channel.keys.attempts, 'not a hash');
      await expect(removeYii2Job(channel, '7')).rejects.toThrow(`The key ${channel.keys.attempts} holds the wrong Redis type`);
      expect(await redis.hexists(channel.keys.messages, '7')).toBe(1);
      expect(await redis.lindex(channel.keys.waiting, -1)).toBe('7');
    });
  });

  it('places nothing in a channel whose line has the wrong type: Run now, End reservation, release and Move due jobs alike', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      await redis.zadd(channel.keys.delayed, 'XX', 1, '11');
      await redis.rename(channel.keys.waiting, `${channel.keys.channel}.moved-aside`);
      await redis.set(channel.keys.waiting, 'not a list');
      const refused = `The key ${channel.keys.waiting} holds the wrong Redis type`;
      await expect(runDelayedNow(channel, '26')).rejects.toThrow(refused);
      await expect(reclaimReservation(channel, '1')).rejects.toThrow(refused);
      await expect(releaseExpiredReservation(channel, '5')).rejects.toThrow(refused);
      await expect(promoteDueJobs(channel)).rejects.toThrow(refused);
      expect([await redis.zscore(channel.keys.delayed, '26'), await redis.zscore(channel.keys.delayed, '11')]).toEqual([expect.any(String), '1']);
      expect(await redis.zcard(channel.keys.reserved)).toBe(3);
    });
  });

  it("waits out a stock mover's moving_lock, and refuses one that never expires", async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      await redis.set(channel.keys.movingLock, '1', 'PX', 300);
      expect(await removeYii2Job(channel, '7')).toBe(true);
      await redis.set(channel.keys.movingLock, '1');
      await expect(removeYii2Job(channel, '8')).rejects.toThrow(`${channel.keys.movingLock} is held`);
      expect(await whereIs(channel, '8')).toMatchObject({ message: true, waiting: true });
    });
  });

  it("takes a stock channel's moving_lock for a second, as the driver's remove does, and the removals after it go on under it while workers reserve", async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      expect(await removeYii2Job(channel, '7')).toBe(true);
      const holder = await redis.get(channel.keys.movingLock);
      expect(holder).toMatch(/^queuelens [0-9a-f]{16}$/);
      expect(await redis.pttl(channel.keys.movingLock)).toBeGreaterThan(0);
      expect(await redis.pttl(channel.keys.movingLock)).toBeLessThanOrEqual(1000);
      // A worker still reserves (the lock keeps it from moving due and expired jobs only), and cannot take the lock.
      expect(await stockReserve(channel)).toBe('8');
      expect(await redis.get(channel.keys.movingLock)).toBe(holder);
      expect(await removeYii2Job(channel, '5')).toBe(true);
      expect(await whereIs(channel, '5')).toEqual(GONE);
      // Another QueueLens's lock is a lock like a worker's: one that lasts longer than a repair waits is refused at once.
      await redis.set(channel.keys.movingLock, 'queuelens 0000000000000000', 'PX', 5000);
      const refused = removeYii2Job(channel, '9');
      await expect(refused).rejects.toThrow(`${channel.keys.movingLock} is held`);
      expect(await whereIs(channel, '9')).toMatchObject({ message: true });
    });
  });

  it('takes no moving_lock on an ng channel, which never uses one', async () => {
    await withChannels(['ng-aging'], async (channel) => {
      expect(await removeYii2Job(channel, '5')).toBe(true);
      expect(await channel.connection.redis.exists(channel.keys.movingLock)).toBe(0);
    });
  });

  it("tries again as a stock mover's moving_lock expires, ahead of the worker's next reserve taking it again", async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      // Expiring between two of every-100-ms polls.
      await redis.set(channel.keys.movingLock, '1', 'PX', 330);
      // A busy worker's reserve 50 ms after the lock expired takes it for another second.
      const nextReserve = sleep(380).then(async () => {
        await redis.set(channel.keys.movingLock, '1', 'EX', 1, 'NX');
        return whereIs(channel, '7');
      });
      expect(await removeYii2Job(channel, '7')).toBe(true);
      expect((await nextReserve).message).toBe(false);
    });
  });
});

describe('releasing an expired yii2 reservation', () => {
  it('puts a stock job on the tail of the list, where the next reserve takes it, and refuses a live one', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      // Job 1 is held by a killed worker and not expired yet; job 5 ran out of its TTR.
      await expect(releaseExpiredReservation(channel, '1')).rejects.toThrow(`The reservation in ${channel.keys.reserved} has not run out yet`);
      expect(await redis.zscore(channel.keys.reserved, '1')).not.toBeNull();
      expect(await releaseExpiredReservation(channel, '5')).toBe(true);
      expect(await redis.lindex(channel.keys.waiting, -1)).toBe('5');
      expect(await redis.zscore(channel.keys.reserved, '5')).toBeNull();
      expect(await releaseExpiredReservation(channel, '5')).toBe(false);
      expect(await stockReserve(channel)).toBe('5');
      expect(await redis.hget(channel.keys.attempts, '5')).toBe('3');
    });
  });

  it('joins an ng strict job at the back of its priority with a fresh seq, and arms the marker', async () => {
    await withChannels(['ng-strict'], async (channel) => {
      const { redis } = channel.connection;
      await redis.zadd(channel.keys.reserved, 'XX', (await redisNow(channel.connection)) - 1, '1');
      await redis.del(channel.keys.marker);
      const seq = Number(await redis.get(channel.keys.seq));
      expect(await releaseExpiredReservation(channel, '1')).toBe(true);
      // Priority 100 (its stored priority), the next seq.
      expect(await redis.zscore(channel.keys.prioritized, '1')).toBe(String(100 * 1e12 + seq + 1));
      expect(await redis.zrange(channel.keys.marker, '0', '-1')).toEqual(['0']);
      // Priority 0, 10 and 50 jobs (4 + 4 + 1) run first, then job 1, then the default priority's.
      const order = [];
      for (let n = 0; n < 10; n++) order.push(await ngReserve(channel));
      expect(order).toEqual(['9', '14', '19', '24', '8', '13', '18', '23', '5', '1']);
    });
  });

  it('gives an ng aging job with retryPosition=original the very score the real driver gave it', async () => {
    await withChannels(['ng-aging'], async (channel) => {
      const { redis } = channel.connection;
      // Job 5 was reclaimed by the real ng once and sits where it first joined; send it back through a reservation.
      const score = await redis.zscore(channel.keys.prioritized, '5');
      await redis.zrem(channel.keys.prioritized, '5');
      await redis.zadd(channel.keys.reserved, 0, '5');
      expect(await releaseExpiredReservation(channel, '5')).toBe(true);
      expect(await redis.zscore(channel.keys.prioritized, '5')).toBe(score);
    });
  });
});

describe('reclaiming a live yii2 reservation', () => {
  it('puts a stock job on the tail of the list now; the expired reservation the next reserve moves goes ahead of it', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      expect(await reclaimReservation(channel, '1')).toBe(true);
      expect(await redis.lindex(channel.keys.waiting, -1)).toBe('1');
      expect(await redis.zscore(channel.keys.reserved, '1')).toBeNull();
      expect(await reclaimReservation(channel, '7')).toBe(false);
      expect(await stockReserve(channel)).toBe('5');
      expect(await stockReserve(channel)).toBe('1');
    });
  });

  it('lets ng join it at the back of its priority at the next reserve', async () => {
    await withChannels(['ng-strict'], async (channel) => {
      const { redis } = channel.connection;
      const seq = Number(await redis.get(channel.keys.seq));
      expect(await reclaimReservation(channel, '1')).toBe(true);
      expect(await ngReserve(channel)).toBe('9');
      expect(await redis.zscore(channel.keys.prioritized, '1')).toBe(String(100 * 1e12 + seq + 1));
    });
  });
});

describe('promoting due yii2 delayed jobs in bounded steps', () => {
  /** Makes jobs due at these seconds before now. */
  async function makeDue(channel: Yii2Channel, ago: Record<string, number>): Promise<void> {
    const now = await redisNow(channel.connection);
    for (const [id, seconds] of Object.entries(ago)) await channel.connection.redis.zadd(channel.keys.delayed, 'XX', now - seconds, id);
  }

  for (const name of ['stock', 'ng-strict', 'ng-aging'] as const) {
    it(`builds in ${name} the line the driver's own mover builds in one go`, async () => {
      await withChannels([name, name], async (stepped, oracle) => {
        // Two pairs of equal due seconds, one of them across the step boundary: ids 10 and 26 share one second.
        const due = { 11: 40, 15: 30, 16: 30, 20: 20, 10: 10, 26: 10 };
        await makeDue(stepped!, due);
        await makeDue(oracle!, due);
        const steps = [];
        for (;;) {
          const step = await promoteDueJobs(stepped!, 2);
          steps.push(step);
          if (step.stillDue === 0) break;
        }
        expect(steps).toEqual([
          { moved: 2, stillDue: 4 },
          { moved: 2, stillDue: 2 },
          { moved: 2, stillDue: 0 },
        ]);
        expect(await promoteDueJobs(stepped!, 2)).toEqual({ moved: 0, stillDue: 0 });
        // The stock mover runs inside a reserve, ng's settle inside a reserve too: both lines as the next reserve finds them.
        if (stepped!.driver === 'yii2-ng') await ngSettle(oracle!);
        else await stockReserve(oracle!).then(async (first) => expect(await stockReserve(stepped!)).toBe(first));
        const lineOf = (channel: Yii2Channel) =>
          channel.driver === 'yii2-ng'
            ? channel.connection.redis.zrange(channel.keys.prioritized, '0', '-1', 'WITHSCORES')
            : channel.connection.redis.lrange(channel.keys.waiting, 0, -1);
        expect(await lineOf(stepped!)).toEqual(await lineOf(oracle!));
        const order: (string | null)[] = [];
        for (let n = 0; n < 6; n++) order.push(await driverReserve(stepped!));
        if (stepped!.driver === 'yii2') {
          // Earliest due first, equal seconds in Redis' text order as the stock mover moves them (expired job 5 went first).
          expect(order).toEqual(['11', '15', '16', '20', '10', '26']);
        } else {
          const oracleOrder = [];
          for (let n = 0; n < 6; n++) oracleOrder.push(await driverReserve(oracle!));
          expect(order).toEqual(oracleOrder);
        }
      });
    });
  }

  it('places an ng strict due job at the back of its priority as of its due second', async () => {
    await withChannels(['ng-strict'], async (channel) => {
      const { redis } = channel.connection;
      await makeDue(channel, { 26: 5 });
      const seq = Number(await redis.get(channel.keys.seq));
      expect(await promoteDueJobs(channel)).toEqual({ moved: 1, stillDue: 0 });
      expect(await redis.zscore(channel.keys.prioritized, '26')).toBe(String(1024 * 1e12 + seq + 1));
      expect(await redis.zscore(channel.keys.delayed, '26')).toBeNull();
    });
  });
});

describe('running a yii2 delayed job now', () => {
  it('puts it on the tail of the stock list now, where a job due this second goes, and leaves a due one to the mover', async () => {
    await withChannels(['stock'], async (channel) => {
      const { redis } = channel.connection;
      expect(await runDelayedNow(channel, '26')).toBe(true);
      expect(await redis.lindex(channel.keys.waiting, -1)).toBe('26');
      expect(await redis.zscore(channel.keys.delayed, '26')).toBeNull();
      expect(await runDelayedNow(channel, '7')).toBe(false);
      const dueScore = String((await redisNow(channel.connection)) - 1);
      await redis.zadd(channel.keys.delayed, 'XX', dueScore, '11');
      expect(await runDelayedNow(channel, '11')).toBe(true);
      expect(await redis.zscore(channel.keys.delayed, '11')).toBe(dueScore);
      // The next mover pushes due job 11 and then expired job 5 behind it, nearer the tail, as it would ahead of a job due this second.
      expect(await stockReserve(channel)).toBe('5');
      expect(await stockReserve(channel)).toBe('11');
      expect(await stockReserve(channel)).toBe('26');
    });
  });

  it("joins it to ng's line as a job due this second, with the score ng's own settle gives it", async () => {
    await withChannels(['ng-aging', 'ng-aging'], async (channel, oracle) => {
      const { redis } = channel!.connection;
      await earlyInASecond(channel!.connection);
      expect(await runDelayedNow(channel!, '11')).toBe(true);
      expect(await redis.zscore(channel!.keys.delayed, '11')).toBeNull();
      const now = await redisNow(channel!.connection);
      await redis.zadd(oracle!.keys.delayed, 'XX', now, '11');
      await ngSettle(oracle!);
      expect(await redis.zscore(channel!.keys.prioritized, '11')).toBe(await redis.zscore(oracle!.keys.prioritized, '11'));
    });
  });
});
