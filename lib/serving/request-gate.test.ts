import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccessSettings } from '../auth/access-settings';
import { actionBodyProblem } from './action-body';
import { pageActionsReader } from './page-actions';
import { guardRequest, JSON_CONTENT_SECURITY_POLICY } from './request-gate';
import { sendExactly } from './test-http';

const LOGIN_ACTION = 'a'.repeat(42);
const FAILED_PAGE_ACTION = 'f'.repeat(42);

describe('every request’s gate over HTTP', () => {
  const manifestFolder = mkdtempSync(join(tmpdir(), 'queuelens-request-gate-'));
  const manifestPath = join(manifestFolder, 'server-reference-manifest.json');
  let server: Server;
  let port: number;
  /** What reached the app behind the gate. */
  const reached: string[] = [];

  beforeAll(async () => {
    // The shape of Next's build manifest: each action's id and the pages that hold it.
    writeFileSync(
      manifestPath,
      JSON.stringify({
        node: { [LOGIN_ACTION]: { workers: { 'app/login/page': {}, 'app/failed/page': {} } }, [FAILED_PAGE_ACTION]: { workers: { 'app/failed/page': {} } } },
        edge: {},
      }),
    );
    const gate = { settings: readAccessSettings({ QUEUELENS_SECRET: 'o'.repeat(32) }), actionsOf: pageActionsReader(manifestPath, { once: true }) };
    server = createServer((request: IncomingMessage, response: ServerResponse) =>
      guardRequest(request, response, gate, () => {
        reached.push(`${request.method} ${request.url}`);
        response.writeHead(200).end('app');
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.close();
    rmSync(manifestFolder, { recursive: true, force: true });
  });

  /** A request with its target and Host exactly as given (a change carries an empty action body); a raw socket sends what no client would. */
  const send = (path: string, { headers = {}, method = 'GET' }: { headers?: Record<string, string>; method?: string } = {}) =>
    sendExactly(port, path, { headers, method, body: method === 'GET' ? undefined : '[]' });
  const sendRaw = (head: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  const errorOf = (body: string) => (JSON.parse(body) as { ok: false; error: string }).error;

  it('lets a plain request through untouched', async () => {
    reached.length = 0;
    expect((await send('/failed?queue=a%20b')).status).toBe(200);
    expect((await send('/login', { method: 'POST', headers: { 'next-action': LOGIN_ACTION } })).status).toBe(200);
    expect((await send('/failed', { method: 'POST', headers: { 'next-action': FAILED_PAGE_ACTION } })).status).toBe(200);
    expect(reached).toEqual(['GET /failed?queue=a%20b', 'POST /login', 'POST /failed']);
  });

  it('refuses a request target in absolute form (or any but a path) with 400 and the security headers', async () => {
    reached.length = 0;
    for (const target of ['http://other.example/failed', `http://127.0.0.1:${port}/api/overview`, '*']) {
      const answer = await sendRaw(`GET ${target} HTTP/1.1`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer, target).not.toMatch(/^location:/im);
      expect(answer, target).toMatch(/^x-content-type-options: nosniff$/im);
      expect(answer, target).toContain(`content-security-policy: ${JSON_CONTENT_SECURITY_POLICY}`);
      expect(answer, target).toContain('"error":"The request target must be a path on this server, not an absolute URL."');
    }
    expect(reached).toEqual([]);
  });

  it('refuses a foreign host name (421), and a mixed-case Host on a change (400) but not on a read', async () => {
    reached.length = 0;
    const foreign = await send('/failed', { headers: { host: `rebound.example:${port}` } });
    expect(foreign.status).toBe(421);
    expect(errorOf(foreign.body)).toContain('host name');
    const change = await send('/failed', { method: 'POST', headers: { host: `LocalHost:${port}`, 'next-action': FAILED_PAGE_ACTION } });
    expect(change.status).toBe(400);
    expect(errorOf(change.body)).toBe('The Host header of a change must be lowercase, as browsers send it.');
    expect((await send('/failed', { headers: { host: `LocalHost:${port}` } })).status).toBe(200);
    expect(reached).toEqual(['GET /failed']);
  });

  it('refuses a malformed percent-escape in the path with 400, and leaves the query to the app', async () => {
    reached.length = 0;
    for (const path of ['/jobs/%ZZ', '/api/queues/%E0%A4%A/line', '/queues/%FF', '/jobs/%']) {
      const answer = await send(path);
      expect(answer.status, path).toBe(400);
      expect(errorOf(answer.body), path).toMatch(/^The path has a malformed percent-escape/);
      expect(answer.body, path).not.toContain('    at ');
    }
    expect((await send('/queues/%E0%A4%A4?q=%ZZ')).status).toBe(200);
    expect(reached).toEqual(['GET /queues/%E0%A4%A4?q=%ZZ']);
  });

  it('refuses a forwarded-action header from anyone, and an action a sign-in page does not hold', async () => {
    reached.length = 0;
    for (const path of ['/failed', '/login']) {
      const forwarded = await send(path, { method: 'POST', headers: { 'next-action': LOGIN_ACTION, 'x-action-forwarded': '1' } });
      expect(forwarded.status, path).toBe(400);
      expect(errorOf(forwarded.body)).toContain('forwarded server action');
    }
    for (const path of ['/login', '/login/link', '/%6Cogin', '//login']) {
      const foreign = await send(path, { method: 'POST', headers: { 'next-action': FAILED_PAGE_ACTION } });
      expect(foreign.status, path).toBe(400);
      expect(errorOf(foreign.body)).toBe('That action is not one of this page’s: the sign-in pages take only their own.');
    }
    // The link page holds no action in this manifest, not even the login page's.
    expect((await send('/login/link', { method: 'POST', headers: { 'next-action': LOGIN_ACTION } })).status).toBe(400);
    expect(reached).toEqual([]);
  });

  it('sends a trailing slash to the path without it once, on this host, with the query', async () => {
    reached.length = 0;
    for (const [path, location] of [
      ['/failed/', '/failed'],
      ['/failed//?queue=a', '/failed?queue=a'],
      ['//failed/', '/failed'],
      ['//evil.example/', '/evil.example'],
      ['/\\evil.example/', '/evil.example'],
      ['/api/queues/a/', '/api/queues/a'],
    ] as const) {
      const answer = await send(path);
      expect(answer.status, path).toBe(308);
      expect(answer.headers.location, path).toBe(location);
      expect(answer.headers['x-frame-options'], path).toBe('DENY');
      expect((await send(location)).status, location).toBe(200);
    }
    expect(reached).toHaveLength(6);
  });
});

describe('pageActionsReader', () => {
  it('knows no page while the manifest cannot be read, so that the gate leaves actions to Next', () => {
    expect(pageActionsReader(join(tmpdir(), 'no-such-folder', 'manifest.json'), { once: false })('app/login/page')).toBeUndefined();
  });
});

describe('actionBodyProblem', () => {
  const post = (body: BodyInit, type = 'text/plain;charset=UTF-8') =>
    new Request('http://gate.invalid/failed', { method: 'POST', body, headers: { 'content-type': type } });

  it('takes a JSON array or a readable form, as the browser sends an action’s arguments', async () => {
    expect(await actionBodyProblem(post('[{"ids":["1"]},"default"]'))).toBeNull();
    expect(await actionBodyProblem(post('[]'))).toBeNull();
    const form = new FormData();
    form.set('0', '["$K1"]');
    expect(await actionBodyProblem(new Request('http://gate.invalid/login', { method: 'POST', body: form }))).toBeNull();
  });

  it('says what is wrong with anything else', async () => {
    expect(await actionBodyProblem(post('not json'))).toBe('The arguments of the action are not JSON.');
    expect(await actionBodyProblem(post(''))).toBe('The arguments of the action are not JSON.');
    expect(await actionBodyProblem(post('{"ids":["1"]}'))).toBe('The arguments of the action are not a JSON array.');
    expect(await actionBodyProblem(post('--x\r\nbroken', 'multipart/form-data; boundary=y'))).toBe(
      'The arguments of the action are not a form that can be read.',
    );
  });
});
