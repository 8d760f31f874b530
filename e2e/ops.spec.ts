import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from './test';
import { APP_PORT, e2eDashboardPrefix, e2ePrefix, overviewAddress } from './support';

/** A fourth server of our own, started and stopped by these tests as an operator would. */
const OPS_PORT = APP_PORT + 3;
const SECRET = 'ops-secret-'.padEnd(40, 'x');

interface Running {
  child: ChildProcess;
  output: () => string;
}

// Each started process leads a process group of its own (detached), so that
// killAll also reaches the Next.js server `queuelens serve` runs as its child:
// a SIGKILL to the CLI alone would leave that server listening.
function start(command: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, command, {
    env: { ...process.env, QUEUE_PREFIX: e2ePrefix(), QUEUELENS_PREFIX: e2eDashboardPrefix(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Kills a started process and whatever it started; nothing when they have exited. */
function killAll(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

async function exitCode(child: ChildProcess, timeoutMs = 20_000): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const timer = setTimeout(() => killAll(child), timeoutMs);
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

      // A refused sign-in is one JSON log line with a time, a level, a message and the client's address.
      await page.goto(`${base}/login`);
      await page.getByLabel('Secret').fill('not it');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('That secret is not right.')).toBeVisible();
      // Polled: the page can show the answer before the server's stdout has reached this process.
      await expect
        .poll(() => jsonLines(server.output()))
        .toContainEqual({
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          level: 'warn',
          message: 'a sign-in was refused: wrong secret',
          client: '127.0.0.1',
        });

      server.child.kill('SIGTERM');
      expect(await exitCode(server.child)).toBe(143);
      expect(server.output()).not.toContain(SECRET);
    } finally {
      killAll(server.child);
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

/**
 * A GET sent on a connection of its own: `sent` once the request has left
 * for the server, `answered` with the status, or the error's code (such as
 * ECONNRESET) when there was no answer.
 */
function sendRequest(url: string, headers: Record<string, string>): { sent: Promise<void>; answered: Promise<number | string> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answered = new Promise<number | string>((resolve) => {
    const request = httpRequest(url, { headers, agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', (error: NodeJS.ErrnoException) => {
      markSent();
      resolve(error.code ?? error.message);
    });
    request.once('finish', markSent);
    request.end();
  });
  return { sent, answered };
}

test.describe('a server that made its own secret, behind a trusted proxy', () => {
  test.describe.configure({ mode: 'serial' });
  const base = `http://127.0.0.1:${OPS_PORT + 2}`;
  let server: Running;
  let secret: string;

  test.beforeAll(async ({ request }) => {
    // No QUEUELENS_SECRET: `queuelens serve` makes one and prints it with the one-time link.
    server = start(['bin/queuelens.js', 'serve', '--host', '127.0.0.1', '--port', String(OPS_PORT + 2)], { QUEUELENS_TRUSTED_PROXIES: '127.0.0.1' });
    await expect.poll(async () => (await request.get(`${base}/login`).catch(() => null))?.status(), { timeout: 30_000 }).toBe(200);
    secret = server.output().match(/Authorization: Bearer: (\S+)/)![1]!;
  });

  test.afterAll(() => {
    killAll(server.child);
  });

  test('the one-time link survives HEAD and GET (link scanners, chat unfurlers) and signs in once, from its button', async ({ browser, request }) => {
    const link = server.output().match(/the link works once\): (\S+)/)![1]!;
    for (const method of ['HEAD', 'GET'] as const) {
      const response = await request.fetch(link, { method, maxRedirects: 0 });
      expect(response.status(), method).toBe(200);
      expect(response.headers()['set-cookie'], method).toBeUndefined();
    }
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await expect(page).toHaveURL(overviewAddress(base));
    await expect(page.getByText('operator (login link) · operator')).toBeVisible();
    const again = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const second = await again.newPage();
    await second.goto(link);
    await second.getByRole('button', { name: 'Sign in as operator' }).click();
    await expect(second).toHaveURL(`${base}/login?link=used`);
    await expect(second.getByText('That login link has already been used')).toBeVisible();
    await Promise.all([context.close(), again.close()]);
  });

  test('30 s of wrong secrets keep no right bearer secret out, and are throttled themselves; sign-ins are kept apart by client', async ({ browser }) => {
    test.setTimeout(120_000);
    const scrape = (authorization: string) => fetch(`${base}/api/metrics`, { headers: { authorization } }).then((response) => response.status);
    const until = Date.now() + 30_000;
    const wrong: number[] = [];
    const attack = (async () => {
      // About 20 guesses a second, as the probe sent them.
      for (let guess = 0; Date.now() < until; guess++) {
        wrong.push(await scrape(`Bearer wrong-${guess}`));
        await sleep(50);
      }
    })();
    const right: number[] = [];
    for (let second = 0; second < 30; second++) {
      right.push(await scrape(`Bearer ${secret}`));
      await sleep(1000);
    }
    await attack;
    expect(right).toEqual(Array.from({ length: 30 }, () => 200));
    expect(wrong.length).toBeGreaterThan(100);
    expect(wrong.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 401));
    expect(wrong.slice(10).every((status) => status === 429)).toBe(true);

    // The guesser's address (127.0.0.1, no X-Forwarded-For) has spent its budget; a client the trusted proxy names has not.
    const signIn = async (forwardedFor: string | null) => {
      const context = await browser.newContext({
        storageState: { cookies: [], origins: [] },
        extraHTTPHeaders: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByLabel('Secret').fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return { page, context };
    };
    const guesser = await signIn(null);
    await expect(guesser.page.getByText(/Too many wrong secrets\. Try again in \d+ s\./)).toBeVisible();
    const colleague = await signIn('203.0.113.5');
    await expect(colleague.page).toHaveURL(overviewAddress(base));
    await Promise.all([guesser.context.close(), colleague.context.close()]);
  });

  test('SIGTERM under load answers every request already sent, then exits 143', async () => {
    const requests = Array.from({ length: 30 }, () => sendRequest(`${base}/`, { authorization: `Bearer ${secret}` }));
    await Promise.all(requests.map((request) => request.sent));
    server.child.kill('SIGTERM');
    const answers = await Promise.all(requests.map((request) => request.answered));
    expect(answers.filter((answer) => answer !== 200 && answer !== 503)).toEqual([]);
    expect(await exitCode(server.child)).toBe(143);
  });
});
