import { isIP } from 'node:net';
import { isLocalHost } from '@/lib/redis/config';
import { canonicalAddress } from './client-address';
import { secretsMatch, type Role } from './session-token';

/**
 * Who may do what, from the environment:
 * QUEUELENS_SECRET (operator), QUEUELENS_VIEWER_SECRET (viewer, optional),
 * QUEUELENS_READ_ONLY=1 (everyone is a viewer), QUEUELENS_ORIGINS (the
 * comma-separated origins operators reach the dashboard at, behind a proxy
 * say; without it only loopback host names are answered),
 * QUEUELENS_TRUSTED_PROXIES (the addresses of reverse proxies whose
 * X-Forwarded-For names the client, for the per-client sign-in budgets), and
 * QUEUELENS_LOGIN_TOKEN (the one-time link `queuelens serve` prints).
 */
export interface AccessSettings {
  operatorSecret: string | undefined;
  viewerSecret: string | undefined;
  readOnly: boolean;
  origins: URL[];
  trustedProxies: string[];
  loginToken: string | undefined;
}

/** A secret guarding a dashboard that other machines can reach is at least this long, in bytes. */
export const MIN_EXPOSED_SECRET_BYTES = 32;

export function readAccessSettings(env: Readonly<Record<string, string | undefined>> = process.env): AccessSettings {
  const origins = (env.QUEUELENS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      try {
        return new URL(origin);
      } catch {
        throw new Error(`QUEUELENS_ORIGINS holds "${origin}", which is not an origin such as https://queues.example.com`);
      }
    });
  return {
    operatorSecret: env.QUEUELENS_SECRET || undefined,
    viewerSecret: env.QUEUELENS_VIEWER_SECRET || undefined,
    readOnly: env.QUEUELENS_READ_ONLY === '1' || env.QUEUELENS_READ_ONLY === 'true',
    origins,
    trustedProxies: trustedProxiesFromEnv(env.QUEUELENS_TRUSTED_PROXIES ?? ''),
    loginToken: env.QUEUELENS_LOGIN_TOKEN || undefined,
  };
}

function trustedProxiesFromEnv(value: string): string[] {
  return value
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
    .map((address) => {
      const canonical = canonicalAddress(address);
      if (isIP(canonical) === 0) throw new Error(`QUEUELENS_TRUSTED_PROXIES holds "${address}", which is not an IP address such as 10.0.0.2`);
      return canonical;
    });
}

/** The configured secrets, operator first: they sign the session cookies. */
export function configuredSecrets(settings: AccessSettings): string[] {
  return [settings.operatorSecret, settings.viewerSecret].filter((secret): secret is string => secret !== undefined);
}

/** The role a presented secret grants, or null. Read-only mode makes the operator secret a viewer's. */
export function roleOfSecret(settings: AccessSettings, given: string): Role | null {
  if (settings.operatorSecret !== undefined && secretsMatch(given, settings.operatorSecret)) return settings.readOnly ? 'viewer' : 'operator';
  if (settings.viewerSecret !== undefined && secretsMatch(given, settings.viewerSecret)) return 'viewer';
  return null;
}

/** A role as the settings allow it now: a session signed before read-only mode was switched on is a viewer's. */
export function effectiveRole(settings: AccessSettings, role: Role): Role {
  return settings.readOnly ? 'viewer' : role;
}

export function isLoopbackHost(hostname: string): boolean {
  return isLocalHost(hostname.replace(/^\[(.*)\]$/, '$1'));
}

/**
 * Why the server must not start, or null. A secret is always required
 * (loopback is not a trust boundary: a reverse proxy or a DNS-rebinding page
 * reaches it too); one that other machines can try to guess must be long.
 */
export function startupRefusal(settings: AccessSettings, bindHost: string | undefined): string | null {
  if (settings.operatorSecret === undefined && settings.viewerSecret === undefined) {
    return 'QueueLens needs a secret: set QUEUELENS_SECRET (and optionally QUEUELENS_VIEWER_SECRET), or start it with `npm start` on a loopback address, which makes one and prints a login link.';
  }
  if (settings.operatorSecret !== undefined && settings.operatorSecret === settings.viewerSecret) {
    return 'QUEUELENS_SECRET and QUEUELENS_VIEWER_SECRET are the same, so a login could not tell an operator from a viewer: give the viewer a secret of its own.';
  }
  if (bindHost !== undefined && isLoopbackHost(bindHost)) return null;
  const where = bindHost === undefined ? 'an address that is not known to be loopback' : `${bindHost}, which other machines can reach`;
  for (const [name, secret] of [
    ['QUEUELENS_SECRET', settings.operatorSecret],
    ['QUEUELENS_VIEWER_SECRET', settings.viewerSecret],
  ] as const) {
    if (secret !== undefined && Buffer.byteLength(secret, 'utf8') < MIN_EXPOSED_SECRET_BYTES) {
      return `Refusing to listen on ${where}: ${name} is shorter than ${MIN_EXPOSED_SECRET_BYTES} bytes. Generate one with \`openssl rand -base64 32\`.`;
    }
  }
  if (settings.origins.length === 0) {
    return `Refusing to listen on ${where} without QUEUELENS_ORIGINS: name the address operators open, e.g. QUEUELENS_ORIGINS=https://queues.example.com, so that requests for any other host name (DNS rebinding) are refused.`;
  }
  return null;
}

/** Reached without signing in: the sign-in page and its one-time link. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/login', '/login/link']);

/** What a request for a host name that is not the dashboard's is told (421), by every gate. */
export const FOREIGN_HOST_ERROR = 'This dashboard does not answer for that host name.';

/**
 * Whether a request's Host header names this dashboard: a loopback name or
 * the host of a configured origin. Anything else is a page that got a browser
 * to send it here under its own name (DNS rebinding), or a proxy that does
 * not pass the Host on.
 */
export function isAllowedHost(settings: AccessSettings, host: string | null): boolean {
  if (!host) return false;
  if (settings.origins.some((origin) => origin.host === host.toLowerCase())) return true;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a state-changing request comes from the dashboard's own pages: an
 * Origin header is required (`null`, a missing one and a foreign one are
 * refused) and is exactly, scheme, host and port, a configured origin or
 * `http://` and the loopback host the request was sent to (the built server
 * speaks plain HTTP; TLS in front of it is a configured origin). An Origin
 * with user info, a path or another scheme is no browser's and is refused.
 */
export function isAllowedOrigin(settings: AccessSettings, origin: string | null, host: string | null): boolean {
  if (!origin || !host || !isAllowedHost(settings, host)) return false;
  const given = origin.toLowerCase();
  const requestHost = host.toLowerCase();
  if (settings.origins.some((allowed) => allowed.host === requestHost && allowed.origin === given)) return true;
  return isLoopbackHost(new URL(`http://${requestHost}`).hostname) && given === `http://${requestHost}`;
}

/** The base a `next` path is resolved against: any origin of ours would do, this one can never be reached. */
const BASE = 'http://queuelens.invalid';

/**
 * Where to send someone after signing in: a path on this site, or the
 * overview. The path is resolved once, as a browser would resolve it, and
 * the result is what is returned: a resolution that leaves the site or
 * starts with `//` (a protocol-relative URL to another host, which
 * `/..//evil.example` and `/./\evil.example` resolve to: the parser reads
 * `\` as `/` and drops dot segments) falls back to the overview.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || /[\u0000-\u001f\u007f]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/';
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === BASE && path.startsWith('/') && !path.startsWith('//') ? path : '/';
}
