import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../lib/queue/test-redis';

const openQueue = testQueueFactory();

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function queuelens(...args: string[]): Promise<Outcome> {
  return queuelensWith(process.env, ...args);
}

function queuelensWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile('node', ['bin/queuelens.js', ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('queuelens', () => {
  it('refuses to serve other machines without a long secret and the origins operators use', async () => {
    const env = { ...process.env };
    for (const name of ['QUEUELENS_SECRET', 'QUEUELENS_VIEWER_SECRET', 'QUEUELENS_ORIGINS']) delete env[name];
    const bare = await queuelensWith(env, 'serve', '--host', '0.0.0.0', '--port', '3999');
    expect(bare).toMatchObject({ code: 1, stdout: '' });
    expect(bare.stderr).toMatch(/QueueLens needs a secret: set QUEUELENS_SECRET/);
    const short = await queuelensWith({ ...env, QUEUELENS_SECRET: 'hunter2' }, 'serve', '--host', '192.168.1.10', '--port', '3999');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/Refusing to listen on 192\.168\.1\.10, which other machines can reach: QUEUELENS_SECRET is shorter than 32 bytes/);
    const noOrigins = await queuelensWith({ ...env, QUEUELENS_SECRET: 'y'.repeat(40) }, 'serve', '--host', '::', '--port', '3999');
    expect(noOrigins.stderr).toMatch(/without QUEUELENS_ORIGINS/);
  });

  it('pushes, lists failed jobs, retries and forgets them', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    expect(await queuelens('push', 'mail', 'demo.fail', '{"to":"a@example.com"}', '--priority', '3', '--max-attempts', '1', ...prefix)).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect((await queuelens('push', 'mail', 'demo.noop', '{}', '--delay', '600', '--unique', 'u1', ...prefix)).stdout).toBe('2\n');
    expect((await queuelens('push', 'mail', 'demo.noop', '{}', '--unique', 'u1', ...prefix)).stdout).toBe('2\n');
    expect(JSON.parse((await queuelens('status', '--json', ...prefix)).stdout)).toEqual({
      queues: [{ queue: 'mail', pending: 1, delayed: 1, reserved: 0, total: 2 }],
      failed: 0,
    });

    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'SMTP said no\nstack line');
    const table = await queuelens('failed', ...prefix);
    expect(table.stdout).toMatch(/^id\s+queue\s+name\s+attempts\s+failed_at \(UTC\)\s+error\n1\s+mail\s+demo\.fail\s+1\/1\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+SMTP said no\n$/);
    const rows = JSON.parse((await queuelens('failed', '--json', '--limit', '5', ...prefix)).stdout);
    expect(rows).toMatchObject([{ id: 1, queue: 'mail', name: 'demo.fail', error: 'SMTP said no\nstack line' }]);

    expect((await queuelens('retry', '--id', '1', '--id', '2', '--max-attempts', '4', ...prefix)).stdout).toBe('Retried 1 job; not failed (skipped): 2\n');
    expect(await queue.redis.hget(queue.keys.job(1), 'max_attempts')).toBe('4');
    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'again');
    expect((await queuelens('forget', '--before', '2999-01-01', ...prefix)).stdout).toBe('Forgot 1 failed job\n');
    expect((await queuelens('forget', '--all', ...prefix)).stdout).toBe('Forgot 0 failed jobs\n');
  });

  it('exits 2 with a usage line on bad usage', async () => {
    for (const args of [[], ['nonsense'], ['push', 'q'], ['push', 'q', 'n', '{bad json'], ['retry'], ['retry', '--id', '1', '--all'], ['forget'], ['forget', '--id', '1', '--all'], ['failed', '--limit', 'ten'], ['status', '--bogus'], ['work']]) {
      const outcome = await queuelens(...args);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stdout + outcome.stderr, args.join(' ')).toMatch(/Usage: queuelens|Run queuelens --help/);
    }
  });

  it('exits 1 with one line and no stack trace when Redis cannot be reached or refuses', async () => {
    const unreachable = await queuelens('status', '--redis-url', 'redis://127.0.0.1:1');
    expect(unreachable).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^queuelens: Could not reach redis at 127\.0\.0\.1:1 \([^\n]*\)\n$/) });

    const queue = await openQueue();
    const badDate = await queuelens('forget', '--before', 'last tuesday', '--prefix', queue.keys.prefix);
    expect(badDate).toEqual({ code: 1, stdout: '', stderr: 'queuelens: Cannot read the date "last tuesday": expected Y-m-d or Y-m-d H:i:s, in UTC\n' });
  });
});
