import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect, test } from '@playwright/test';
import { APP_PORT, e2ePrefix } from './support';

/** A fourth server of our own, started and stopped by these tests as an operator would. */
const OPS_PORT = APP_PORT + 3;
const SECRET = 'ops-secret-'.padEnd(40, 'x');

interface Running {
  child: ChildProcess;
  output: () => string;
}

function start(command: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, command, { env: { ...process.env, QUEUE_PREFIX: e2ePrefix(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function exitCode(child: ChildProcess, timeoutMs = 20_000): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return code;
}

/** The server's JSON log lines: every line it prints that is JSON at all. */
function jsonLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return typeof parsed === 'object' && parsed !== null ? [parsed as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

test.describe('running the server', () => {
  test('queuelens serve answers health checks, logs JSON lines, and stops gracefully on SIGTERM', async ({ request, page }) => {
    const server = start(['bin/queuelens.js', 'serve', '--host', '127.0.0.1', '--port', String(OPS_PORT)], { QUEUELENS_SECRET: SECRET });
    try {
      const base = `http://127.0.0.1:${OPS_PORT}`;
      await expect.poll(async () => (await request.get(`${base}/login`).catch(() => null))?.status(), { timeout: 30_000 }).toBe(200);

      const health = await request.get(`${base}/api/health`, { headers: { authorization: `Bearer ${SECRET}` } });
      expect(health.status()).toBe(200);
      const body = (await health.json()) as { ok: boolean; data: { connection: string; server: string; version: string; latencyMs: number } };
      expect(body.ok).toBe(true);
      expect(body.data).toMatchObject({ connection: 'default', server: '127.0.0.1:6379', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
      expect(body.data.latencyMs).toBeGreaterThanOrEqual(0);
      expect((await request.get(`${base}/api/health`)).status()).toBe(401);

      // A refused sign-in is one JSON log line with a time, a level and a message.
      await page.goto(`${base}/login`);
      await page.getByLabel('Secret').fill('not it');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('That secret is not right.')).toBeVisible();
      expect(jsonLines(server.output())).toContainEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'warn', message: 'a sign-in was refused: wrong secret' });

      server.child.kill('SIGTERM');
      expect(await exitCode(server.child)).toBe(143);
      expect(server.output()).not.toContain(SECRET);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  test('the built server itself refuses to listen beyond loopback with a short secret', async () => {
    // 127.0.0.2 is loopback to the kernel but not one of the names QueueLens trusts, so nothing is exposed by trying.
    const server = start(['.next/standalone/server.js'], { HOSTNAME: '127.0.0.2', PORT: String(OPS_PORT + 1), QUEUELENS_SECRET: 'short' });
    expect(await exitCode(server.child)).toBe(1);
    const [refusal] = jsonLines(server.output()).filter((line) => line.level === 'error');
    expect(refusal).toMatchObject({ level: 'error', message: expect.stringContaining('QueueLens cannot start: Refusing to listen on 127.0.0.2') });
    expect(refusal!.time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });
});
