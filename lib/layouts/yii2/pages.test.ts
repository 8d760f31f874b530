import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { testQueueFactory } from '../staticphp/test-redis';
import { isAbsent, type QueueLayout } from '../adapter';
import { PAGE_ROWS, type DueTimelineReader, type ExpiringReservationsReader, type JobLineReader, type JobSnapshotReader } from '../pages';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { snapshotsOrThrow } from '../test-pages';
import { DEFAULT_YII2_NG_SETTINGS } from '../settings';
import { staticphpLayout } from '../staticphp/layout';
import { yii2Layout } from './layout';
import { YII2_GONE, YII2_NO_HOLDER } from './reads';
import { Yii2Keys } from './keys';
import { testChannelFactory } from './test-channel';
import type { Yii2Channel } from './repairs';
import { driverPush, driverReserve } from './test-drivers';
import { readYii2Messages } from './test-messages';
import { driverOf, loadYii2Fixture, yii2Settings } from './test-fixtures';

const openChannel = testChannelFactory();
const openQueue = testQueueFactory();
const [message] = readYii2Messages('stock').values();

function present<T extends object>(capability: T | { absent: string }): T {
  if (isAbsent(capability)) throw new Error(`absent: ${capability.absent}`);
  return capability;
}

/** A layout over one fixture's channel, with the four layout-neutral readers. */
async function fixtureLayout(name: 'stock' | 'ng-strict') {
  const channel = await openChannel();
  const expected = await loadYii2Fixture(channel.queue.redis, name, channel.channel);
  const driver = driverOf(expected);
  const layout: QueueLayout = yii2Layout(channel.queue, yii2Settings(driver, [channel.channel]));
  return {
    ...channel,
    expected,
    driver,
    line: present<JobLineReader>(layout.jobLine),
    reservations: present<ExpiringReservationsReader>(layout.expiringReservations),
    timeline: present<DueTimelineReader>(layout.dueTimeline),
    snapshot: snapshotsOrThrow(present<JobSnapshotReader>(layout.jobSnapshot)),
  };
}

describe('the yii2 layout’s pages, on what the real drivers wrote', () => {
  // The stock waiting list, where stock's line is and ng's ids still to be taken over (tail first): the fixture's stock line (job 7 next to run), ng's none.
  for (const { name, section, title, deepest } of [
    { name: 'stock', section: 0, title: 'Next jobs to run', deepest: '7' },
    { name: 'ng-strict', section: 1, title: 'Taken over from the stock list next', deepest: 'head-0' },
  ] as const) {
    it(`${name}: a row too deep in a long stock waiting list for a removal to reach says why in place of Remove; a row near an end does not`, async () => {
      const { queue, keys, channel, line, cleanup } = await fixtureLayout(name);
      try {
        // Ids either side of what the fixture left there, no message behind any: a list longer than twice the reach.
        const fillers = (side: string) => Array.from({ length: READY_REMOVAL_REACH + 1_000 }, (_, i) => `${side}-${i}`);
        await queue.redis.lpush(keys.waiting, ...fillers('head'));
        await queue.redis.rpush(keys.waiting, ...fillers('tail'));
        const sectionOfPage = async (page: number) => (await line.read(channel, { page })).sections[section]!;
        const deep = await sectionOfPage((READY_REMOVAL_REACH + 1_000) / PAGE_ROWS + 1);
        expect(deep.title).toBe(title);
        expect(deep.rows[0]).toMatchObject({
          id: deepest,
          place: READY_REMOVAL_REACH + 1_001,
          unremovable: expect.stringContaining('a removal looks for a job among the 5,000 nearest either end of its list'),
        });
        expect((await sectionOfPage(1)).rows.filter((row) => row.unremovable !== undefined)).toEqual([]);
      } finally {
        await cleanup();
      }
    });
  }

  for (const name of ['stock', 'ng-strict'] as const) {
    it(`${name}: the line lists the waiting jobs in the order the driver pops them, 25 a page`, async () => {
      const { queue, keys, channel, expected, driver, line, cleanup } = await fixtureLayout(name);
      try {
        // Read without taking: stock pops the list's tail, ng the lowest score.
        const order =
          driver === 'yii2-ng' ? await queue.redis.zrange(keys.prioritized, '0', '-1') : (await queue.redis.lrange(keys.waiting, '0', '-1')).reverse();
        const { queue: shown, sections } = await line.read(channel, { page: 1 });
        expect(shown).toBe(channel);
        // ng's takeover section is there only while the stock list holds ids; these captures have none.
        expect(sections).toHaveLength(1);
        const [first] = sections;
        expect(first).toMatchObject({ title: 'Next jobs to run', total: expected.statistics.waiting, offset: 0 });
        expect(first!.rows.map((row) => row.id)).toEqual(order);
        expect(first!.rows.map((row) => row.place)).toEqual(order.map((_, i) => i + 1));
        for (const row of first!.rows) {
          const job = expected.jobs[row.id]!;
          expect(row).toMatchObject({ attempts: job.attempts ?? 0, priority: driver === 'yii2-ng' ? job.priority : null, note: null });
          expect(row.name).toMatch(/^harness\\jobs\\/);
        }
        const second = await line.read(channel, { page: 2 });
        expect(second.sections[0]).toMatchObject({ total: expected.statistics.waiting, offset: 25, rows: [] });
      } finally {
        await cleanup();
      }
    });

    it(`${name}: reservations come with their expiry, since when, live or expired, and the reason no holder is named`, async () => {
      const { queue, keys, channel, expected, reservations, cleanup } = await fixtureLayout(name);
      try {
        const reserved = await queue.redis.zrange(keys.reserved, '0', '-1', 'WITHSCORES');
        const page = await reservations.read({ page: 1 });
        expect(page.holderAbsent).toBe(YII2_NO_HOLDER);
        expect(page.queues).toHaveLength(1);
        const [only] = page.queues;
        expect(only).toMatchObject({ queue: channel, total: expected.statistics.reserved, offset: 0 });
        expect(only!.live + only!.expired).toBe(only!.total);
        expect(only!.rows.map((row) => [row.id, String(row.expiresAt)])).toEqual(
          reserved.flatMap((value, i) => (i % 2 === 0 ? [[value, reserved[i + 1]]] : [])),
        );
        for (const row of only!.rows) {
          expect(row.expired).toBe(row.expiresAt! <= page.now);
          expect(row.attempts).toBe(expected.jobs[row.id]!.attempts ?? 0);
          expect(row.reservedSince).not.toBeNull();
          expect(row.reservedSince!).toBeLessThan(row.expiresAt!);
        }
        expect(only!.expired).toBe(only!.rows.filter((row) => row.expired).length);
        expect(await reservations.read({ queue: channel, page: 2 })).toMatchObject({ queues: [{ total: expected.statistics.reserved, offset: 25, rows: [] }] });
      } finally {
        await cleanup();
      }
    });

    it(`${name}: the delayed timeline has the shared buckets and the next jobs due, soonest first`, async () => {
      const { queue, keys, channel, expected, driver, timeline, cleanup } = await fixtureLayout(name);
      try {
        const soonest = await queue.redis.zrange(keys.delayed, '0', '19');
        const read = await timeline.read(channel);
        expect(read).toMatchObject({ queue: channel, total: expected.statistics.delayed, overdue: 0 });
        expect(read.hour).toHaveLength(12);
        expect(read.next.map((job) => job.id)).toEqual(soonest);
        expect(read.dueMovedBy).toMatch(
          driver === 'yii2-ng'
            ? /or a job is pushed to it: each moves up to 100 due jobs \(batchSize\) into the line.$/
            : /each reserve moves every due job onto the waiting list.$/,
        );
        for (const job of read.next) expect(job.name).toMatch(/^harness\\jobs\\/);
      } finally {
        await cleanup();
      }
    });

    it(`${name}: a job's snapshot says where it is and decodes its message; a job the driver deleted is gone`, async () => {
      const { queue, keys, channel, expected, driver, snapshot, cleanup } = await fixtureLayout(name);
      try {
        const { waiting } = expected.statistics;
        const next = driver === 'yii2-ng' ? (await queue.redis.zrange(keys.prioritized, '0', '0'))[0]! : (await queue.redis.lindex(keys.waiting, '-1'))!;
        const job = await snapshot.read(next);
        expect(job).toMatchObject({ id: next, queue: channel, status: 'placed', ttr: 300, name: 'harness\\jobs\\NoteJob' });
        expect(job.places).toHaveLength(1);
        expect(job.places[0]!.sentence).toMatch(
          driver === 'yii2-ng'
            ? new RegExp(String.raw`^in line at place 1 of ${waiting} \(1 runs next\); score \d+, join sequence \d+, scored at priority 0$`)
            : `waiting at place 1 of ${waiting} in the waiting list (1 runs next)`,
        );
        expect(job.message?.parts).toEqual([
          { label: 'TTR prefix', value: '300 s (4 bytes)' },
          { label: 'Serializer', value: 'PHP serialize()' },
          { label: 'Stored', value: `${job.message!.length.toLocaleString('en-US')} bytes` },
        ]);
        expect(job.message?.problem).toBeNull();
        expect(job.message?.data).toMatchObject({ kind: 'php', parse: { error: null, value: { type: 'object', className: 'harness\\jobs\\NoteJob' } } });

        const reserved = (await queue.redis.zrange(keys.reserved, '0', '0', 'WITHSCORES')) as [string, string];
        const held = await snapshot.read(reserved[0], channel);
        expect(held.places).toEqual([{ state: 'reserved', sentence: expect.stringMatching(/^reserved/), at: Number(reserved[1]) }]);

        expect(await snapshot.read('3')).toMatchObject({ status: 'gone', statusText: YII2_GONE, places: [], message: null });
      } finally {
        await cleanup();
      }
    });
  }
});

describe('the yii2 line’s note on due and expired jobs, against the drivers’ next reserves', () => {
  /**
   * Rows 1 and 2 in line; jobs 3 and 4 delayed and due (4 longer), 5 delayed
   * until later, 6 reserved and expired, 7 reserved and live. Job 3 has
   * priority 5 (ng runs it before the default 1024).
   */
  async function channelWithDueAndExpired(driver: 'yii2' | 'yii2-ng') {
    const opened = await openChannel();
    const { queue, keys } = opened;
    const channel: Yii2Channel = { connection: queue, driver, keys, ng: DEFAULT_YII2_NG_SETTINGS };
    for (let id = 1; id <= 7; id++) await queue.redis.hset(keys.messages, String(id), '300;N;');
    await queue.redis.incrby(keys.messageId, 7);
    for (const id of ['1', '2']) {
      if (driver === 'yii2') await queue.redis.lpush(keys.waiting, id);
      else await queue.redis.zadd(keys.prioritized, 1024 * 1e12 + Number(id), id);
    }
    if (driver === 'yii2-ng') await queue.redis.set(keys.seq, 2);
    const [seconds] = await queue.redis.time();
    const now = Number(seconds);
    await queue.redis
      .multi()
      .hset(keys.priorities, '3', '5')
      .zadd(keys.delayed, now - 5, '3', now - 20, '4', now + 600, '5')
      .zadd(keys.reserved, now - 3, '6', now + 300, '7')
      .hset(keys.attempts, '6', '1', '7', '1')
      .exec();
    const line = present<JobLineReader>(yii2Layout(queue, yii2Settings(driver, [opened.channel])).jobLine);
    return { ...opened, channel, line };
  }

  async function reserveAll(channel: Yii2Channel): Promise<string[]> {
    const taken: string[] = [];
    for (let id = await driverReserve(channel); id !== null; id = await driverReserve(channel)) taken.push(id);
    return taken;
  }

  it('stock: the jobs it counts are the next reserves, ahead of row 1, expired reservations first, then due delayed jobs, each earliest first', async () => {
    const { channel, line, cleanup } = await channelWithDueAndExpired('yii2');
    try {
      const { sections, notInLineYet } = await line.read(channel.keys.channel, { page: 1 });
      expect(sections[0]!.rows.map((row) => row.id)).toEqual(['1', '2']);
      expect(notInLineYet).toEqual({
        dueDelayed: 2,
        expiredReservations: 1,
        where: 'the next reserve puts them ahead of row 1, expired reservations first, then due delayed jobs, each earliest first',
      });
      // The stock driver's own reserves after this state: the counted jobs, in the order the note gives, then row 1.
      expect(await reserveAll(channel)).toEqual(['6', '4', '3', '1', '2']);
    } finally {
      await cleanup();
    }
  });

  it('ng: the jobs it counts join the line by priority, so one may run before row 1', async () => {
    const { channel, line, cleanup } = await channelWithDueAndExpired('yii2-ng');
    try {
      const { sections, notInLineYet } = await line.read(channel.keys.channel, { page: 1 });
      expect(sections[0]!.rows.map((row) => row.id)).toEqual(['1', '2']);
      expect(notInLineYet).toEqual({
        dueDelayed: 2,
        expiredReservations: 1,
        where: 'the next reserve or push puts them into the line by priority, ahead of row 1 where they rank before it (up to 100 of each kind at a time)',
      });
      // Job 3 (priority 5) runs before row 1; the default-priority ones join behind the rows already in line, due before expired.
      expect(await reserveAll(channel)).toEqual(['3', '1', '2', '4', '6']);
    } finally {
      await cleanup();
    }
  });

  it('says nothing when every job is in line, and one job in the singular', async () => {
    const { queue, keys, channel, cleanup } = await openChannel();
    try {
      await queue.redis.hset(keys.messages, '1', '300;N;', '2', '300;N;');
      await queue.redis.lpush(keys.waiting, '1');
      const line = present<JobLineReader>(yii2Layout(queue, yii2Settings('yii2', [channel])).jobLine);
      expect((await line.read(channel, { page: 1 })).notInLineYet).toMatchObject({ dueDelayed: 0, expiredReservations: 0 });
      await queue.redis.zadd(keys.reserved, 1, '2');
      expect((await line.read(channel, { page: 1 })).notInLineYet).toEqual({
        dueDelayed: 0,
        expiredReservations: 1,
        where: 'the next reserve puts it ahead of row 1',
      });
    } finally {
      await cleanup();
    }
  });
});

describe('the yii2 layout’s pages on channels no driver left so', () => {
  it('notes a dangling id and an unread message in the line, and decodes a message without its TTR prefix as malformed', async () => {
    const { queue, keys, channel, cleanup } = await openChannel();
    try {
      await queue.redis.hset(keys.messages, '2', Buffer.concat([Buffer.from('300;s:3:"abc";'), Buffer.alloc(70 * 1024, 0x20)]), '3', 'O:3:"Foo":0:{}');
      await queue.redis.lpush(keys.waiting, '1', '2', '3');
      const layout = yii2Layout(queue, yii2Settings('yii2', [channel]));
      const { sections } = await present<JobLineReader>(layout.jobLine).read(channel, { page: 1 });
      expect(sections[0]!.rows.map((row) => [row.id, row.note])).toEqual([
        ['1', expect.stringMatching(/^no message: the id is left in the index/)],
        ['2', expect.stringMatching(/^message over 64 KiB, not read for a list/)],
        ['3', null],
      ]);
      const malformed = await snapshotsOrThrow(present<JobSnapshotReader>(layout.jobSnapshot)).read('3');
      expect(malformed.message?.problem).toMatch(/^the message does not start with <ttr>;/);
      expect(malformed.message?.parts[0]).toEqual({ label: 'TTR prefix', value: 'none' });
      expect(malformed.ttr).toBeNull();
      expect((await snapshotsOrThrow(present<JobSnapshotReader>(layout.jobSnapshot)).read('1')).status).toBe('dangling');
    } finally {
      await cleanup();
    }
  });

  it('refuses a channel the connection does not list', async () => {
    const { queue, channel, cleanup } = await openChannel();
    try {
      const layout = yii2Layout(queue, yii2Settings('yii2-ng', [channel, `${channel}-other`]));
      const line = present<JobLineReader>(layout.jobLine);
      const refusal = await line.read('nope', { page: 1 }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QueueError);
      expect(refusal).toMatchObject({ notFound: true, message: `There is no channel "nope" on this connection: it reads ${channel}, ${channel}-other` });
      await expect(present<DueTimelineReader>(layout.dueTimeline).read('nope')).rejects.toThrow('There is no channel "nope"');
      await expect(present<ExpiringReservationsReader>(layout.expiringReservations).read({ queue: 'nope', page: 1 })).rejects.toThrow(
        'There is no channel "nope"',
      );
      // Without a queue the reservations page reads every channel.
      expect((await present<ExpiringReservationsReader>(layout.expiringReservations).read({ page: 1 })).queues.map((each) => each.queue)).toEqual([
        channel,
        `${channel}-other`,
      ]);
      // Told which queues to look in, it reads those of its channels alone.
      expect(
        (await present<ExpiringReservationsReader>(layout.expiringReservations).read({ page: 1, among: [`${channel}-other`, 'nope'] })).queues.map(
          (each) => each.queue,
        ),
      ).toEqual([`${channel}-other`]);
    } finally {
      await cleanup();
    }
  });

  it('without a channel, a job id is looked up in each channel: the one holding it is read, several are listed to pick from, none says so', async () => {
    const [first, second] = [await openChannel(), await openChannel()];
    const { queue } = first;
    try {
      const channels = [first.channel, second.channel];
      const pushTo = (channel: (typeof channels)[number]) =>
        driverPush({ connection: queue, driver: 'yii2', keys: new Yii2Keys(channel), ng: DEFAULT_YII2_NG_SETTINGS }, message!);
      // Job 1 in both channels, job 2 in the second only.
      await pushTo(first.channel);
      await pushTo(second.channel);
      await pushTo(second.channel);
      const snapshot = present<JobSnapshotReader>(yii2Layout(queue, yii2Settings('yii2', channels)).jobSnapshot);

      expect(await snapshot.read('2')).toMatchObject({ id: '2', queue: second.channel, status: 'placed' });
      expect(await snapshot.read('1')).toEqual({ id: '1', holders: channels, searched: channels });
      expect(await snapshot.read('9')).toEqual({ id: '9', holders: [], searched: channels });
      // A channel named reads that channel only, holding the id or not.
      expect(await snapshot.read('2', first.channel)).toMatchObject({ queue: first.channel, status: 'gone' });
    } finally {
      await Promise.all([first.cleanup(), second.cleanup()]);
    }
  });

  it('StaticPHP fills every page the other layouts fill', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    for (const capability of [layout.jobLine, layout.dueTimeline, layout.expiringReservations, layout.jobSnapshot, layout.keyTable])
      expect(isAbsent(capability)).toBe(false);
  });
});
