import { describe, expect, it } from 'vitest';
import { isAbsent } from '../adapter';
import { retryEveryFailed } from '../retry-every-failed';
import { staticphpFailedJobs } from './failed-jobs';
import type { RedisQueue } from './redis-queue';
import { testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

async function failedJob(queue: RedisQueue, name: string): Promise<string> {
  const id = await queue.pushEncoded('imports', name, '{"n":1}', { maxAttempts: 1 });
  await queue.fail((await queue.reserve(['imports'], 'h:1', 30))!, 'boom');
  return String(id);
}

describe('StaticPHP’s failed jobs through the contract every layout fills: ids as text', () => {
  it('retries, edits and forgets by the ids the failed list shows, and reports an id no longer failed', async () => {
    const queue = await openQueue();
    const failed = staticphpFailedJobs(queue);
    const retry = failed.retryFailed;
    if (isAbsent(retry) || isAbsent(retry.editAndRetry) || isAbsent(retry.oldest)) throw new Error('StaticPHP retries its failed jobs itself');
    expect(retry.maxAttempts).toBe(true);
    const [a, b, c, d] = [await failedJob(queue, 'a'), await failedJob(queue, 'b'), await failedJob(queue, 'c'), await failedJob(queue, 'd')];

    expect(await retry.ids([a], { maxAttempts: 4 })).toEqual({ requeued: [a], notFailed: [], missing: [], refused: [], queues: ['imports'] });
    expect(await queue.redis.hget(queue.keys.job(a), 'max_attempts')).toBe('4');
    expect(await retry.ids([a])).toEqual({ requeued: [], notFailed: [a], missing: [], refused: [], queues: [] });
    expect(await retry.editAndRetry(b, null, '{"n":2}')).toEqual({ outcome: 'retried', kept: false, queue: 'imports' });
    expect(await failed.forgetFailedIds([c, a])).toBe(1);
    expect(await retryEveryFailed(failed, retry)).toEqual({ requeued: [d], notFailed: [], missing: [], refused: [], queues: ['imports'] });
    expect(await failed.failedCount()).toBe(0);
  });

  it('refuses an id that is no whole number of this connection before it reaches Redis', async () => {
    const queue = await openQueue();
    const failed = staticphpFailedJobs(queue);
    const retry = failed.retryFailed;
    if (isAbsent(retry)) throw new Error('StaticPHP retries its failed jobs itself');
    const kept = await failedJob(queue, 'kept');
    for (const id of ['abc', '0', '-1', '1.5', '07', '9007199254740993', '7f3c9a2e-0000-4000-8000-000000000001']) {
      await expect(retry.ids([id])).rejects.toMatchObject({ invalidRequest: true, message: expect.stringContaining('its ids are whole numbers') });
      await expect(failed.forgetFailedIds([id])).rejects.toMatchObject({ invalidRequest: true });
    }
    await expect(failed.forgetFailed('x', null)).rejects.toMatchObject({ invalidRequest: true });
    expect(await failed.failedCount()).toBe(1);
    expect(await queue.redis.zscore(queue.keys.failed, kept)).not.toBeNull();
  });
});
