import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { DEFAULT_YII2_NG_SETTINGS, type Yii2NgSettings } from '../settings';
import { Yii2Keys } from './keys';
import { decodeNgScore, readRunOrder, ROW_COPY_LIMIT_BYTES } from './line';
import { hugeMessage, testChannelFactory } from './test-channel';
import { driverOf, loadYii2Fixture, YII2_FIXTURES, type Yii2Expected } from './test-fixtures';

const openChannel = testChannelFactory();

const strict = DEFAULT_YII2_NG_SETTINGS;
const aging: Yii2NgSettings = { ...DEFAULT_YII2_NG_SETTINGS, aging: 1, retryPosition: 'original' };

/** The settings a fixture's queue component ran with (Redis stores none of them). */
function settingsOf(expected: Yii2Expected): Yii2NgSettings | null {
  const config = expected.config as Yii2Expected['config'] & Partial<Yii2NgSettings>;
  return driverOf(expected) === 'yii2-ng'
    ? {
        defaultPriority: config.defaultPriority!,
        aging: config.aging!,
        retryPosition: config.retryPosition!,
        delayPosition: config.delayPosition!,
        batchSize: config.batchSize!,
      }
    : null;
}

describe('decodeNgScore, on the scores the spec worked out by hand', () => {
  it('splits a strict score into its priority and join sequence', () => {
    expect(decodeNgScore('10000000000012', 10, strict)).toEqual({ score: '10000000000012', seq: 12, scorePriority: 10, joinedAtMs: null });
    expect(decodeNgScore('13', 0, strict)).toEqual({ score: '13', seq: 13, scorePriority: 0, joinedAtMs: null });
    expect(decodeNgScore('9000999999999999', 9000, strict)).toMatchObject({ seq: 999999999999, scorePriority: 9000 });
  });

  it('gives an aging score its join time from the priority and agingMs', () => {
    // HARNESS: job 8, priority 0, aging 1, rank 1796113170412:8.
    expect(decodeNgScore('61873736101896', 0, aging)).toEqual({ score: '61873736101896', seq: 8, scorePriority: null, joinedAtMs: 1796113170412 });
    // The same join at priority 10 scores 10 × 1000 ms later.
    const later = (1796113170412 - 1735689600000 + 10 * 1000) * 1024 + 8;
    expect(decodeNgScore(String(later), 10, aging).joinedAtMs).toBe(1796113170412);
    expect(decodeNgScore(String(later), 10, { ...aging, aging: 0.0015 }).joinedAtMs).toBe(1796113170412 + 10 * 1000 - 10 * 2);
  });
});

describe('readRunOrder, against what the real drivers wrote', () => {
  for (const name of YII2_FIXTURES) {
    it(`lists ${name}'s waiting jobs in the order the driver pops them, with their attempts, priority and class`, async () => {
      const { queue, keys, cleanup } = await openChannel();
      const copy = await openChannel();
      try {
        const expected = await loadYii2Fixture(queue.redis, name, keys.channel);
        const driver = driverOf(expected);
        const ng = settingsOf(expected);
        const order = await readRunOrder(queue, keys, driver, ng);

        // What the driver itself would take next, popped from a copy of the same data.
        await loadYii2Fixture(copy.queue.redis, name, copy.channel);
        const copyKeys = new Yii2Keys(copy.channel);
        const popped: string[] = [];
        for (;;) {
          const next = driver === 'yii2-ng' ? (await copy.queue.redis.zpopmin(copyKeys.prioritized))[0] : await copy.queue.redis.rpop(copyKeys.waiting);
          if (!next) break;
          popped.push(next);
        }
        expect(order.line.rows.map((row) => row.id)).toEqual(popped);
        expect(order.line.total).toBe(expected.statistics.waiting);
        expect(order.line.rows.map((row) => row.place)).toEqual(popped.map((_, i) => i + 1));
        const ready = Object.entries(expected.jobs)
          .filter(([, job]) => job.state === 'ready' || job.state === 'ready-retry')
          .map(([id]) => id);
        expect([...popped].sort()).toEqual(ready.sort());

        for (const row of order.line.rows) {
          const job = expected.jobs[row.id]!;
          expect(row.attempts, `job ${row.id}`).toBe(job.attempts ?? 0);
          expect(row.className).toBe(row.id === '5' ? 'harness\\jobs\\FailingJob' : 'harness\\jobs\\NoteJob');
          expect(row.ttr).toBe(row.id === '5' ? 2 : 300);
          expect(row.dangling).toBe(false);
          expect(row.messageLength).toBeGreaterThan(50);
          if (ng === null) {
            expect(row).toMatchObject({ priority: null, priorityStored: false, score: null });
            continue;
          }
          expect(row.priority, `job ${row.id}`).toBe(job.priority);
          expect(row.priorityStored).toBe(job.priority !== ng.defaultPriority);
          if (ng.aging === 0) expect(row.score?.scorePriority, `job ${row.id}`).toBe(job.priority);
        }
        expect(order.takeover).toEqual(ng === null ? null : { total: 0, offset: 0, rows: [] });
        if (name === 'ng-aging') {
          // retryPosition=original keeps each job's join in `ranks` (shifted with the load): the decoded score must give the same moment.
          const ranks = await queue.redis.hgetall(keys.ranks);
          for (const row of order.line.rows) {
            const [joinedMs, seq] = ranks[row.id]!.split(':').map(Number);
            expect(row.score, `job ${row.id}`).toMatchObject({ joinedAtMs: joinedMs, seq: seq! % 1024 });
          }
        }

        const page = await readRunOrder(queue, keys, driver, ng, { offset: 5, limit: 3 });
        expect(page.line).toMatchObject({ total: expected.statistics.waiting, offset: 5 });
        expect(page.line.rows.map((row) => [row.place, row.id])).toEqual(popped.slice(5, 8).map((id, i) => [6 + i, id]));
        expect((await readRunOrder(queue, keys, driver, ng, { offset: 100, limit: 10 })).line.rows).toEqual([]);
      } finally {
        await cleanup();
        await copy.cleanup();
      }
    });
  }
});

describe('readRunOrder on channels no driver left so', () => {
  it('lists the stock ids ng will take over, tail first, at the priority they will join with', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      await queue.redis
        .multi()
        .hset(keys.messages, '1', '300;N;', '2', '300;N;', '3', '60;O:3:"Foo":0:{}')
        .lpush(keys.waiting, '1', '2', '3')
        .zadd(keys.prioritized, 5, '9')
        .hset(keys.priorities, '2', '7')
        .exec();
      const order = await readRunOrder(queue, keys, 'yii2-ng', null);
      expect(order.takeover).toMatchObject({
        total: 3,
        rows: [
          { id: '1', place: 1, priority: 1024 },
          { id: '2', place: 2, priority: 7, priorityStored: true },
          { id: '3', place: 3, className: 'Foo', ttr: 60 },
        ],
      });
      // Job 9 has no message: ng's reserve would discard it silently.
      expect(order.line.rows).toMatchObject([{ id: '9', place: 1, dangling: true, messageLength: null, className: null, score: { seq: 5, scorePriority: 0 } }]);
      // Read as the stock driver, the list is the line and prioritized is not its.
      const stock = await readRunOrder(queue, keys, 'yii2', null, { limit: 2 });
      expect(stock).toMatchObject({
        takeover: null,
        line: {
          total: 3,
          rows: [
            { id: '1', priority: null },
            { id: '2', priority: null },
          ],
        },
      });
    } finally {
      await cleanup();
    }
  });

  it('refuses a key of the wrong type with an error that names it, and a page out of bounds', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      await queue.redis.set(keys.waiting, 'not a list');
      await expect(readRunOrder(queue, keys, 'yii2', null)).rejects.toThrow(
        new QueueError(`The key ${keys.waiting} holds the wrong Redis type for the queue layout; nothing was changed. Inspect or remove that key.`),
      );
      await expect(readRunOrder(queue, keys, 'yii2', null, { limit: 101 })).rejects.toThrow('The page size must be a whole number from 0 to 100, not 101');
      await expect(readRunOrder(queue, keys, 'yii2', null, { offset: -1 })).rejects.toThrow('The offset must be a whole number from 0, not -1');
      // The due and expired jobs are counted from the delayed and reserved sets: those are checked too.
      await queue.redis.del(keys.waiting);
      await queue.redis.set(keys.reserved, 'not a sorted set');
      await expect(readRunOrder(queue, keys, 'yii2-ng', null)).rejects.toThrow(`The key ${keys.reserved} holds the wrong Redis type`);
    } finally {
      await cleanup();
    }
  });

  it('leaves a 20 MB message unread in a list, reads one at the copy limit, and shows bytes that are not UTF-8', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      const { message: big } = hugeMessage(0xff);
      const atLimit = Buffer.concat([Buffer.from('7;O:3:"Big":0:{}'), Buffer.alloc(ROW_COPY_LIMIT_BYTES - 16, 0x20)]);
      expect(atLimit.length).toBe(ROW_COPY_LIMIT_BYTES);
      await queue.redis.hset(
        keys.messages,
        '1',
        big,
        '2',
        Buffer.concat([Buffer.from('9;O:4:"A\\'), Buffer.from([0xe9]), Buffer.from('b":0:{}')]),
        '3',
        atLimit,
      );
      await queue.redis.lpush(keys.waiting, '1', '2', '3');
      const { line } = await readRunOrder(queue, keys, 'yii2', null);
      expect(line.rows).toMatchObject([
        { id: '1', messageLength: big.length, messageUnread: true, className: null, ttr: null, dangling: false },
        { id: '2', messageUnread: false, className: 'A\\\\xE9b', ttr: 9 },
        { id: '3', messageLength: ROW_COPY_LIMIT_BYTES, messageUnread: false, className: 'Big', ttr: 7 },
      ]);
    } finally {
      await cleanup();
    }
  });
});
