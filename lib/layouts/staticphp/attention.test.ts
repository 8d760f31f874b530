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

    const counts = await queue.countsOf(['busy', 'stuck']);
    const { queues } = await readQueueAttention(queue, counts, 0, rules);
    expect(queues[0]!.marks).toEqual([]);
    expect(queues[1]!.marks).toEqual([{ kind: 'stuck', claims: 1, holders: ['dead:1'], ranOutAt: now - 600 }]);
  });

  it('counts a queue’s failures over its window and marks it failing with the newest error', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.fail((await queue.reserve(['mail'], 'w:1', 60))!, 'SMTP refused\n  at send');
    const counts = await queue.countsOf(['mail', 'quiet']);
    const { queues } = await readQueueAttention(queue, counts, 1, new Map());
    expect(queues[0]).toEqual({
      marks: [{ kind: 'failing', failures: 1, minutes: 15, latestError: 'SMTP refused' }],
      failedRecently: { count: 1, minutes: 15, atLeast: false },
    });
    expect(queues[1]).toEqual({ marks: [], failedRecently: { count: 0, minutes: 15, atLeast: false } });
  });
});
