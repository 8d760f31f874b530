import { describe, expect, it } from 'vitest';
import { loadStaticPhpFixture, reportedText, type StaticPhpFixtureName } from '../lib/layouts/staticphp/test-fixtures';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { queuelens } from './test-cli';

const openQueue = testQueueFactory();

describe.each<StaticPhpFixtureName>(['rich-layout', 'after-php-worker'])('queuelens on the PHP driver fixture %s', (name) => {
  it('status --json and failed --json print what the PHP driver reported, field for field', async () => {
    const queue = await openQueue();
    const { expected, failedRows } = await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix);
    const prefix = ['--prefix', queue.keys.prefix];

    const status = await queuelens('status', '--json', ...prefix);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toEqual({ queues: expected.stats, failed: expected.failed_count });

    const failed = await queuelens('failed', '--json', '--limit', '100', ...prefix);
    expect(failed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(failed.stdout)).toEqual(failedRows.map((row) => ({ ...row, error: reportedText(row.error) })));
  });

  it('doctor --json finds nothing wrong with a layout the PHP driver keeps', async () => {
    const queue = await openQueue();
    await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix);
    const doctor = await queuelens('doctor', '--json', '--prefix', queue.keys.prefix);
    expect(JSON.parse(doctor.stdout)).toEqual({ findings: [] });
    expect(doctor.code).toBe(0);
  });
});
