import { describe, expect, it } from 'vitest';
import { QueueError } from '../../queue/errors';
import { testQueueFactory } from '../../queue/test-redis';
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
      { id: '9007199254740995', name: null, attempts: 0, priority: null, dueAt: now + 120, note: expect.stringContaining('gone') as unknown, heldBy: null, idNote: expect.stringContaining('beyond') as unknown },
      { id: String(parked), name: 'report.parked', attempts: 1, priority: 0, dueAt: expect.any(Number) as unknown, note: null, heldBy: { holder: 'slowhost:1', until: now + 3600 } },
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
    await expect(runNow('mail', String(parked))).rejects.toThrow(`Job ${parked} stays parked: slowhost:1 holds its claim until 2030-12-01 12:05:00 UTC, and running it now would run it a second time beside that worker`);
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
    const ids = await queue.pushMany(Array.from({ length: 60 }, (_, index) => ({ queue: 'mail', name: `due.${index}`, payload: {}, options: { delaySeconds: 3600 } })));
    for (const id of ids) await queue.redis.zadd(queue.keys.delayed('mail'), 1, String(id));
    await queue.redis.del(queue.keys.job(ids[0]!));

    expect(await moveDue('mail')).toEqual({ moved: 49, gone: 1, stillDue: 10 });
    expect(await moveDue('mail')).toEqual({ moved: 10, gone: 0, stillDue: 0 });
    expect((await queue.countsOf(['mail']))[0]).toMatchObject({ pending: 59, delayed: 0 });
  });
});
