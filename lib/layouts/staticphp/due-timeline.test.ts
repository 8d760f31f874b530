import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { testQueueFactory } from './test-redis';
import { isAbsent } from '../adapter';
import { lineRepairOrThrow } from '../line-repairs';
import { staticphpLayout } from './layout';

const openQueue = testQueueFactory();

const DAY = 86_400;

describe('the StaticPHP delayed timeline in the layout-neutral shape', () => {
  it('lists the next jobs due with attempts, level and a parked job’s holder, and says where due jobs go', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.dueTimeline)) throw new Error(layout.dueTimeline.absent);
    const now = Number((await queue.redis.time())[0]);
    const weekly = await queue.push('mail', 'report.weekly', {}, { delaySeconds: 6 * DAY, priority: 4 });
    const parked = await queue.push('mail', 'report.parked', {}, { delaySeconds: 3600 });
    await queue.redis.hset(queue.keys.job(parked), 'attempts', '1', 'reserved_by', 'slowhost:1', 'reserved_until', String(now + 3600));
    await queue.redis.zadd(queue.keys.delayed('mail'), now + 120, '9007199254740995');

    const timeline = await layout.dueTimeline.read('mail');

    expect(timeline).toMatchObject({ queue: 'mail', total: 3, overdue: 0, idsOfConnection: true, movedInto: { one: 'its level', many: 'their levels' } });
    expect(timeline.dueMovedBy).toBe('Only a worker taking a job from this queue moves them in (at most 50 each time), or you do it here.');
    expect(timeline.runNowMoves).toContain('joins the back of its level');
    expect(timeline.next).toEqual([
      {
        id: '9007199254740995',
        name: null,
        attempts: 0,
        priority: null,
        dueAt: now + 120,
        note: expect.stringContaining('gone') as unknown,
        heldBy: null,
        idNote: expect.stringContaining('beyond') as unknown,
      },
      {
        id: String(parked),
        name: 'report.parked',
        attempts: 1,
        priority: 0,
        dueAt: expect.any(Number) as unknown,
        note: null,
        heldBy: { holder: 'slowhost:1', until: now + 3600 },
      },
      { id: String(weekly), name: 'report.weekly', attempts: 0, priority: 4, dueAt: expect.any(Number) as unknown, note: null, heldBy: null },
    ]);
  });
});

describe('the StaticPHP delayed repairs as line repairs', () => {
  it('runs a job now into its level, tells one a worker promoted first, and refuses one whose holder still holds it', async () => {
    const queue = await openQueue();
    const repairs = staticphpLayout(queue).lineRepairs;
    if (isAbsent(repairs)) throw new Error(repairs.absent);
    const runNow = lineRepairOrThrow(repairs, 'runDelayedNow');
    const weekly = await queue.push('mail', 'report.weekly', {}, { delaySeconds: 6 * DAY, priority: -5 });

    expect(await runNow('mail', String(weekly))).toEqual({ changed: true, said: `Job ${weekly} is ready: it joined level -5` });
    expect(await queue.redis.xlen(queue.keys.stream('mail', -5))).toBe(1);
    expect(await runNow('mail', String(weekly))).toEqual({ changed: false, said: expect.stringContaining(`Job ${weekly} was no longer delayed`) as unknown });

    const parked = await queue.push('mail', 'report.parked', {}, { delaySeconds: 3600 });
    const until = Date.UTC(2030, 11, 1, 12, 5, 0) / 1000;
    await queue.redis.hset(queue.keys.job(parked), 'reserved_by', 'slowhost:1', 'reserved_until', String(until));
    await expect(runNow('mail', String(parked))).rejects.toThrow(
      `Job ${parked} stays parked: slowhost:1 holds its claim until 2030-12-01 12:05:00 UTC, and running it now would run it a second time beside that worker`,
    );
    expect(await queue.redis.zscore(queue.keys.delayed('mail'), String(parked))).not.toBeNull();

    const gone = await queue.push('mail', 'report.gone', {}, { delaySeconds: 3600 });
    await queue.redis.del(queue.keys.job(gone));
    expect(await runNow('mail', String(gone))).toEqual({ changed: false, said: expect.stringContaining('removed from the delayed jobs') as unknown });
    await expect(runNow('mail', '9007199254740995')).rejects.toThrow(QueueError);
  });

  it('moves due jobs in bounded batches into their levels, counting those whose hash was gone', async () => {
    const queue = await openQueue();
    const repairs = staticphpLayout(queue).lineRepairs;
    if (isAbsent(repairs)) throw new Error(repairs.absent);
    const moveDue = lineRepairOrThrow(repairs, 'moveDueJobs');
    const ids = await queue.pushMany(
      Array.from({ length: 60 }, (_, index) => ({ queue: 'mail', name: `due.${index}`, payload: {}, options: { delaySeconds: 3600 } })),
    );
    for (const id of ids) await queue.redis.zadd(queue.keys.delayed('mail'), 1, String(id));
    await queue.redis.del(queue.keys.job(ids[0]!));

    expect(await moveDue('mail')).toEqual({ moved: 49, gone: 1, stillDue: 10 });
    expect(await moveDue('mail')).toEqual({ moved: 10, gone: 0, stillDue: 0 });
    expect((await queue.countsOf(['mail']))[0]).toMatchObject({ pending: 59, delayed: 0 });
  });
});

describe('the StaticPHP queue page in the layout-neutral line', () => {
  it('pages through every level’s waiting jobs in the order reserve takes them, with counts, levels and latest failures', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.jobLine)) throw new Error(layout.jobLine.absent);
    const failing = await queue.push('mail', 'mail.bounce', {}, { priority: 9 });
    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'SMTP said no');
    const high = await queue.pushMany(
      Array.from({ length: 20 }, (_, index) => ({ queue: 'mail', name: `high.${index}`, payload: {}, options: { priority: 5 } })),
    );
    const low = await queue.pushMany(
      Array.from({ length: 20 }, (_, index) => ({ queue: 'mail', name: `low.${index}`, payload: {}, options: { priority: 0 } })),
    );
    expect((await queue.reserve(['mail'], 'h:1', 30))?.id).toBe(high[0]);

    const first = await layout.jobLine.read('mail', { page: 1 });
    expect(first.counts).toMatchObject({ pending: 39, reserved: 1, delayed: 0 });
    expect(first.levels?.rows.map((level) => [level.level, level.length, level.delivered])).toEqual([
      ['9', 0, 0],
      ['5', 20, 1],
      ['0', 20, 0],
    ]);
    expect(first.latestFailed?.rows.map((row) => Number(row.id))).toEqual([failing]);
    expect(first.idsOfConnection).toBe(true);
    expect(first.delayedGlance).toBe(true);
    const [section] = first.sections;
    expect(section).toMatchObject({ title: 'Next jobs to run', total: 39, offset: 0 });
    expect(section!.rows.map((row) => row.id)).toEqual([...high.slice(1), ...low.slice(0, 6)].map(String));
    expect(section!.rows[0]).toMatchObject({ place: 1, name: 'high.1', attempts: 0, priority: 5, note: null, enqueuedAt: expect.any(Number) as unknown });

    const second = (await layout.jobLine.read('mail', { page: 2 })).sections[0]!;
    expect(second).toMatchObject({ total: 39, offset: 25 });
    expect(second.rows.map((row) => [row.place, row.id])).toEqual(low.slice(6).map((id, index) => [26 + index, String(id)]));
  });

  it('answers notFound for a queue the driver never registered, and an empty line for one whose jobs have all run', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.jobLine)) throw new Error(layout.jobLine.absent);
    await expect(layout.jobLine.read('made-up', { page: 1 })).rejects.toMatchObject({ notFound: true, message: expect.stringMatching(/^No queue "made-up"/) });
    await queue.push('drained', 'mail.send', {});
    await queue.complete((await queue.reserve(['drained'], 'h:1', 30))!);
    expect((await layout.jobLine.read('drained', { page: 1 })).sections[0]!.total).toBe(0);
  });
});
