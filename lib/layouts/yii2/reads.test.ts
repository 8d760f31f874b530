import { describe, expect, it } from 'vitest';
import { TIMELINE_SCALES } from '../../shapes/delayed-timeline';
import { DEFAULT_YII2_NG_SETTINGS, type Yii2NgSettings } from '../settings';
import { MAX_WAITING_SCAN, readYii2DelayedTimeline, readYii2Job, readYii2Reservations, YII2_GONE, YII2_NO_HOLDER } from './reads';
import { hugeMessage, testChannelFactory } from './test-channel';
import { driverOf, loadYii2Fixture, YII2_FIXTURES, type LoadedYii2Fixture } from './test-fixtures';

const openChannel = testChannelFactory();

/** The settings a fixture's queue component ran with (Redis stores none of them). */
function settingsOf(expected: LoadedYii2Fixture): Yii2NgSettings | null {
  return driverOf(expected) === 'yii2-ng' ? { ...DEFAULT_YII2_NG_SETTINGS, ...(expected.config as Partial<Yii2NgSettings>) } : null;
}

const GONE_STATES = ['exhausted', 'crash-exhausted-dropped', 'retry-dropped'];
const TTR_OF: Record<string, number> = { 1: 30, 2: 600, 5: 2 };

describe('yii2 reads, against what the real drivers wrote', () => {
  for (const name of YII2_FIXTURES) {
    it(`finds every job of ${name} where the driver left it, with its attempts, priority and class`, async () => {
      const { queue, keys, cleanup } = await openChannel();
      try {
        const expected = await loadYii2Fixture(queue.redis, name, keys.channel);
        const driver = driverOf(expected);
        const ng = settingsOf(expected);
        for (const [id, job] of Object.entries(expected.jobs)) {
          const detail = await readYii2Job(queue, keys, driver, ng, id);
          const about = `${name} job ${id} (${job.state})`;
          if (GONE_STATES.includes(job.state)) {
            expect(detail, about).toMatchObject({ status: 'gone', statusText: YII2_GONE, places: [], message: null, name: null, attempts: 0, lastId: '26' });
            continue;
          }
          expect(detail.status, about).toBe('placed');
          expect(detail.attempts, about).toBe(job.attempts ?? 0);
          expect(detail.name, about).toBe(
            id === '1' ? 'harness\\jobs\\CrashJob' : id === '2' || id === '5' ? 'harness\\jobs\\FailingJob' : 'harness\\jobs\\NoteJob',
          );
          expect(detail.message).toMatchObject({ ttr: TTR_OF[id] ?? 300, cut: false });
          expect(detail.priority, about).toEqual(ng === null ? null : { value: job.priority, stored: job.priority !== ng.defaultPriority });
          const [place] = detail.places;
          switch (job.state) {
            case 'ready':
            case 'ready-retry':
              expect(place, about).toMatchObject({ state: ng === null ? 'waiting' : 'prioritized', of: expected.statistics.waiting });
              break;
            case 'delayed':
              expect(place, about).toEqual({ state: 'delayed', until: job.delayed_until_unix_s! + expected.deltaSeconds, due: false });
              break;
            case 'reserved-expired-retry':
            case 'reserved-by-killed-worker':
            case 'reserved-failed-awaiting-retry': {
              const until = job.reserved_until_unix_s! + expected.deltaSeconds;
              expect(place, about).toEqual({ state: 'reserved', until, expired: job.state === 'reserved-expired-retry', reservedSince: until - TTR_OF[id]! });
              break;
            }
            default:
              throw new Error(`${about}: a state this test does not know`);
          }
        }
        const never = await readYii2Job(queue, keys, driver, ng, '27');
        expect(never).toMatchObject({ status: 'gone', statusText: "never pushed: the channel's ids go up to 26" });
      } finally {
        await cleanup();
      }
    });

    it(`lists ${name}'s reservations and delayed jobs, as many as the driver's statistics count`, async () => {
      const { queue, keys, cleanup } = await openChannel();
      try {
        const expected = await loadYii2Fixture(queue.redis, name, keys.channel);
        const driver = driverOf(expected);
        const ng = settingsOf(expected);
        const reserved = Object.entries(expected.jobs).filter(([, job]) => job.reserved_until_unix_s !== undefined);
        const reservations = await readYii2Reservations(queue, keys, driver, ng);
        const expiredCount = reserved.filter(([, job]) => job.state === 'reserved-expired-retry').length;
        expect(reservations).toMatchObject({
          total: expected.statistics.reserved,
          expired: expiredCount,
          live: expected.statistics.reserved - expiredCount,
          holderKnown: false,
          holderAbsent: YII2_NO_HOLDER,
        });
        const soonestFirst = reserved.sort(([a, x], [b, y]) => x.reserved_until_unix_s! - y.reserved_until_unix_s! || Number(a) - Number(b));
        expect(reservations.rows.map((row) => row.id)).toEqual(soonestFirst.map(([id]) => id));
        for (const row of reservations.rows) {
          const job = expected.jobs[row.id]!;
          const expiresAt = job.reserved_until_unix_s! + expected.deltaSeconds;
          expect(row).toMatchObject({
            expiresAt,
            reservedSince: expiresAt - TTR_OF[row.id]!,
            expired: job.state === 'reserved-expired-retry',
            attempts: job.attempts,
            priority: ng === null ? null : job.priority,
          });
        }

        const timeline = await readYii2DelayedTimeline(queue, keys, driver, ng);
        expect(timeline).toMatchObject({
          queue: keys.channel,
          total: expected.statistics.delayed,
          overdue: 0,
          later: 0,
          attendance: { unattended: false, oldestOverdueAt: null, lastDeliveredEntryAt: null },
        });
        const delayed = Object.entries(expected.jobs)
          .filter(([, job]) => job.state === 'delayed')
          .sort(([a, x], [b, y]) => x.delayed_until_unix_s! - y.delayed_until_unix_s! || a.localeCompare(b));
        expect(timeline.next.map((job) => [job.id, job.dueAt])).toEqual(delayed.map(([id, job]) => [id, job.delayed_until_unix_s! + expected.deltaSeconds]));
        for (const job of timeline.next) {
          expect(job).toMatchObject({
            name: 'harness\\jobs\\NoteJob',
            className: 'harness\\jobs\\NoteJob',
            ttr: 300,
            heldBy: null,
            priority: ng === null ? null : expected.jobs[job.id]!.priority,
          });
        }
        // Each scale counts, from now, what comes due within it: jobs delayed by 60, 300, 900 and 3600 s, pushed a few seconds before the capture.
        const sum = (buckets: { count: number }[]) => buckets.reduce((total, bucket) => total + bucket.count, 0);
        expect([sum(timeline.hour), sum(timeline.day), sum(timeline.week)]).toEqual([8, 8, 8]);
        expect([timeline.hour.length, timeline.day.length, timeline.week.length]).toEqual([
          TIMELINE_SCALES.hour.count,
          TIMELINE_SCALES.day.count,
          TIMELINE_SCALES.week.count,
        ]);
        const inFirstBucket = timeline.next.filter((job) => job.dueAt > timeline.now && job.dueAt <= timeline.now + 300).length;
        expect(inFirstBucket).toBe(4);
        expect(timeline.hour[0]).toEqual({ start: timeline.now, end: timeline.now + 300, count: inFirstBucket });
      } finally {
        await cleanup();
      }
    });
  }
});

describe('yii2 reads on channels broken by hand', () => {
  it('tells an orphan, a dangling id and a job in two indexes apart', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      const [now] = await queue.redis.time();
      await queue.redis
        .multi()
        .set(keys.messageId, '3')
        .hset(keys.messages, '1', '300;N;', '3', '300;N;')
        .lpush(keys.waiting, '3', '2')
        .zadd(keys.reserved, Number(now) - 5, '3')
        .exec();
      expect(await readYii2Job(queue, keys, 'yii2', null, '1')).toMatchObject({ status: 'orphan', places: [], message: { ttr: 300 } });
      expect(await readYii2Job(queue, keys, 'yii2', null, '2')).toMatchObject({
        status: 'dangling',
        places: [{ state: 'waiting', place: 2, of: 2 }],
        message: null,
      });
      expect(await readYii2Job(queue, keys, 'yii2', null, '3')).toMatchObject({
        status: 'duplicate',
        statusText: 'in 2 indexes (waiting, reserved): it will run more than once',
        places: [
          { state: 'waiting', place: 1 },
          { state: 'reserved', until: Number(now) - 5, expired: true, reservedSince: Number(now) - 305 },
        ],
      });
      // Under ng the stock list is what ng has yet to take over.
      expect((await readYii2Job(queue, keys, 'yii2-ng', null, '3')).places[0]).toEqual({ state: 'awaiting-takeover', place: 1, of: 2 });
      await expect(readYii2Job(queue, keys, 'yii2', null, '1 OR 2')).rejects.toThrow('A yii2 job id is a whole number from 1, not "1 OR 2"');
    } finally {
      await cleanup();
    }
  });

  it(`searches the waiting list for a job's place only among the ${MAX_WAITING_SCAN} ids nearest its run end`, async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      // The first id pushed sits at the list's head, the last to run; 10 more than the scan stand before it.
      await queue.redis.hset(keys.messages, '1', '300;N;', '2', '300;N;');
      await queue.redis.lpush(keys.waiting, '1');
      const filler = Array.from({ length: 10_000 }, (_, i) => String(i + 1000));
      for (let i = 0; i < (MAX_WAITING_SCAN + 10) / filler.length; i++) await queue.redis.rpush(keys.waiting, ...filler);
      await queue.redis.rpush(keys.waiting, '2');
      const far = await readYii2Job(queue, keys, 'yii2', null, '1');
      expect(far).toMatchObject({ status: 'unsearched', places: [] });
      expect(far.statusText).toContain('beyond the first 100,000 ids from its run end');
      expect(await readYii2Job(queue, keys, 'yii2', null, '2')).toMatchObject({ status: 'placed', places: [{ state: 'waiting', place: 1 }] });
    } finally {
      await cleanup();
    }
  });

  it('reads a 20 MB message from its first 64 KiB, with bytes that are not UTF-8', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      const { message: big, blobLength } = hugeMessage(0xfe);
      await queue.redis.hset(keys.messages, '1', big);
      await queue.redis.zadd(keys.delayed, 1, '1');
      const detail = await readYii2Job(queue, keys, 'yii2', null, '1');
      expect(detail).toMatchObject({ status: 'placed', name: 'App\\Big', places: [{ state: 'delayed', until: 1, due: true }] });
      expect(detail.message).toMatchObject({ length: big.length, cut: true, ttr: 300, bodyOffset: 4 });
      expect(detail.message?.body).toMatchObject({
        serializer: 'php',
        parse: {
          error: `the data ends at byte ${64 * 1024 - 4} inside a string of ${blobLength} bytes`,
          value: { properties: [{ name: 'blob', value: { binary: true, cut: true, text: expect.stringMatching(/^(\\xFE){100}/) } }] },
        },
      });

      const timeline = await readYii2DelayedTimeline(queue, keys, 'yii2', null);
      expect(timeline).toMatchObject({
        total: 1,
        overdue: 1,
        attendance: { unattended: true, oldestOverdueAt: 1 },
        next: [{ id: '1', name: null, messageUnread: true, messageLength: big.length, dueAt: 1 }],
      });
    } finally {
      await cleanup();
    }
  });

  it('refuses keys of the wrong type with an error that names them', async () => {
    const { queue, keys, cleanup } = await openChannel();
    try {
      await queue.redis.set(keys.reserved, 'not a set');
      await queue.redis.lpush(keys.delayed, 'not a set');
      const refusal = (key: string) => `The key ${key} holds the wrong Redis type for the queue layout; nothing was changed. Inspect or remove that key.`;
      await expect(readYii2Reservations(queue, keys, 'yii2', null)).rejects.toThrow(refusal(keys.reserved));
      await expect(readYii2DelayedTimeline(queue, keys, 'yii2-ng', null)).rejects.toThrow(refusal(keys.delayed));
      await expect(readYii2Job(queue, keys, 'yii2', null, '1')).rejects.toThrow(refusal(keys.delayed));
    } finally {
      await cleanup();
    }
  });
});
