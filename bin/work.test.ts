import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { privateServers } from '../lib/redis/test-servers';
import { waitFor } from '../lib/layouts/staticphp/test-redis';

const servers = privateServers();
const CLI = fileURLToPath(new URL('queuelens.js', import.meta.url));
// At the start "Could not reach redis at host:port (…)", while running "The queue could not reach redis: host:port (…)".
const OUTAGE = /could not reach redis[^\n]*127\.0\.0\.1:\d+ \([^\n]*\); retrying with backoff/gi;
const BACK = /Redis answers again, after \d+\.\d+s/g;

let worker: ChildProcess | undefined;
afterEach(() => {
  worker?.kill('SIGKILL');
  worker = undefined;
});

/** `queuelens work` as a fleet runs it, with what it printed so far. */
function startWorker(port: number) {
  const output = { stdout: '', stderr: '' };
  worker = spawn('node', [CLI, 'work', 'mail', '--redis-url', `redis://127.0.0.1:${port}`, '--prefix', 'work-test:'], { stdio: ['ignore', 'pipe', 'pipe'] });
  worker.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  worker.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));
  /** Waits until `condition` holds; a timeout shows everything the worker printed. */
  const until = async (condition: () => boolean, timeoutMs: number) => {
    try {
      await waitFor(async () => (condition() ? true : undefined), timeoutMs);
    } catch {
      throw new Error(`The worker did not get there within ${timeoutMs}ms. stdout:\n${output.stdout}\nstderr:\n${output.stderr}`);
    }
  };
  return { output, exited, until };
}

/** A port that accepts and at once drops every connection, counting them: each is one attempt of the worker to reach Redis. */
function droppingEveryConnection(port: number): Promise<{ attempts: () => number; server: Server }> {
  let attempts = 0;
  const server = createServer((socket) => {
    attempts += 1;
    socket.destroy();
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ attempts: () => attempts, server })));
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

describe('queuelens work while Redis is down', () => {
  it('waits for Redis when it starts, logs the outage once, and runs jobs once it is up; the same through a later outage', async () => {
    const port = await servers.freePort();
    const { output, exited, until } = startWorker(port);
    await until(() => count(output.stderr, OUTAGE) > 0, 90_000);

    // More attempts fail (at a port that hangs up, the backoff growing up to 10 s apart) before Redis starts.
    const dropping = await droppingEveryConnection(port);
    await until(() => dropping.attempts() >= 2, 60_000);
    await new Promise((resolve) => dropping.server.close(resolve));
    const redis = await servers.redis({ port });
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port, prefix: 'work-test:' }));
    try {
      const first = await queue.push('mail', 'demo.noop', {});
      await until(() => output.stdout.includes(`completed ${first} demo.noop`), 60_000);
      expect(count(output.stderr, OUTAGE), output.stderr).toBe(1);
      expect(count(output.stderr, BACK), output.stderr).toBe(1);
      expect(output.stderr).toContain('Working mail with concurrency 1 and a 60s timeout');

      // Redis goes away under the running worker and comes back on the same port.
      await redis.kill();
      await until(() => count(output.stderr, OUTAGE) === 2, 60_000);
      const second = await servers.redis({ port });
      await until(() => count(output.stderr, BACK) === 2, 60_000);
      const next = await queue.push('mail', 'demo.noop', {});
      await until(() => output.stdout.includes(`completed ${next} demo.noop`), 60_000);
      expect(count(output.stderr, OUTAGE), output.stderr).toBe(2);
      expect(output.stderr).not.toMatch(/at .*\.ts:\d+/);

      worker!.kill('SIGTERM');
      expect(await exited, output.stderr).toBe(0);
      await second.kill();
    } finally {
      await queue.close();
    }
  }, 300_000);

  it('stops at once on SIGTERM while it is still waiting for Redis', async () => {
    const port = await servers.freePort();
    const { output, exited, until } = startWorker(port);
    await until(() => count(output.stderr, OUTAGE) > 0, 90_000);
    worker!.kill('SIGTERM');
    expect(await exited, output.stderr).toBe(0);
    expect(output.stderr).toContain('Stopping after the running jobs finish…');
  }, 150_000);
});
