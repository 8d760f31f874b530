import { describe, expect, it } from 'vitest';
import { encodedBytes, loadStaticPhpFixture, reportedText, type StaticPhpFixtureName } from './test-fixtures';
import { testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

describe.each<StaticPhpFixtureName>(['rich-layout', 'after-php-worker'])('the PHP driver fixture %s', (name) => {
  it('reads stats(), pending(), failedCount() and failedRows() as the PHP driver reported them', async () => {
    const queue = await openQueue();
    const { expected, failedRows } = await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix);

    expect(await queue.stats()).toEqual(expected.stats);
    for (const [queueName, pending] of Object.entries(expected.pending)) {
      expect(await queue.pending(queueName), `pending(${queueName})`).toBe(pending);
    }
    expect(await queue.pending()).toBe(expected.pending_total);
    expect(await queue.failedCount()).toBe(expected.failed_count);
    expect(await queue.failedRows(100)).toEqual(failedRows.map((row) => ({ ...row, error: reportedText(row.error) })));
  });

  it('leaves the bytes of an error that is not UTF-8 as the driver stored them', async () => {
    const queue = await openQueue();
    const { expected } = await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix);
    const cut = expected.failed_rows.find((row) => row.id === 12)!;
    expect(typeof cut.error).toBe('object');
    const stored = await queue.redis.hgetBuffer(queue.keys.job(12), 'error');
    expect(stored?.equals(encodedBytes(cut.error!))).toBe(true);
    const [row] = (await queue.failedRows(100)).filter((failed) => failed.id === 12);
    expect(row?.error?.match(/\uFFFD/g)).toHaveLength(1);
    expect(row?.error?.endsWith('\uFFFD\n... truncated')).toBe(true);
  });
});
