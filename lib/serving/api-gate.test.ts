import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccessSettings } from '../auth/access-settings';
import { SESSION_COOKIE } from '../auth/credentials';
import { SessionStore } from '../auth/session-store';
import { issueSessionToken, sessionKey } from '../auth/session-token';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { guardApi, isApiPath } from './api-gate';
import { JSON_CONTENT_SECURITY_POLICY } from './request-gate';
import { sendExactly } from './test-http';

const OPERATOR = 'o'.repeat(32);
const VIEWER = 'v'.repeat(32);

describe('isApiPath', () => {
  it('takes a path for the API however a router could read it, and nothing else', () => {
    for (const path of [
      '/api/overview',
      '/api/failed?limit=0',
      '/x/../api/overview',
      '/x/%2e%2e/api/overview',
      '/%61pi/overview',
      '/api%2Foverview',
      '//api/overview',
      '/\\api/overview',
      'http://elsewhere/api/overview',
      '/api/',
    ]) {
      expect(isApiPath(path), path).toBe(true);
    }
    for (const path of ['/', '/api', '/apiary', '/reservations', '/login?next=/api/overview', '/jobs/12', '/%E0%A4%A', undefined]) {
      expect(isApiPath(path), String(path)).toBe(false);
    }
  });
});

describe('the API gate over HTTP', () => {
  const openQueue = testQueueFactory();
  const settings = readAccessSettings({ QUEUELENS_SECRET: OPERATOR, QUEUELENS_VIEWER_SECRET: VIEWER });
  let server: Server;
  let port: number;
  /** The session store the gate asks; a test that signs in sets it. */
  let sessions: SessionStore | undefined;
  /** Set to make asking for the store throw, as a broken server would. */
  let storeBroken = false;
  const logged: string[] = [];
  /** What reached the route behind the gate. */
  const reached: string[] = [];

  beforeAll(async () => {
    const gate = {
      settings,
      sessions: () => {
        if (storeBroken) throw new Error('secret detail of a broken store');
        return sessions;
      },
      log: (_level: 'error', message: string) => logged.push(message),
    };
    server = createServer((request: IncomingMessage, response: ServerResponse) =>
      guardApi(request, response, gate, () => {
        reached.push(`${request.method} ${request.url}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.close();
  });

  const send = (path: string, headers: Record<string, string> = {}, method = 'GET') => sendExactly(port, path, { headers, method });

  it('lets a bearer secret of either role through, with the API headers', async () => {
    for (const secret of [OPERATOR, VIEWER]) {
      const answer = await send('/api/overview', { authorization: `Bearer ${secret}` });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-security-policy']).toBe(JSON_CONTENT_SECURITY_POLICY);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
    expect(reached).toEqual(['GET /api/overview', 'GET /api/overview']);
  });

  it('refuses missing or wrong credentials with 401 and a Bearer challenge, before the route', async () => {
    reached.length = 0;
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { cookie: `${SESSION_COOKIE}=forged` }] as Record<string, string>[]) {
      const answer = await send('/api/failed?limit=0', headers);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toContain('Bearer');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(answer.body)).toMatchObject({ ok: false });
    }
    expect(reached).toEqual([]);
  });

  it('refuses any method but GET and HEAD (405), before credentials count', async () => {
    reached.length = 0;
    for (const method of ['POST', 'DELETE', 'OPTIONS']) {
      const answer = await send('/api/overview', { authorization: `Bearer ${OPERATOR}` }, method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    expect((await send('/api/overview', { authorization: `Bearer ${OPERATOR}` }, 'HEAD')).status).toBe(200);
    expect(reached).toEqual(['HEAD /api/overview']);
  });

  it('lets an open session through and refuses it once ended', async () => {
    reached.length = 0;
    const queue = await openQueue();
    const store = new SessionStore(queue.redis, `${queue.keys.prefix}ql:`, 'test');
    sessions = store;
    const session = await store.start('viewer', 'Ann');
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(issueSessionToken(sessionKey([OPERATOR, VIEWER]), session))}`;
    expect((await send('/api/overview', { cookie })).status).toBe(200);
    expect(await store.end(session.id)).toBe(true);
    expect((await send('/api/overview', { cookie })).status).toBe(401);
    expect(reached).toEqual(['GET /api/overview']);
    sessions = undefined;
  });

  it('answers 500 without the cause when the check itself fails, and logs it', async () => {
    reached.length = 0;
    storeBroken = true;
    const answer = await send('/api/overview', { authorization: `Bearer ${OPERATOR}` });
    storeBroken = false;
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('secret detail');
    expect(JSON.parse(answer.body).error).toContain('server log');
    expect(logged).toEqual(['the API gate failed on a request']);
    expect(reached).toEqual([]);
  });
});
