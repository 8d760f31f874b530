import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessSettings } from '@/lib/auth/access-settings';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { checkAccess, CLIENT_NAME_HEADER, refusalHeaders, SESSION_COOKIE } from '@/lib/auth/credentials';
import type { SessionStore } from '@/lib/auth/session-store';
import { oneSlash, sendRefusal, setJsonAnswerHeaders, single, type GateRefusal } from './request-gate';

/**
 * The outer gate of the JSON API (`/api/*`), in front of Next.js
 * (instrumentation-node.ts), where proxy.ts is every page's. Next invokes a
 * proxy at a cost of its own: ours cost about 3.8 ms of CPU a request, as
 * much again as a route behind it that reads nothing, and a proxy that
 * returned at once answered no sooner (docs/benchmarks-history.md); the API is what
 * every open tab asks for every few seconds. Its checks are proxy.ts' for a
 * GET: credentials and whether their session is still open (the host name
 * and the trailing slash are every request's, lib/serving/request-gate.ts,
 * checked before). The API answers GET (and HEAD) only, so any other
 * method is refused here before a body is read, in place of the origin and
 * body-size checks. Each route checks access again itself
 * (lib/server/access.ts); this is the outer wall, not the only one.
 */

const API_PREFIX = '/api/';

/**
 * A request's target as a URL: a path (`//elsewhere/x` stays a path, never
 * a host name) or, in the absolute form a client may send, its path.
 */
export function requestUrl(raw: string): URL {
  if (!raw.startsWith('/') && URL.canParse(raw)) return new URL(raw);
  return new URL(`http://gate.invalid${raw.startsWith('/') ? '' : '/'}${raw}`);
}

/**
 * Whether a request's path is under `/api/`, as written or read any way a
 * router might: dot segments resolved, percent-escapes decoded, doubled
 * slashes and backslashes made one slash. Next's proxy matcher leaves
 * `/api/` to this gate, so no API path may pass here as something else;
 * a page path taken for an API one only meets both gates.
 */
export function isApiPath(rawUrl: string | undefined): boolean {
  const raw = rawUrl ?? '/';
  const { pathname } = requestUrl(raw);
  const readings = [raw, pathname];
  try {
    readings.push(decodeURIComponent(pathname));
  } catch {
    // A malformed escape: the path as URL resolved it is all there is to go on.
  }
  return readings.some((path) => oneSlash(path).startsWith(API_PREFIX));
}

/** A cookie's value from a Cookie header, percent-decoded as Next's cookies() reads it. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Why `request` may not reach the API, or null when it may. */
async function apiRefusal(request: IncomingMessage, settings: AccessSettings, sessions: SessionStore | undefined): Promise<GateRefusal | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return { status: 405, error: 'The API only answers GET.', headers: { allow: 'GET, HEAD' } };
  }

  const credentials = await checkAccess(
    settings,
    {
      sessionCookie: cookieValue(single(request.headers.cookie) ?? undefined, SESSION_COOKIE),
      authorization: single(request.headers.authorization),
      clientName: single(request.headers[CLIENT_NAME_HEADER]),
      clientAddress: single(request.headers[CLIENT_ADDRESS_HEADER]) ?? 'unknown',
    },
    sessions,
  );
  if (credentials.ok) return null;
  return { status: credentials.status, error: credentials.error, headers: refusalHeaders(credentials.status) };
}

export interface ApiGate {
  settings: AccessSettings;
  /** the store the server registered, asked at each request */
  sessions: () => SessionStore | undefined;
  log: (level: 'error', message: string, fields: Record<string, unknown>) => void;
}

/**
 * Hands `request` to `next` unless it is the API's and the gate refuses it,
 * in which case the gate answers it. Put in front of the app's request
 * listener; a page's request goes straight to `next`.
 */
export function guardApi(request: IncomingMessage, response: ServerResponse, gate: ApiGate, next: () => void): void {
  if (!isApiPath(request.url)) return next();
  // The gate's refusals and the routes' answers alike.
  setJsonAnswerHeaders(response);
  // Whatever the check throws, or the app's listener as it is called, ends
  // in a logged 500 (or, once an answer has begun, a closed connection),
  // never in an unanswered request or an unhandled rejection.
  Promise.resolve()
    .then(() => apiRefusal(request, gate.settings, gate.sessions()))
    .then((refusal) => (refusal === null ? next() : sendRefusal(response, refusal)))
    .catch((error: unknown) => {
      gate.log('error', 'the API gate failed on a request', { error });
      if (response.headersSent) response.destroy();
      else sendRefusal(response, { status: 500, error: 'QueueLens could not check this request; the server log says why.' });
    });
}
