import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, readAccessSettings, roleOfSecret, safeNextPath, startupRefusal } from './access-settings';
import { checkCredentials } from './credentials';
import { prepareLaunch } from './launch';
import { LoginThrottle } from './login-throttle';
import { issueSessionToken, sessionKey, verifySessionToken } from './session-token';

const LONG = 'x'.repeat(32);
const key = sessionKey(['operator-secret', 'viewer-secret']);

describe('session tokens', () => {
  it('round-trips a session and refuses a forged, expired or re-keyed one', () => {
    const token = issueSessionToken(key, { role: 'viewer', who: 'Ann <b>', expiresAt: 2_000 });
    expect(verifySessionToken(key, token, 1_000)).toEqual({ role: 'viewer', who: 'Ann <b>', expiresAt: 2_000 });
    expect(verifySessionToken(key, token, 2_000)).toBeNull();
    expect(verifySessionToken(sessionKey(['rotated', 'viewer-secret']), token, 1_000)).toBeNull();
    const promoted = token.replace('.viewer.', '.operator.');
    expect(verifySessionToken(key, promoted, 1_000)).toBeNull();
    expect(verifySessionToken(key, 'v1.operator.9999999999.eA.AAAA', 1_000)).toBeNull();
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
    const bearer = checkCredentials(settings, { sessionCookie: undefined, authorization: 'Bearer view', clientName: 'nightly job\n' });
    expect(bearer).toEqual({ ok: true, access: { role: 'viewer', who: 'nightly job', via: 'bearer' } });
    expect(checkCredentials(settings, { sessionCookie: undefined, authorization: null, clientName: null })).toMatchObject({ ok: false, status: 401 });
    const session = issueSessionToken(sessionKey(['op', 'view']), { role: 'operator', who: 'Bo', expiresAt: 4_000_000_000 });
    expect(checkCredentials(settings, { sessionCookie: session, authorization: null, clientName: null })).toMatchObject({ ok: true, access: { role: 'operator', who: 'Bo' } });
    const readOnly = readAccessSettings({ QUEUELENS_SECRET: 'op', QUEUELENS_VIEWER_SECRET: 'view', QUEUELENS_READ_ONLY: 'true' });
    expect(checkCredentials(readOnly, { sessionCookie: session, authorization: null, clientName: null })).toMatchObject({ ok: true, access: { role: 'viewer' } });
  });

  it('throttles after the limit within the window, and forgets failures after it', () => {
    const throttle = new LoginThrottle(2, 60_000);
    throttle.recordFailure(1_000);
    throttle.recordFailure(2_000);
    expect(throttle.retryAfterSeconds(3_000)).toBe(58);
    expect(throttle.retryAfterSeconds(61_001)).toBe(0);
  });
});

describe('starting up', () => {
  it('refuses without a secret, with equal secrets, and exposed with a short secret or no origins', () => {
    expect(startupRefusal(readAccessSettings({}), '127.0.0.1')).toMatch(/needs a secret/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'a', QUEUELENS_VIEWER_SECRET: 'a' }), '127.0.0.1')).toMatch(/the same/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short' }), '127.0.0.1')).toBeNull();
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short' }), '::1')).toBeNull();
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: 'short', QUEUELENS_ORIGINS: 'https://q.example' }), '0.0.0.0')).toMatch(/shorter than 32 bytes/);
    expect(startupRefusal(readAccessSettings({ QUEUELENS_SECRET: LONG, QUEUELENS_VIEWER_SECRET: 'short', QUEUELENS_ORIGINS: 'https://q.example' }), '10.0.0.5')).toMatch(/QUEUELENS_VIEWER_SECRET is shorter/);
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

  it('wants an Origin naming the host the request went to', () => {
    expect(isAllowedOrigin(local, 'http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(true);
    expect(isAllowedOrigin(local, 'http://127.0.0.1:3001', '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, 'null', '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, null, '127.0.0.1:3000')).toBe(false);
    expect(isAllowedOrigin(local, 'http://evil.example', 'evil.example')).toBe(false);
    expect(isAllowedOrigin(proxied, 'https://queues.example.com', 'queues.example.com')).toBe(true);
  });

  it('keeps next= on this site', () => {
    expect(safeNextPath('/failed?queue=a#top')).toBe('/failed?queue=a#top');
    for (const next of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/\nx', undefined, 42]) expect(safeNextPath(next)).toBe('/');
  });
});
