import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../staticphp/test-redis';
import { copyYii2Job, type Yii2Channel } from './repairs';
import { driverAcknowledge, driverReserve, withFixtureChannels } from './test-drivers';
import type { Yii2FixtureName } from './test-fixtures';
import { queuelens } from '../../../bin/test-cli';

const openQueue = testQueueFactory();

const withChannel = (name: Yii2FixtureName, test: (channel: Yii2Channel) => Promise<void>) => withFixtureChannels(openQueue, [name], test);

/** Every entry a job has in the channel, its message's bytes included. */
async function entriesOf({ connection: { redis }, keys }: Yii2Channel, id: string) {
  return {
    message: await redis.hgetBuffer(keys.messages, id),
    waiting: (await redis.lpos(keys.waiting, id)) !== null,
    prioritized: await redis.zscore(keys.prioritized, id),
    delayed: await redis.zscore(keys.delayed, id),
    attempts: await redis.hget(keys.attempts, id),
    priority: await redis.hget(keys.priorities, id),
    rank: await redis.hget(keys.ranks, id),
  };
}

/** Reserves and acknowledges every job the channel's own driver hands out (lib/layouts/yii2/test-drivers.ts); the ids in the order it ran them. */
async function drain(channel: Yii2Channel): Promise<string[]> {
  const ran: string[] = [];
  for (let id = await driverReserve(channel); id !== null; id = await driverReserve(channel)) {
    ran.push(id);
    await driverAcknowledge(channel, id);
  }
  return ran;
}

const times = (ran: string[], id: string) => ran.filter((one) => one === id).length;

describe('Run a copy of a yii2 job', () => {
  // Job 8 waits in line in both fixtures; under ng its priority 10 is stored.
  for (const fixture of ['stock', 'ng-strict'] as const) {
    it(`copies a ${fixture} job's exact bytes under the channel's next id, placed as the driver's push places it, and the driver runs the copy once with the original untouched`, async () => {
      await withChannel(fixture, async (channel) => {
        const { redis } = channel.connection;
        // A message that is no UTF-8, with markup: a copy made through a JS string would change it.
        await redis.hset(channel.keys.messages, '8', Buffer.from('300;\xff\xfe<b>x</b>', 'latin1'));
        const before = await entriesOf(channel, '8');
        const lastId = Number(await redis.get(channel.keys.messageId));

        const copied = await copyYii2Job(channel, '8', { delaySeconds: 0 });
        expect(copied).toEqual({ outcome: 'copied', id: String(lastId + 1) });
        const delayed = await copyYii2Job(channel, '8', { delaySeconds: 3600 });
        expect(delayed).toEqual({ outcome: 'copied', id: String(lastId + 2) });
        expect(await entriesOf(channel, '8')).toEqual(before);

        const copy = await entriesOf(channel, String(lastId + 1));
        expect(copy.message).toEqual(before.message);
        expect(copy.attempts).toBeNull();
        if (fixture === 'stock') {
          // LPUSH: the head of the list, which runs last.
          expect(await redis.lindex(channel.keys.waiting, 0)).toBe(String(lastId + 1));
        } else {
          expect(copy.priority).toBe('10');
          expect(Math.floor(Number(copy.prioritized) / 1e12)).toBe(10);
          expect(await redis.zcard(channel.keys.marker)).toBe(1);
        }
        const [seconds] = await redis.time();
        // The Redis second of the copy, read before this one.
        expect(Number(seconds) + 3600 - Number(await redis.zscore(channel.keys.delayed, String(lastId + 2)))).toBeOneOf([0, 1]);

        const ran = await drain(channel);
        expect([times(ran, '8'), times(ran, String(lastId + 1)), times(ran, String(lastId + 2))]).toEqual([1, 1, 0]);
      });
    });
  }

  it('copies a JSON-serialized message with its body edited, and refuses an edit of a PHP-serialized one, an edit that is no job, a message with no TTR and a job gone', async () => {
    await withChannel('ng-json-serializer', async (channel) => {
      const { redis } = channel.connection;
      const original = (await redis.hget(channel.keys.messages, '8'))!;
      const ttr = /^(\d+);/.exec(original)![1];
      const body = '{"class":"harness\\\\jobs\\\\NoteJob","name":"edited <b>x</b>","data":{"i":8}}';
      const copied = await copyYii2Job(channel, '8', { delaySeconds: 0, body });
      expect(copied.outcome).toBe('copied');
      const id = (copied as { id: string }).id;
      expect(await redis.hget(channel.keys.messages, id)).toBe(`${ttr};${body}`);
      expect(await redis.hget(channel.keys.messages, '8')).toBe(original);
      expect(await copyYii2Job(channel, '8', { delaySeconds: 0, body: '[1, 2]' })).toEqual({ outcome: 'bad-edit' });
      expect(await copyYii2Job(channel, '8', { delaySeconds: 0, body: '{"class": ' })).toEqual({ outcome: 'bad-edit' });

      // A message no index holds, so that the driver's reserve below never meets it.
      await redis.hset(channel.keys.messages, '900', 'O:8:"stdClass":0:{}');
      expect(await copyYii2Job(channel, '900', { delaySeconds: 0 })).toEqual({ outcome: 'no-ttr' });
      expect(await copyYii2Job(channel, '404', { delaySeconds: 0 })).toEqual({ outcome: 'gone' });
      const ran = await drain(channel);
      expect(times(ran, id)).toBe(1);
    });
    await withChannel('stock', async (channel) => {
      const lastId = await channel.connection.redis.get(channel.keys.messageId);
      expect(await copyYii2Job(channel, '8', { delaySeconds: 0, body: '{"class":"App\\\\Job"}' })).toEqual({ outcome: 'not-json' });
      expect(await channel.connection.redis.get(channel.keys.messageId)).toBe(lastId);
    });
  });

  it('is queuelens copy QUEUE ID [--delay S] in a shell: the copy is run once by the driver, and a job gone is refused with exit 1', async () => {
    await withChannel('stock', async (channel) => {
      const { redis } = channel.connection;
      const lastId = Number(await redis.get(channel.keys.messageId));
      const args = ['--layout', 'yii2', '--channel', channel.keys.channel];
      const copied = await queuelens('copy', channel.keys.channel, '8', '--delay', '0', ...args);
      expect(copied).toEqual({ code: 0, stdout: `Copied job 8 of ${channel.keys.channel} as job ${lastId + 1}\n`, stderr: '' });
      expect(await redis.hget(channel.keys.messages, String(lastId + 1))).toBe(await redis.hget(channel.keys.messages, '8'));
      const gone = await queuelens('copy', channel.keys.channel, '404', ...args);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^queuelens: Job 404 was not copied: /);
      expect(times(await drain(channel), String(lastId + 1))).toBe(1);
    });
  }, 90_000);
});
