import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { isAllowedHost, isAllowedOrigin, readAccessSettings, roleOfSecret, safeNextPath, startupRefusal } from './access-settings';
import { clientAddress } from './client-address';
import { checkAccess, checkCredentials, loginThrottle, type Presented } from './credentials';
import { prepareLaunch } from './launch';
import { LoginThrottle } from './login-throttle';
import { SessionStore } from './session-store';
import { issueSessionToken, sessionKey, verifySessionToken } from './session-token';

const LONG = 'x'.repeat(32);
const key = sessionKey(['operator-secret', 'viewer-secret']);
const SESSION_ID = 'a'.repeat(24);
const nobody: Presented = { sessionCookie: undefined, authorization: null, clientName: null, clientAddress: '127.0.0.1' };

describe('session tokens', () => {
  it('round-trips a session and refuses a forged, expired or re-keyed one', () => {
    const token = issueSessionToken(key, { id: SESSION_ID, role: 'viewer', who: 'Ann <b>', expiresAt: 2_000 });
    expect(verifySessionToken(key, token, 1_000)).toEqual({ id: SESSION_ID, role: 'viewer', who: 'Ann <b>', expiresAt: 2_000 });
    expect(verifySessionToken(key, token, 2_000)).toBeNull();
    expect(verifySessionToken(sessionKey(['rotated', 'viewer-secret']), token, 1_000)).toBeNull();
    const promoted = token.replace('.viewer.', '.operator.');
    expect(verifySessionToken(key, promoted, 1_000)).toBeNull();
    expect(verifySessionToken(key, 'v1.operator.9999999999.eA.AAAA', 1_000)).toBeNull();
    const other = token.replace(`.${SESSION_ID}.`, `.${'b'.repeat(24)}.`);
    expect(verifySessionToken(key, other, 1_000)).toBeNull();
    expect(verifySessionToken(key, '', 1_000)).toBeNull();
  });
});

describe('secrets and roles', () => {
  const settings = readAccessSettings({ QUEUELENS_SECRET: 'op', QUEUELENS_VIEWER_SECRET: 'view' });

  it('gives each secret its role, and read-only mode makes the operator a viewer', () => {
    expect(roleOfSecret(settings, 'op')).toBe('operator');
    expect(roleOfSecret(settings, 'view')).toBe('viewer');
    expect(roleOfSecret(settings, 'opx')).toBeNull();
    expect(roleOfSecret(settings, '')).toBeNull();
    expect(roleOfSecret(readAccessSettings({ QUEUELENS_SECRET: 'op', QUEUELENS_READ_ONLY: '1' }), 'op')).toBe('viewer');
  });

  it('accepts a bearer secret or a signed session', () => {
    const bearer = checkCredentials(settings, { ...nobody, authorization: 'Bearer view', clientName: 'nightly job\n' });
    expect(bearer).toEqual({ ok: true, access: { role: 'viewer', who: 'nightly job', via: 'bearer' } });
    expect(checkCredentials(settings, nobody)).toMatchObject({ ok: false, status: 401 });
    const session = issueSessionToken(sessionKey(['op', 'view']), { id: SESSION_ID, role: 'operator', who: 'Bo', expiresAt: 4_000_000_000 });
    expect(checkCredentials(settings, { ...nobody, sessionCookie: session })).toMatchObject({
      ok: true,
      access: { role: 'operator', who: 'Bo', sessionId: SESSION_ID },
    });
    const readOnly = readAccessSettings({ QUEUELENS_SECRET: 'op', QUEUELENS_VIEWER_SECRET: 'view', QUEUELENS_READ_ONLY: 'true' });
    expect(checkCredentials(readOnly, { ...nobody, sessionCookie: session })).toMatchObject({ ok: true, access: { role: 'viewer' } });
  });

  it('throttles a client after the limit within the window, forgets its failures after it, and leaves other clients alone', () => {
    const throttle = new LoginThrottle(2, 60_000);
    throttle.recordFailure('10.0.0.1', 1_000);
    throttle.recordFailure('10.0.0.1', 2_000);
    expect(throttle.retryAfterSeconds('10.0.0.1', 3_000)).toBe(58);
    expect(throttle.retryAfterSeconds('10.0.0.2', 3_000)).toBe(0);
    expect(throttle.retryAfterSeconds('10.0.0.1', 61_001)).toBe(0);
  });

  it('remembers a bounded number of clients, forgetting the one that failed longest ago', () => {
    const throttle = new LoginThrottle(1, 60_000, 2);
    throttle.recordFailure('a', 1_000);
    throttle.recordFailure('b', 2_000);
    throttle.recordFailure('a', 3_000);
    throttle.recordFailure('c', 4_000);
    expect(['a', 'b', 'c'].map((client) => throttle.retryAfterSeconds(client, 5_000) > 0)).toEqual([true, false, true]);
  });

  it('accepts a right long bearer secret while wrong ones from the same client are throttled; a short one stays behind the budget', () => {
    const client = `test-${Math.random()}`;
    const long = readAccessSettings({ QUEUELENS_SECRET: LONG, QUEUELENS_VIEWER_SECRET: 'short' });
    const wrong = { ...nobody, clientAddress: client, authorization: 'Bearer guess' };
    const now = 1_000_000;
    for (let attempt = 0; attempt < 10; attempt++) expect(checkCredentials(long, wrong, now + attempt)).toMatchObject({ ok: false, status: 401 });
    expect(checkCredentials(long, wrong, now + 10)).toMatchObject({ ok: false, status: 429 });
    expect(checkCredentials(long, { ...wrong, authorization: `Bearer ${LONG}` }, now + 11)).toMatchObject({
      ok: true,
      access: { role: 'operator', via: 'bearer' },
    });
    expect(checkCredentials(long, { ...wrong, authorization: 'Bearer short' }, now + 12)).toMatchObject({ ok: false, status: 429 });
    expect(checkCredentials(long, { ...wrong, clientAddress: `${client}-other`, authorization: 'Bearer short' }, now + 13)).toMatchObject({
      ok: true,
      access: { role: 'viewer' },
    });
    expect(loginThrottle().retryAfterSeconds(client, now + 60_011)).toBe(0);
  });
});

describe('client addresses', () => {
  it('is the peer, unless the peer is a trusted proxy: then the last address it forwarded, back through every trusted one', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(clientAddress('::ffff:10.0.0.2', '198.51.100.1, 203.0.113.7', ['10.0.0.2'])).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', 'forged, 203.0.113.7, 10.0.0.3', ['10.0.0.2', '10.0.0.3'])).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', undefined, ['10.0.0.2'])).toBe('10.0.0.2');
    expect(clientAddress(undefined, '198.51.100.1', [])).toBe('unknown');
    expect(readAccessSettings({ QUEUELENS_TRUSTED_PROXIES: ' 10.0.0.2, [::1] ' }).trustedProxies).toEqual(['10.0.0.2', '::1']);
    expect(() => readAccessSettings({ QUEUELENS_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/not an IP address/);
  });
});

describe('the session store', () => {
  const openQueue = testQueueFactory();
  const settings = readAccessSettings({ QUEUELENS_SECRET: 'op', QUEUELENS_VIEWER_SECRET: 'view' });

  it('opens, lists and ends sessions; a cookie of an ended session is refused, one of an open session accepted', async () => {
    const queue = await openQueue();
    const store = new SessionStore(queue.redis, `${queue.keys.prefix}ql:`, 'test');
    const now = Date.now();
    const first = await store.start('operator', 'Ann', now);
    const second = await store.start('viewer', 'Bo', now + 1000);
    expect((await store.list(now + 2000)).map(({ who, role }) => ({ who, role }))).toEqual([
      { who: 'Bo', role: 'viewer' },
      { who: 'Ann', role: 'operator' },
    ]);
    const cookieOf = (session: typeof first) => issueSessionToken(sessionKey(['op', 'view']), session);
    expect(await checkAccess(settings, { ...nobody, sessionCookie: cookieOf(first) }, store, now + 2000)).toMatchObject({ ok: true, access: { who: 'Ann' } });
    expect(await store.end(first.id)).toBe(true);
    expect(await store.end(first.id)).toBe(false);
    expect(await checkAccess(settings, { ...nobody, sessionCookie: cookieOf(first) }, store, now + 2000)).toMatchObject({
      ok: false,
      status: 401,
      error: expect.stringMatching(/session has ended/),
    });
    expect(await checkAccess(settings, { ...nobody, sessionCookie: cookieOf(second) }, store, now + 2000)).toMatchObject({ ok: true });
    // Another process (a second dashboard instance) sees the end once its own short cache has lapsed.
    const elsewhere = new SessionStore(queue.redis, `${queue.keys.prefix}ql:`, 'test');
    expect(await elsewhere.isOpen(second.id, now + 2000)).toBe(true);
    await store.end(second.id);
    expect(await elsewhere.isOpen(second.id, now + 4000)).toBe(false);
    expect(await store.list(now + 4000)).toEqual([]);
  });

  it('drops expired sessions, refuses a session without a store (503), and lets bearer secrets through either way', async () => {
    const queue = await openQueue();
    const store = new SessionStore(queue.redis, `${queue.keys.prefix}ql:`, 'test');
    const now = Date.now();
    const old = await store.start('operator', 'Cy', now - 13 * 3600 * 1000);
    expect(await store.isOpen(old.id, now)).toBe(false);
    expect(await store.list(now)).toEqual([]);
    expect(await queue.redis.hlen(store.key)).toBe(0);
    const cookie = issueSessionToken(sessionKey(['op', 'view']), { ...old, expiresAt: Math.floor(now / 1000) + 60 });
    expect(await checkAccess(settings, { ...nobody, sessionCookie: cookie }, undefined, now)).toMatchObject({ ok: false, status: 503 });
    expect(await checkAccess(settings, { ...nobody, authorization: 'Bearer view' }, undefined, now)).toMatchObject({ ok: true, access: { via: 'bearer' } });
  });
});

describe('starting up', () => {
  it('refuses without a secret, with equal secrets, and exposed with a short secret or no origins', () => {
    expect(startupRefusal(readAccessSettings({}), '127.0.0.1')).toMatch(/needs a secret/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'a', QUEUELENS_VIEWER_SECRET: 'a' }), '127.0.0.1')).toMatch(/the same/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short' }), '127.0.0.1')).toBeNull();
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short' }), '::1')).toBeNull();
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short', QUEUELENS_ORIGINS: 'https://q.example' }), '0.0.0.0')).toMatch(
      /shorter than 32 bytes/,
    );
    expect(
      startupRefusal(readAccessSettings({ QUEUELENS_SECRET: LONG, QUEUELENS_VIEWER_SECRET: 'short', QUEUELENS_ORIGINS: 'https://q.example' }), '10.0.0.5'),
    ).toMatch(/QUEUELENS_VIEWER_SECRET is shorter/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: LONG }), '0.0.0.0')).toMatch(/QUEUELENS_ORIGINS/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: LONG }), undefined)).toMatch(/not known to be loopback/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: LONG, QUEUELENS_ORIGINS: 'https://q.example' }), '0.0.0.0')).toBeNull();
    expect(() => readAccessSettings({ QUEUELENS_ORIGINS: 'q.example' })).toThrow(/not an origin/);
  });

  it('makes a secret and a one-time link on loopback only', () => {
    const launch = prepareLaunch({}, '127.0.0.1', 3000);
    if (!launch.ok) throw new Error(launch.error);
    expect(launch.env.QUEUELENS_SECRET).toHaveLength(43);
    expect(launch.env.QUEUELENS_LOGIN_TOKEN).not.toBe(launch.env.QUEUELENS_SECRET);
    expect(launch.notice.join('\n')).toContain(`http://127.0.0.1:3000/login/link?token=${launch.env.QUEUELENS_LOGIN_TOKEN}`);
    expect(prepareLaunch({}, '0.0.0.0', 3000)).toMatchObject({ ok: false });
    expect(prepareLaunch({ QUEUELENS_SECRET: LONG, QUEUELENS_ORIGINS: 'https://q.example' }, '0.0.0.0', 3000)).toEqual({ ok: true, env: {}, notice: [] });
  });
});

describe('hosts, origins and redirects', () => {
  const local = readAccessSettings({});
  const proxied = readAccessSettings({ QUEUELENS_ORIGINS: 'https://queues.example.com' });

  it('answers loopback names and configured hosts only', () => {
    for (const host of ['127.0.0.1:3000', 'localhost', '[::1]:3000']) expect(isAllowedHost(local, host), host).toBe(true);
    for (const host of ['rebind.example:3000', '', '10.0.0.1', 'localhost.evil.example']) expect(isAllowedHost(local, host), host).toBe(false);
    expect(isAllowedHost(local, null)).toBe(false);
    expect(isAllowedHost(proxied, 'queues.example.com')).toBe(true);
    expect(isAllowedHost(proxied, 'other.example.com')).toBe(false);
  });

  it('wants an Origin that is, scheme, host and port, the dashboard’s own', () => {
    expect(isAllowedOrigin(local, 'http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(true);
    expect(isAllowedOrigin(local, 'http://localhost', 'localhost')).toBe(true);
    for (const origin of [
      'https://127.0.0.1:3000',
      'ftp://127.0.0.1:3000',
      'ws://127.0.0.1:3000',
      'javascript://127.0.0.1:3000',
      'http://user@127.0.0.1:3000',
      'http://127.0.0.1:3000/x',
      'http://127.0.0.1',
    ]) {
      expect(isAllowedOrigin(local, origin, '127.0.0.1:3000'), origin).toBe(false);
    }
    for (const origin of ['http://queues.example.com', 'https://queues.example.com:8443', 'wss://queues.example.com', 'https://user@queues.example.com']) {
      expect(isAllowedOrigin(proxied, origin, 'queues.example.com'), origin).toBe(false);
    }
    expect(isAllowedOrigin(local, 'http://127.0.0.1:3001', '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, 'null', '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, null, '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, 'http://evil.example', 'evil.example')).toBe(false);
    expect(isAllowedOrigin(proxied, 'https://queues.example.com', 'queues.example.com')).toBe(true);
  });

  it.each([
    // next= as it arrives (the query string already decoded once), and where it sends the browser
    ['/failed?queue=a#top', '/failed?queue=a#top'],
    ['/queues/a%2Fb', '/queues/a%2Fb'],
    ['/failed/../reservations', '/reservations'],
    ['/./failed', '/failed'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/.//evil.example', '/'],
    ['/..//evil.example', '/'],
    ['/./\\evil.example', '/'],
    ['/.\\/evil.example', '/'],
    ['/../\\evil.example', '/'],
    ['/x/../..//evil.example', '/'],
    ['/%2e//evil.example', '/'],
    ['/%2e%2e//evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/\n/evil.example', '/'],
    ['https://evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
    [undefined, '/'],
    [42, '/'],
  ])('sends next=%j to %j', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
