import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../staticphp/test-redis';
import { runYii2Doctor, startYii2Doctor, yii2DoctorStep, yii2LayoutDoctor, type Yii2Finding } from './doctor';
import { applyYii2Repairs, type Yii2Channel } from './repairs';
import { driverReserve, ngReserve, openFixtureChannel, stockReserve } from './test-drivers';
import { YII2_FIXTURES, type Yii2FixtureName } from './test-fixtures';

const openQueue = testQueueFactory();

async function withChannel(name: Yii2FixtureName, test: (channel: Yii2Channel) => Promise<void>): Promise<void> {
  const { channel, cleanup } = await openFixtureChannel(await openQueue(), name);
  try {
    await test(channel);
  } finally {
    await cleanup();
  }
}

/** The check with suspects read again at once: the tests change nothing between the two reads. */
function check(channel: Yii2Channel): Promise<Yii2Finding[]> {
  return runYii2Doctor(channel, { confirmAfterMs: 0 });
}

const summary = (findings: readonly { kind: string; subject: string }[]) => findings.map(({ kind, subject }) => `${kind} ${subject}`).sort();

/** Applies every repair the findings propose; each must change something. */
async function repairAll(channel: Yii2Channel, findings: Yii2Finding[]): Promise<void> {
  const repairs = findings.flatMap(({ repair }) => (repair ? [repair] : []));
  expect(repairs.length).toBeGreaterThan(0);
  expect(await applyYii2Repairs(channel, repairs)).toEqual(repairs.map(() => true));
  // A second time each finds its condition gone.
  expect(await applyYii2Repairs(channel, repairs)).toEqual(repairs.map(() => false));
}

async function redisNow(channel: Yii2Channel): Promise<number> {
  return Number((await channel.connection.redis.time())[0]);
}

describe('the yii2 doctor on what the real drivers left', () => {
  for (const name of YII2_FIXTURES) {
    it(`finds nothing wrong in ${name}`, async () => {
      await withChannel(name, async (channel) => expect(await check(channel)).toEqual([]));
    });
  }
});

describe('the yii2 doctor on layouts broken by hand', () => {
  it('finds a stock job lost by a reserve that died after its RPOP, and requeues it in front of the line', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      expect(await redis.rpop(channel.keys.waiting)).toBe('7');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`orphan-message ${channel.keys.messages} 7`]);
      expect(findings[0]).toMatchObject({ jobId: 7, severity: 'warning', repair: { kind: 'requeue-orphan', id: '7', channel: channel.keys.channel } });
      expect(findings[0]!.explanation).toContain('read twice a few seconds apart');
      await repairAll(channel, findings);
      expect(await check(channel)).toEqual([]);
      // Due now, so the mover puts it on the tail before the expired reservation of job 5 and the reserve after that takes it.
      expect([await stockReserve(channel), await stockReserve(channel)]).toEqual(['5', '7']);
    });
  });

  it('finds an ng job lost by a reserve that failed after its ZPOPMIN, and requeues it at the back of its priority', async () => {
    await withChannel('ng-strict', async (channel) => {
      const { redis } = channel.connection;
      expect(await redis.zpopmin(channel.keys.prioritized)).toEqual(['9', '13']);
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`orphan-message ${channel.keys.messages} 9`]);
      await repairAll(channel, findings);
      expect(await check(channel)).toEqual([]);
      expect(await ngReserve(channel)).toBe('14');
      expect(await redis.zrank(channel.keys.prioritized, '9')).toBe(2);
    });
  });

  it('reports an id in two indexes, after reading it twice, and not one that moved on between the reads', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      // As a stock mover that died between its RPUSH and its ZREMRANGEBYSCORE leaves it.
      await redis.rpush(channel.keys.waiting, '10');
      await redis.rpush(channel.keys.waiting, '1');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`duplicate-id ${channel.keys.messages} 1`, `duplicate-id ${channel.keys.messages} 10`]);
      const ten = findings.find((finding) => finding.jobId === 10)!;
      expect(ten.explanation).toContain(`${channel.keys.delayed} and ${channel.keys.waiting}`);
      expect(ten.repair).toBeNull();

      // Read again after the first read: the mover's ZREM has landed meanwhile.
      let state = startYii2Doctor(0);
      const found: Yii2Finding[] = [];
      while (state.phase !== 'confirm') {
        const step = await yii2DoctorStep(channel, state);
        found.push(...step.findings);
        state = step.state;
      }
      expect(state.suspects.map(({ id }) => id).sort()).toEqual(['1', '10']);
      await redis.zrem(channel.keys.delayed, '10');
      for (;;) {
        const step = await yii2DoctorStep(channel, state);
        found.push(...step.findings);
        state = step.state;
        if (step.done) break;
      }
      expect(summary(found)).toEqual([`duplicate-id ${channel.keys.messages} 1`]);
    });
  });

  it('finds dangling ids in every index; in the stock list one ends queue/run until it is dropped', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      // Job 3 is gone (exhausted); its id is below message_id.
      await redis.rpush(channel.keys.waiting, '3');
      await redis.zadd(channel.keys.delayed, 1, '4');
      await redis.zadd(channel.keys.reserved, 1, '6');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([
        `dangling-id ${channel.keys.delayed} 4`,
        `dangling-id ${channel.keys.reserved} 6`,
        `dangling-id ${channel.keys.waiting} 3`,
        // Both were due long ago by the Redis clock.
        `overdue ${channel.keys.delayed}`,
        `overdue ${channel.keys.reserved}`,
      ]);
      expect(findings.find(({ key }) => key === channel.keys.waiting)!.explanation).toContain('ends `queue/run`');
      await repairAll(channel, findings);
      expect(await check(channel)).toEqual([]);
      expect(await stockReserve(channel)).toBe('5');
      expect(await stockReserve(channel)).toBe('7');
    });
  });

  it("finds a dangling id in ng's line and drops it", async () => {
    await withChannel('ng-strict', async (channel) => {
      await channel.connection.redis.zadd(channel.keys.prioritized, 0, '3');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`dangling-id ${channel.keys.prioritized} 3`]);
      await repairAll(channel, findings);
      expect(await channel.connection.redis.zscore(channel.keys.prioritized, '3')).toBeNull();
      expect(await ngReserve(channel)).toBe('9');
    });
  });

  it('reports a message without its <ttr>; prefix, without a repair', async () => {
    for (const name of ['stock', 'ng-json-serializer'] as const) {
      await withChannel(name, async (channel) => {
        await channel.connection.redis.hset(channel.keys.messages, '12', 'O:8:"stdClass":0:{}');
        await channel.connection.redis.hset(channel.keys.messages, '13', '0;{}');
        const findings = await check(channel);
        expect(summary(findings)).toEqual([`invalid-message ${channel.keys.messages} 12`, `invalid-message ${channel.keys.messages} 13`]);
        expect(findings.every(({ repair }) => repair === null)).toBe(true);
        expect(findings[0]!.explanation).toContain(channel.driver === 'yii2-ng' ? 'the job becomes an orphan' : 'InvalidJobException');
      });
    }
  });

  it('finds attempts, priorities and ranks left for gone jobs and deletes them', async () => {
    await withChannel('ng-aging', async (channel) => {
      const { redis } = channel.connection;
      await redis.hset(channel.keys.attempts, '3', '1');
      await redis.hset(channel.keys.priorities, '3', '300');
      await redis.hset(channel.keys.ranks, '4', '1796113170412:3');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([
        `leaked-entry ${channel.keys.attempts} 3`,
        `leaked-entry ${channel.keys.priorities} 3`,
        `leaked-entry ${channel.keys.ranks} 4`,
      ]);
      await repairAll(channel, findings);
      expect(await check(channel)).toEqual([]);
      expect(await redis.hget(channel.keys.priorities, '5')).toBe('50');
    });
  });

  it('raises a message_id below the highest id, and never lowers it', async () => {
    await withChannel('ng-strict', async (channel) => {
      const { redis } = channel.connection;
      await redis.set(channel.keys.messageId, '20');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`message-id-behind ${channel.keys.messageId}`]);
      expect(findings[0]!.repair).toEqual({ kind: 'raise-message-id', to: 26, channel: channel.keys.channel });
      await repairAll(channel, findings);
      expect(await redis.get(channel.keys.messageId)).toBe('26');
      expect(await applyYii2Repairs(channel, [{ kind: 'raise-message-id', to: 3 }])).toEqual([false]);
      expect(await redis.get(channel.keys.messageId)).toBe('26');
      expect(await check(channel)).toEqual([]);
    });
  });

  it('deletes a moving_lock that never expires, and leaves one that does', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      await redis.set(channel.keys.movingLock, '1', 'EX', 30);
      expect(await check(channel)).toEqual([]);
      await redis.persist(channel.keys.movingLock);
      // While it stays, the stock reserve never moves the expired job 5.
      expect(await stockReserve(channel)).toBe('7');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`stuck-moving-lock ${channel.keys.movingLock}`]);
      await repairAll(channel, findings);
      expect(await redis.exists(channel.keys.movingLock)).toBe(0);
      expect(await stockReserve(channel)).toBe('5');
    });
  });

  it("reports an ng strict score outside its priority's band", async () => {
    await withChannel('ng-strict', async (channel) => {
      // Job 7 has the default priority, 1024; as if a process ran with defaultPriority 5.
      await channel.connection.redis.zadd(channel.keys.prioritized, 'XX', 5e12 + 30, '7');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`score-outside-band ${channel.keys.prioritized} 7`]);
      expect(findings[0]!.explanation).toContain("priority 5's band");
      expect(findings[0]!.repair).toBeNull();
    });
  });

  it('reports keys of the wrong type and still checks the rest', async () => {
    await withChannel('ng-strict', async (channel) => {
      const { redis } = channel.connection;
      await redis.set(channel.keys.delayed, 'not a set');
      await redis.sadd(channel.keys.ranks, 'x');
      await redis.hset(channel.keys.attempts, '4', '1');
      await redis.hset(channel.keys.movingLock, 'somebody', 'else');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([
        `leaked-entry ${channel.keys.attempts} 4`,
        `wrong-type ${channel.keys.delayed}`,
        `wrong-type ${channel.keys.movingLock}`,
        `wrong-type ${channel.keys.ranks}`,
      ]);
      expect(findings.filter(({ kind }) => kind === 'wrong-type').every(({ repair }) => repair === null)).toBe(true);
      // A hash without expiry at moving_lock is no lock a clear() left: the lock repair leaves it.
      expect(await applyYii2Repairs(channel, [{ kind: 'drop-stuck-lock' }])).toEqual([false]);
      expect(await redis.exists(channel.keys.movingLock)).toBe(1);
    });
  });

  it("tells, as info, of ng jobs in the stock list and of ng's line without its marker, and re-arms it", async () => {
    await withChannel('ng-strict', async (channel) => {
      const { redis } = channel.connection;
      await redis.zrem(channel.keys.prioritized, '22');
      await redis.lpush(channel.keys.waiting, '22');
      await redis.del(channel.keys.marker);
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`line-without-marker ${channel.keys.marker}`, `stock-list-under-ng ${channel.keys.waiting}`]);
      expect(findings.every(({ severity }) => severity === 'info')).toBe(true);
      await repairAll(channel, findings);
      expect(await redis.zrange(channel.keys.marker, '0', '-1')).toEqual(['0']);
      expect(summary(await check(channel))).toEqual([`stock-list-under-ng ${channel.keys.waiting}`]);
      expect(await ngReserve(channel)).toBe('9');
    });
  });

  it('tells of a reservation expiring later than its TTR allows (a worker clock ahead of Redis)', async () => {
    await withChannel('stock', async (channel) => {
      // Job 1's TTR is 30 s.
      await channel.connection.redis.zadd(channel.keys.reserved, 'XX', (await redisNow(channel)) + 3600, '1');
      const findings = await check(channel);
      expect(summary(findings)).toEqual([`reservation-beyond-ttr ${channel.keys.reserved} 1`]);
      expect(findings[0]).toMatchObject({ severity: 'info', repair: null });
    });
  });

  it('walks a channel larger than one step in bounded windows and still finds the one orphan among them', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      // 2,500 more jobs as stock pushes leave them (ids 27..2526), then job 1300 lost between HSET and LPUSH.
      const ids = Array.from({ length: 2500 }, (_, i) => String(27 + i));
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hset(channel.keys.messages, id, `300;{"i":${id}}`);
      for (const id of ids) if (id !== '1300') pipeline.lpush(channel.keys.waiting, id);
      pipeline.set(channel.keys.messageId, '2526');
      await pipeline.exec();
      const steps: string[] = [];
      const findings = await runYii2Doctor(channel, { confirmAfterMs: 0, onStep: (state) => steps.push(state.phase) });
      expect(summary(findings)).toEqual([`orphan-message ${channel.keys.messages} 1300`]);
      // 2,511 listed ids take three windows of the stock list (a state is reported after each step: the first
      // one enters the phase, the last window leaves it), and 2,523 messages more than one HSCAN step.
      expect(steps.filter((phase) => phase === 'waiting').length).toBe(3);
      expect(steps.filter((phase) => phase === 'messages').length).toBeGreaterThan(1);
    });
  });

  it('checks every channel of a connection and applies each repair in its own channel', async () => {
    const queue = await openQueue();
    const stock = await openFixtureChannel(queue, 'stock');
    const ng = await openFixtureChannel(queue, 'ng-strict');
    try {
      await queue.redis.rpop(stock.channel.keys.waiting);
      await queue.redis.zpopmin(ng.channel.keys.prioritized);
      const doctor = yii2LayoutDoctor([stock.channel, ng.channel], 0);
      const progress: string[] = [];
      expect(summary(await doctor.check((line) => progress.push(line)))).toEqual(
        [`orphan-message ${stock.channel.keys.messages} 7`, `orphan-message ${ng.channel.keys.messages} 9`].sort(),
      );
      expect(progress.at(-1)).toMatch(new RegExp(`^Checked \\d+ keys and entries of channel ${ng.channel.keys.channel}$`));
      const report = await doctor.checkAndRepair();
      expect(report.repaired.map(({ jobId }) => jobId)).toEqual([7, 9]);
      expect(await doctor.check()).toEqual([]);
      expect(await driverReserve(stock.channel)).toBe('5');
      expect(await driverReserve(ng.channel)).toBe('14');
    } finally {
      await stock.cleanup();
      await ng.cleanup();
    }
  });
});
