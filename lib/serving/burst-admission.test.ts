import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BurstAdmission } from './burst-admission';

/** A real HTTP server whose handler records which requests it started and answers each when the test says. */
async function serverBehind(admission: BurstAdmission) {
  const started: string[] = [];
  const answers = new Map<string, ServerResponse[]>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) =>
    admission.admit(request, response, () => {
      const name = `${request.method} ${request.url}`;
      started.push(name);
      answers.set(name, [...(answers.get(name) ?? []), response]);
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const send = (path: string, method = 'GET') => {
    const sent = httpRequest({ host: '127.0.0.1', port, path, method, agent: false });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      sent.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      sent.on('error', reject);
    });
    sent.end();
    return { answered, abort: () => sent.destroy() };
  };
  const answerOldest = (name: string) => {
    const response = answers.get(name)!.shift()!;
    response.end(name);
  };
  return { server, started, send, answerOldest };
}

let open: Server | undefined;
afterEach(() => {
  open?.closeAllConnections();
  open?.close();
});

/** Resolves once `check` holds, looking again every few milliseconds (a request travels through real sockets). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('BurstAdmission', () => {
  it('lets identical GETs in one at a time, in order, while any other request, a POST, the build’s static files and the sign-in page go straight in', async () => {
    const admission = new BurstAdmission();
    const { server, started, send, answerOldest } = await serverBehind(admission);
    open = server;
    const burst = [send('/jobs/1'), send('/jobs/1'), send('/jobs/1')];
    await until(() => admission.size.waiting === 2);
    expect(started).toEqual(['GET /jobs/1']);

    const other = send('/api/overview');
    const post = send('/jobs/1', 'POST');
    const neverHeld = [send('/_next/static/chunks/app.js'), send('/_next/static/chunks/app.js'), send('/login?next=%2F'), send('/login?next=%2F')];
    await until(() => started.length === 7);
    expect(started).toEqual([
      'GET /jobs/1',
      'GET /api/overview',
      'POST /jobs/1',
      'GET /_next/static/chunks/app.js',
      'GET /_next/static/chunks/app.js',
      'GET /login?next=%2F',
      'GET /login?next=%2F',
    ]);
    answerOldest('GET /api/overview');
    answerOldest('POST /jobs/1');
    for (let n = 0; n < 2; n++) answerOldest('GET /_next/static/chunks/app.js');
    for (let n = 0; n < 2; n++) answerOldest('GET /login?next=%2F');
    await Promise.all(neverHeld.map((sent) => sent.answered));
    expect(await other.answered).toEqual({ status: 200, body: 'GET /api/overview' });
    expect((await post.answered).status).toBe(200);

    answerOldest('GET /jobs/1');
    await until(() => started.length === 8);
    expect(admission.size).toEqual({ running: 1, waiting: 1 });
    answerOldest('GET /jobs/1');
    await until(() => started.length === 9);
    answerOldest('GET /jobs/1');
    expect((await Promise.all(burst.map((sent) => sent.answered))).map(({ body }) => body)).toEqual(['GET /jobs/1', 'GET /jobs/1', 'GET /jobs/1']);
    expect(admission.size).toEqual({ running: 0, waiting: 0 });
  });

  it('starts the next of a burst once the other requests under way when its place came free are answered, not those that came after', async () => {
    const admission = new BurstAdmission();
    const { server, started, send, answerOldest } = await serverBehind(admission);
    open = server;
    const burst = [send('/jobs/1'), send('/jobs/1')];
    await until(() => admission.size.waiting === 1);
    const overview = send('/api/overview');
    await until(() => started.length === 2);

    answerOldest('GET /jobs/1');
    await burst[0]!.answered;
    const later = send('/api/queues/mail');
    await until(() => started.includes('GET /api/queues/mail'));
    expect(started).toEqual(['GET /jobs/1', 'GET /api/overview', 'GET /api/queues/mail']);

    answerOldest('GET /api/overview');
    await overview.answered;
    await until(() => started.length === 4);
    expect(started.at(-1)).toBe('GET /jobs/1');
    answerOldest('GET /jobs/1');
    answerOldest('GET /api/queues/mail');
    expect((await burst[1]!.answered).status).toBe(200);
    expect((await later.answered).status).toBe(200);
    expect(admission.size).toEqual({ running: 0, waiting: 0 });
  });

  it('puts one download asked with different query strings and spellings in one line, while the parameters a route reads still make lines apart (issue 24)', async () => {
    // No place is given up by the clock here: each is released by its answer.
    const admission = new BurstAdmission({ maxHoldMs: 60_000 });
    const { server, started, send, answerOldest } = await serverBehind(admission);
    open = server;
    const spellings = ['/api/jobs/7/fields/payload?n=1', '/api/jobs/7/fields/payload?n=2', '/api/jobs/7/fields/%70ayload?n=3', '/api/jobs/7/./fields//payload'];
    const downloads = spellings.map((path) => send(path));
    await until(() => admission.size.running + admission.size.waiting === spellings.length);
    expect(started).toEqual([`GET ${spellings[0]}`]);
    for (const path of spellings) {
      await until(() => started.includes(`GET ${path}`));
      expect(admission.size.running).toBe(1);
      answerOldest(`GET ${path}`);
    }
    expect((await Promise.all(downloads.map((sent) => sent.answered))).map(({ status }) => status)).toEqual([200, 200, 200, 200]);

    const pages = [send('/api/failed?offset=0'), send('/api/failed?offset=50'), send('/api/failed?junk=1&offset=0')];
    await until(() => admission.size.running + admission.size.waiting === 3);
    expect(started.slice(spellings.length)).toEqual(['GET /api/failed?offset=0', 'GET /api/failed?offset=50']);
    answerOldest('GET /api/failed?offset=50');
    answerOldest('GET /api/failed?offset=0');
    await until(() => started.includes('GET /api/failed?junk=1&offset=0'));
    answerOldest('GET /api/failed?junk=1&offset=0');
    expect((await Promise.all(pages.map((sent) => sent.answered))).map(({ status }) => status)).toEqual([200, 200, 200]);
  });

  it('drops a waiting request whose client went away, and gives a place up when its client goes', async () => {
    const admission = new BurstAdmission();
    const { server, started, send, answerOldest } = await serverBehind(admission);
    open = server;
    const first = send('/reservations');
    const quitter = send('/reservations');
    quitter.answered.catch(() => {});
    const last = send('/reservations');
    await until(() => admission.size.waiting === 2);
    quitter.abort();
    await until(() => admission.size.waiting === 1);

    first.abort();
    first.answered.catch(() => {});
    await until(() => started.length === 2);
    answerOldest('GET /reservations');
    answerOldest('GET /reservations');
    expect((await last.answered).status).toBe(200);
    expect(started).toEqual(['GET /reservations', 'GET /reservations']);
  });

  it('lets the next in after maxHoldMs when an answer is never finished (a stalled client, a slow download)', async () => {
    const admission = new BurstAdmission({ maxHoldMs: 50 });
    const { server, started, send, answerOldest } = await serverBehind(admission);
    open = server;
    send('/api/jobs/1/fields/payload').answered.catch(() => {});
    const second = send('/api/jobs/1/fields/payload');
    await until(() => started.length === 2);
    answerOldest('GET /api/jobs/1/fields/payload');
    answerOldest('GET /api/jobs/1/fields/payload');
    expect((await second.answered).status).toBe(200);
    expect(admission.size).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses with 503 beyond maxWaiting identical requests, and says to try again', async () => {
    const admission = new BurstAdmission({ maxWaiting: 1 });
    const { server, send, answerOldest } = await serverBehind(admission);
    open = server;
    const first = send('/');
    const second = send('/');
    await until(() => admission.size.waiting === 1);
    expect(await send('/').answered).toEqual({ status: 503, body: 'Too many identical requests at once: try again in a moment.\n' });
    answerOldest('GET /');
    await first.answered;
    await until(() => admission.size.waiting === 0);
    answerOldest('GET /');
    expect((await second.answered).status).toBe(200);
  });
});
