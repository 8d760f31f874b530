import { describe, expect, it } from 'vitest';
import { scanKeysUnder } from '../redis/scan-keys';
import { loadStaticPhpFixture, type StaticPhpFixtureName } from '../layouts/staticphp/test-fixtures';
import { testQueueFactory, waitFor } from '../layouts/staticphp/test-redis';
import { Worker, type JobHandler } from './worker';

const openQueue = testQueueFactory();

/**
 * As if the worker ran two hours after capture: every claim (300 s at most)
 * and parking deadline has run out and every delayed job (3600 s at most) is
 * due, so nothing the worker may take is left waiting on the clock.
 */
const LONG_AFTER_CAPTURE_SECONDS = 2 * 60 * 60;

async function keysUnder(queue: Awaited<ReturnType<typeof openQueue>>, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeysUnder(queue.redis, prefix)) found.push(...keys);
  return found.sort();
}

describe.each<StaticPhpFixtureName>(['rich-layout', 'after-php-worker'])('a QueueLens Worker on the PHP driver fixture %s', (name) => {
  it('runs every job once, long after capture, and leaves nothing but the failed jobs', async () => {
    const queue = await openQueue();
    const { expected } = await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix, { agedSeconds: LONG_AFTER_CAPTURE_SECONDS });
    const jobKeys = await keysUnder(queue, queue.keys.job(''));
    const ids = jobKeys.map((key) => Number(key.slice(queue.keys.job('').length))).sort((a, b) => a - b);
    const failed = expected.failed_rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));
    const names = new Set(await Promise.all(ids.map(async (id) => (await queue.redis.hget(queue.keys.job(id), 'name'))!)));

    const runs: number[] = [];
    const record: JobHandler = (_payload, { job }) => {
      runs.push(job.id);
    };
    // Every job name of the fixture completes; the PHP handlers' outcomes are the fixture's past, not this test's subject.
    const handlers = Object.fromEntries([...names].map((jobName) => [jobName, record]));
    // A 1 s timeout: the pending entries were about 2.2 s idle at capture, so this worker reclaims them at once.
    const worker = new Worker(queue, { queues: Object.keys(expected.pending), handlers, timeoutSeconds: 1, idleMs: 50, workerId: 'fixture-test:1' });
    const running = worker.run();
    try {
      await waitFor(async () => ((await queue.stats()).length === 0 ? true : undefined), 20_000);
    } finally {
      worker.stop();
      await running;
    }

    expect(runs.sort((a, b) => a - b)).toEqual(ids.filter((id) => !failed.includes(id)));
    expect(await keysUnder(queue, queue.keys.job(''))).toEqual(failed.map((id) => queue.keys.job(id)).sort());
    expect((await queue.redis.zrange(queue.keys.failed, '0', '-1')).map(Number).sort((a, b) => a - b)).toEqual(failed);
    expect(await keysUnder(queue, queue.keys.unique(''))).toEqual([]);
    for (const queueName of Object.keys(expected.pending)) {
      expect(await queue.redis.zcard(queue.keys.delayed(queueName)), `${queueName}'s delayed set`).toBe(0);
      for (const level of await queue.redis.zrange(queue.keys.levels(queueName), '0', '-1')) {
        expect(await queue.redis.xlen(queue.keys.stream(queueName, level)), `${queueName} level ${level}`).toBe(0);
      }
    }
  });
});
