import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { testQueueFactory } from './test-redis';
import { UNATTENDED_AFTER_SECONDS } from '../../shapes/delayed-timeline';
import { readDelayedTimeline } from './delayed-timeline';

const openQueue = testQueueFactory();

const DAY = 86_400;

describe('readDelayedTimeline', () => {
  it('counts overdue jobs and what comes due per bucket over the next hour, day and week', async () => {
    const queue = await openQueue();
    const key = queue.keys.delayed('mail');
    const now = Number((await queue.redis.time())[0]);
    // Each score sits well inside its bucket, so a second passing between here and the read changes nothing.
    const scores = [now - 3600, now - 5, now + 150, now + 160, now + 1000, now + 5400, now + 2 * DAY + 100, now + 8 * DAY];
    for (const [index, score] of scores.entries()) await queue.redis.zadd(key, score, String(index + 1));
    // Job 1's holder's claim ended; job 3 is parked while its holder's claim is live.
    await queue.redis.hset(
      queue.keys.job(1),
      'name',
      'mail.oldest',
      'reserved_by',
      'deadhost:1',
      'reserved_until',
      String(now - 10),
      'attempts',
      '2',
      'priority',
      '4',
    );
    await queue.redis.hset(queue.keys.job(3), 'name', Buffer.from([0x6f, 0x6b, 0xff]), 'reserved_by', 'slowhost:1', 'reserved_until', String(now + 150));

    const timeline = await readDelayedTimeline(queue, 'mail', { limit: 3 });

    expect(timeline.now - now).toBeLessThan(5);
    expect(timeline).toMatchObject({ queue: 'mail', total: 8, overdue: 2, later: 1 });
    expect(timeline.hour.map((bucket) => bucket.count)).toEqual([2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(timeline.day.map((bucket) => bucket.count)).toEqual([3, 1, ...Array<number>(22).fill(0)]);
    expect(timeline.week.map((bucket) => bucket.count)).toEqual([4, 0, 1, 0, 0, 0, 0]);
    expect(timeline.hour[1]).toEqual({ start: timeline.now + 300, end: timeline.now + 600, count: 0 });
    expect(timeline.next).toEqual([
      { id: 1, name: 'mail.oldest', dueAt: now - 3600, attempts: 2, priority: 4, heldBy: null },
      { id: 2, name: null, dueAt: now - 5, attempts: 0, priority: null, heldBy: null },
      { id: 3, name: 'ok\\xFF', dueAt: now + 150, attempts: 0, priority: null, heldBy: { holder: 'slowhost:1', until: now + 150 } },
    ]);
    // Nobody reserved from this queue since an hour-old job came due.
    expect(timeline.attendance).toEqual({ unattended: true, oldestOverdueAt: now - 3600, lastDeliveredEntryAt: null });
  });

  it('reads an empty or missing delayed set as zeros', async () => {
    const queue = await openQueue();
    const timeline = await readDelayedTimeline(queue, 'nothing');
    expect(timeline).toMatchObject({ total: 0, overdue: 0, later: 0, next: [] });
    expect([...timeline.hour, ...timeline.day, ...timeline.week].every((bucket) => bucket.count === 0)).toBe(true);
    expect(timeline.attendance).toEqual({ unattended: false, oldestOverdueAt: null, lastDeliveredEntryAt: null });
  });

  it('does not call a queue unattended when its due jobs are recent or a stream delivered since they came due', async () => {
    const queue = await openQueue();
    const now = Number((await queue.redis.time())[0]);
    await queue.redis.zadd(queue.keys.delayed('fresh'), now - 5, '900');
    const fresh = await readDelayedTimeline(queue, 'fresh');
    expect(fresh.overdue).toBe(1);
    expect(fresh.attendance.unattended).toBe(false);

    const id = await queue.push('busy', 'work', {}, { priority: 2 });
    expect((await queue.reserve(['busy'], 'h:1', 30))?.id).toBe(id);
    // An old due score written by hand after that delivery.
    await queue.redis.zadd(queue.keys.delayed('busy'), now - UNATTENDED_AFTER_SECONDS - 600, '901');
    const busy = await readDelayedTimeline(queue, 'busy');
    expect(busy.attendance.unattended).toBe(false);
    expect(busy.attendance.lastDeliveredEntryAt).toBeGreaterThanOrEqual(now * 1000 - 1000);
    expect(busy.attendance.oldestOverdueAt).toBe(now - UNATTENDED_AFTER_SECONDS - 600);

    // The same old due job on a queue whose last delivered entry is older than it.
    await queue.redis.zadd(queue.keys.delayed('idle'), now - 7200, '903');
    await queue.redis.zadd(queue.keys.levels('idle'), 0, '0');
    await queue.redis.xadd(queue.keys.stream('idle', 0), `${(now - 9000) * 1000}-0`, 'job', '904');
    await queue.redis.xgroup('CREATE', queue.keys.stream('idle', 0), queue.settings.group, '$');
    const idle = await readDelayedTimeline(queue, 'idle');
    expect(idle.attendance).toEqual({ unattended: true, oldestOverdueAt: now - 7200, lastDeliveredEntryAt: (now - 9000) * 1000 });
  });

  it('refuses a delayed key of the wrong type with a QueueError, and tolerates a damaged levels key', async () => {
    const queue = await openQueue();
    await queue.redis.set(queue.keys.delayed('broken'), 'not a sorted set');
    await expect(readDelayedTimeline(queue, 'broken')).rejects.toThrow(QueueError);
    await expect(readDelayedTimeline(queue, 'broken')).rejects.toThrow(/WRONGTYPE/);

    await queue.redis.zadd(queue.keys.delayed('odd'), 1, '5');
    await queue.redis.set(queue.keys.levels('odd'), 'not a sorted set');
    expect((await readDelayedTimeline(queue, 'odd')).overdue).toBe(1);
  });
});
