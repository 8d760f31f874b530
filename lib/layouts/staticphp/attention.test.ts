import { describe, expect, it } from 'vitest';
import { testQueueFactory } from './test-redis';
import { readQueueAttention } from './attention';
import { markRulesSchema } from '../../dashboard/marks';

const openQueue = testQueueFactory();

describe('readQueueAttention', () => {
  it('marks a claim past its deadline stuck with its holder, and not one still running however long held', async () => {
    const queue = await openQueue();
    const now = Number((await queue.redis.time())[0]);
    await queue.push('stuck', 'a', {});
    const dead = (await queue.reserve(['stuck'], 'dead:1', 60))!;
    await queue.redis.hset(queue.keys.job(dead.id), 'reserved_until', now - 600);
    await queue.push('busy', 'b', {});
    await queue.reserve(['busy'], 'live:2', 3600);
    // Every hold and every claim past its deadline counts at once: what is left to tell them apart is the deadline.
    const rules = markRulesSchema.parse({ '*': { stuckSeconds: 0, noWorkerSeconds: false } });

    const { queues, attention } = await readQueueAttention(queue, { only: ['busy', 'stuck'] }, rules);
    expect(queues).toEqual(await queue.countsOf(['busy', 'stuck']));
    expect(attention[0]!.marks).toEqual([]);
    expect(attention[1]!.marks).toEqual([{ kind: 'stuck', claims: 1, holders: ['dead:1'], ranOutAt: now - 600 }]);
  });

  it('counts a queue’s failures over its window and marks it failing with the newest error', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.fail((await queue.reserve(['mail'], 'w:1', 60))!, 'SMTP refused\n  at send');
    const { queues, failed, attention } = await readQueueAttention(queue, { only: ['mail', 'quiet'] }, new Map());
    expect(failed).toBe(1);
    expect(queues.map((row) => row.total)).toEqual([0, 0]);
    expect(attention[0]).toEqual({
      marks: [{ kind: 'failing', failures: 1, minutes: 15, latestError: 'SMTP refused' }],
      failedRecently: { count: 1, minutes: 15, atLeast: false },
    });
    expect(attention[1]).toEqual({ marks: [], failedRecently: { count: 0, minutes: 15, atLeast: false } });
  });

  it('leaves out the queues with no jobs unless every queue is asked for, as counts() does', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.complete((await queue.reserve(['mail'], 'w:1', 60))!);
    await queue.push('billing', 'b', {});
    const rules = new Map();
    expect((await readQueueAttention(queue, {}, rules)).queues).toEqual(await queue.stats());
    const every = await readQueueAttention(queue, { everyQueue: true }, rules);
    expect(every.queues.map((row) => [row.queue, row.total])).toEqual([
      ['billing', 1],
      ['mail', 0],
    ]);
    expect(every.attention).toHaveLength(2);
  });
});
