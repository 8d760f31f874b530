import { describe, expect, it } from 'vitest';
import type { TrashWrite } from '../../shapes/trash';
import type { RedisQueue } from './redis-queue';
import { testQueueFactory } from './test-redis';
import { readTrashPage, restoreFromTrash } from './trash';

const openQueue = testQueueFactory();

/** The trash under the test queue's own prefix, so that the factory's cleanup deletes it too. */
function trashOf(queue: RedisQueue): TrashWrite {
  return { dashboardPrefix: `${queue.keys.prefix}ql:`, keepSeconds: 3600, maxEntries: 100, maxBytes: 1 << 30, who: 'alice', via: 'dashboard' };
}

/** A job pushed with `payload` (JSON text, as stored) and failed from its reservation; its id. */
async function failedJob(queue: RedisQueue, payload: string): Promise<number> {
  const id = await queue.pushEncoded('imports', 'import.csv', payload, { maxAttempts: 1 });
  await queue.fail((await queue.reserve(['imports'], 'h:1', 30))!, 'row 159 has 7 columns');
  return id;
}

describe('editing a failed StaticPHP job, then retrying it', () => {
  it('stores the edit byte for byte and requeues the job in one step, keeping the original to restore once the retried job is done', async () => {
    const queue = await openQueue();
    const original = '{"file":"a.csv","rows": 9007199254740993}';
    const id = await failedJob(queue, original);
    const failedAt = await queue.redis.zscore(queue.keys.failed, String(id));
    const edited = '{"file":"a.csv","rows": 9007199254740993, "skip": [159]}';
    const trash = trashOf(queue);

    expect(await queue.editAndRetry(id, original, edited, { trash, maxAttempts: 2 })).toEqual({ outcome: 'retried', kept: true, queue: 'imports' });
    expect(await queue.redis.hmget(queue.keys.job(id), 'payload', 'attempts', 'max_attempts', 'error')).toEqual([edited, '0', '2', '']);
    expect(await queue.failedCount()).toBe(0);
    const page = await readTrashPage(queue, trash, 0, 10);
    expect(page.rows).toMatchObject([{ id: String(id), from: 'failed', queue: 'imports', score: failedAt, who: 'alice', error: 'row 159 has 7 columns' }]);

    // The original stays in the trash while the retried job lives: its id is taken.
    expect(await restoreFromTrash(queue, trash, [String(id)])).toMatchObject([{ id: String(id), outcome: 'id-taken' }]);
    const job = (await queue.reserve(['imports'], 'h:2', 30))!;
    expect(job.id).toBe(id);
    expect(job.payload).toBe(edited);
    expect(await queue.complete(job)).toBe(true);
    expect(await queue.reserve(['imports'], 'h:2', 30)).toBeNull();

    expect(await restoreFromTrash(queue, trash, [String(id)])).toMatchObject([{ id: String(id), outcome: 'restored' }]);
    expect(await queue.redis.hmget(queue.keys.job(id), 'payload', 'error')).toEqual([original, 'row 159 has 7 columns']);
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).toBe(failedAt);
  });

  it('changes nothing when the job is no longer failed with the payload the operator edited, or the edit is no runnable payload', async () => {
    const queue = await openQueue();
    const id = await failedJob(queue, '{"n":1}');
    const before = await queue.redis.hgetall(queue.keys.job(id));
    const trash = trashOf(queue);

    expect(await queue.editAndRetry(id, '{"n":0}', '{"n":2}', { trash })).toEqual({ outcome: 'changed', kept: false, queue: null });
    await expect(queue.editAndRetry(id, '{"n":1}', '"n"', { trash })).rejects.toThrow('The payload must be a JSON object or array');
    await expect(queue.editAndRetry(id, '{"n":1}', '{"n":', { trash })).rejects.toThrow('The payload is not valid JSON');
    expect(await queue.redis.hgetall(queue.keys.job(id))).toEqual(before);
    expect(await queue.failedCount()).toBe(1);
    expect((await readTrashPage(queue, trash, 0, 10)).rows).toEqual([]);

    await queue.retryFailed([id]);
    expect(await queue.editAndRetry(id, '{"n":1}', '{"n":2}', { trash })).toEqual({ outcome: 'not-failed', kept: false, queue: null });
    expect(await queue.redis.hget(queue.keys.job(id), 'payload')).toBe('{"n":1}');
  });
});
