import { describe, expect, it } from 'vitest';
import type { TrashWrite } from '../../shapes/trash';
import { testQueueFactory } from '../staticphp/test-redis';
import { removeYii2Job, type Yii2Channel } from './repairs';
import { driverAcknowledge, driverReserve, withFixtureChannels } from './test-drivers';
import type { Yii2FixtureName } from './test-fixtures';
import { yii2Trash } from './trash';

const openQueue = testQueueFactory();

/** Runs `test` on fixture channels of its own, deleted afterwards with the trash kept under each channel's name. */
const withChannels = (names: Yii2FixtureName[], test: (...channels: Yii2Channel[]) => Promise<void>) => withFixtureChannels(openQueue, names, test);

/** A trash under the first channel's own key prefix, so that its cleanup deletes the trash too. */
function trashOf(channel: Yii2Channel, overrides: Partial<TrashWrite> = {}): TrashWrite {
  return {
    dashboardPrefix: `${channel.keys.channel}.ql:`,
    keepSeconds: 3600,
    maxEntries: 100,
    maxBytes: 1 << 30,
    who: 'alice',
    via: 'dashboard',
    ...overrides,
  };
}

/** Every entry a job has in the channel, its message's bytes included. */
async function entriesOf({ connection: { redis }, keys }: Yii2Channel, id: string) {
  return {
    message: await redis.hgetBuffer(keys.messages, id),
    delayed: await redis.zscore(keys.delayed, id),
    attempts: await redis.hget(keys.attempts, id),
    priority: await redis.hget(keys.priorities, id),
    rank: await redis.hget(keys.ranks, id),
  };
}

/** Reserves and acknowledges every job the channel's own driver hands out; the ids in the order it ran them. */
async function drain(channel: Yii2Channel): Promise<string[]> {
  const ran: string[] = [];
  for (let id = await driverReserve(channel); id !== null; id = await driverReserve(channel)) {
    ran.push(id);
    await driverAcknowledge(channel, id);
  }
  return ran;
}

describe('the yii2 trash', () => {
  // In both fixtures job 10 is delayed an hour and job 2 is reserved; 7 (stock) or 9 (ng, priority and rank stored) waits in line.
  for (const [fixture, waiting] of [
    ['stock', '7'],
    ['ng-aging', '9'],
  ] as const) {
    it(`keeps a removed ${fixture} job's message, place and entries, and restores them for its driver to run once`, async () => {
      await withChannels([fixture], async (channel) => {
        const ids = [waiting, '2', '10'];
        // A message that is no UTF-8, with HTML, which a re-encoding in JS would change.
        await channel.connection.redis.hset(channel.keys.messages, waiting, Buffer.from('300;\xff\xfe<b>x</b>', 'latin1'));
        const before = new Map(await Promise.all(ids.map(async (id) => [id, await entriesOf(channel, id)] as const)));
        const trash = trashOf(channel);
        const bin = yii2Trash(channel.connection, [channel]);

        for (const id of ids) expect(await removeYii2Job(channel, id, trash)).toBe(true);
        for (const id of ids) expect(await entriesOf(channel, id)).toEqual({ message: null, delayed: null, attempts: null, priority: null, rank: null });
        const rows = (await bin.list(trash, 0, 10)).rows;
        expect(new Map(rows.map((row) => [row.id, { from: row.from, queue: row.queue, who: row.who }]))).toEqual(
          new Map([
            [waiting, { from: 'ready', queue: channel.keys.channel, who: 'alice' }],
            ['2', { from: 'reserved', queue: channel.keys.channel, who: 'alice' }],
            ['10', { from: 'delayed', queue: channel.keys.channel, who: 'alice' }],
          ]),
        );
        expect(rows.find((row) => row.id === '10')).toMatchObject({ name: 'harness\\jobs\\NoteJob', score: before.get('10')!.delayed });

        expect(await bin.restore(trash, ids)).toEqual(ids.map((id) => ({ id, outcome: 'restored', queue: channel.keys.channel })));
        for (const id of ids) expect(await entriesOf(channel, id)).toEqual(before.get(id));
        const ran = await drain(channel);
        expect(ran.filter((id) => id === waiting || id === '2').sort()).toEqual(['2', waiting].sort());
        expect(ran).not.toContain('10');
        expect(await channel.connection.redis.zscore(channel.keys.delayed, '10')).toBe(before.get('10')!.delayed);
        expect(await bin.list(trash, 0, 10)).toMatchObject({ rows: [], total: 0 });
      });
    });
  }

  it('lists the same id of two channels apart, restores only the one named, and refuses an id that has a message again', async () => {
    await withChannels(['stock', 'stock'], async (first, second) => {
      const trash = trashOf(first);
      const bin = yii2Trash(first.connection, [first, second]);
      expect(await removeYii2Job(first, '7', trash)).toBe(true);
      expect(await removeYii2Job(second, '7', trash)).toBe(true);
      const listed = [bin.listedId(first.keys.channel, '7'), bin.listedId(second.keys.channel, '7')];
      expect((await bin.list(trash, 0, 10)).rows.map((row) => row.id).sort()).toEqual([...listed].sort());
      expect((await bin.list(trash, 1, 10)).rows).toHaveLength(1);

      await first.connection.redis.hset(first.keys.messages, '7', 'written by hand');
      expect(await bin.restore(trash, [...listed, 'nowhere:7'])).toMatchObject([
        { id: listed[0], outcome: 'id-taken' },
        { id: listed[1], outcome: 'restored' },
        { id: 'nowhere:7', outcome: 'gone' },
      ]);
      expect(await first.connection.redis.hget(first.keys.messages, '7')).toBe('written by hand');
      expect(await second.connection.redis.lindex(second.keys.waiting, -1)).toBe('7');
      expect((await bin.list(trash, 0, 10)).rows.map((row) => row.id)).toEqual([listed[0]]);
    });
  });

  it('deletes for good with no keep time', async () => {
    await withChannels(['stock'], async (channel) => {
      const trash = trashOf(channel, { keepSeconds: 0 });
      expect(await removeYii2Job(channel, '7', trash)).toBe(true);
      expect(await channel.connection.redis.hexists(channel.keys.messages, '7')).toBe(0);
      expect((await yii2Trash(channel.connection, [channel]).list(trashOf(channel), 0, 10)).rows).toEqual([]);
    });
  });
});
