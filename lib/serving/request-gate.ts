import type { IncomingMessage, ServerResponse } from 'node:http';
import { FOREIGN_HOST_ERROR, isAllowedHost, PUBLIC_PATHS, type AccessSettings } from '@/lib/auth/access-settings';
import { SECURITY_HEADERS } from '@/lib/auth/security-headers';

/**
 * The first gate of every request, the pages' and the API's alike, in front
 * of Next.js (instrumentation-node.ts): what a request must be before any
 * router reads it. Its request target is a path, its Host one of ours, its
 * path's percent-escapes decode, and it carries no server action Next would
 * forward from the server to itself. Next answers some of these itself,
 * before proxy.ts can add a header (an absolute-form target's redirect to
 * another host), or with a 500 (a malformed escape, a mixed-case Host on an
 * action). A trailing slash is sent to the path without it here too, once.
 * Credentials come after, in the API's gate (lib/serving/api-gate.ts) and
 * proxy.ts.
 */

/** What a gate answers instead of letting a request through. */
export interface GateRefusal {
  status: number;
  /** for the JSON body, `{ ok: false, error }` as the API's own refusals */
  error?: string;
  headers?: Record<string, string>;
}

/** A gate's answers and the API's are JSON and load nothing: no script, style or frame may come with them. */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The header Next.js marks a server action with: the action's id. */
const NEXT_ACTION_HEADER = 'next-action';
/**
 * Next.js' mark on an action it forwards, server to itself, to a page that
 * holds it (next/dist/server/app-render/action-handler.js). The forwarded
 * request comes from the server's own address, so a wrong secret it carried
 * was charged to that address, and anyone on loopback shared the budget.
 * Only Next sets it, and every action of ours is posted to a page that
 * holds it, so no request may arrive with it.
 */
const FORWARDED_ACTION_HEADER = 'x-action-forwarded';

export const single = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** Doubled slashes and backslashes as the one slash a router reads them as. */
export const oneSlash = (path: string) => path.replaceAll('\\', '/').replace(/\/{2,}/g, '/');

function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The page of the app that answers a public path: `/login` is `app/login/page`. */
const pageOfPublicPath = (path: string) => `app${path}/page`;

export interface RequestGate {
  settings: AccessSettings;
  /**
   * The ids of the server actions a page's own bundle holds (`app/login/page`),
   * or undefined when the build's manifest cannot be read: then a public page
   * takes any action, and Next's forward of one it does not hold is refused
   * all the same, as every forwarded action is.
   */
  actionsOf: (page: string) => ReadonlySet<string> | undefined;
}

/** Why `request` may not reach the app, or null when it may. */
export function requestRefusal(request: IncomingMessage, gate: RequestGate): GateRefusal | null {
  const target = request.url ?? '';
  // Origin form (RFC 9112 3.2.1): the absolute form is what a client sends a proxy, and Next answers it with its own redirect to that host.
  if (!target.startsWith('/')) return { status: 400, error: 'The request target must be a path on this server, not an absolute URL.' };

  const host = single(request.headers.host);
  if (!isAllowedHost(gate.settings, host)) return { status: 421, error: FOREIGN_HOST_ERROR };
  const safeMethod = request.method === 'GET' || request.method === 'HEAD';
  // Next compares an action's Origin with its Host as written; browsers send both lowercase.
  if (!safeMethod && host !== host?.toLowerCase()) return { status: 400, error: 'The Host header of a change must be lowercase, as browsers send it.' };

  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const decoded = decodedPath(path);
  if (decoded === null)
    return { status: 400, error: 'The path has a malformed percent-escape: each % takes two hex digits, and together they must spell UTF-8.' };

  if (request.headers[FORWARDED_ACTION_HEADER] !== undefined)
    return { status: 400, error: 'A forwarded server action is refused: post an action to the page that holds it.' };
  const action = single(request.headers[NEXT_ACTION_HEADER]);
  const publicPath = oneSlash(decoded);
  if (action !== null && PUBLIC_PATHS.has(publicPath) && gate.actionsOf(pageOfPublicPath(publicPath))?.has(action) === false) {
    return { status: 400, error: 'That action is not one of this page’s: the sign-in pages take only their own.' };
  }

  if (path.length > 1 && path.endsWith('/')) {
    // Built from the path as sent: proxy.ts set the pathname on a copy of Next's URL, which keeps the original's trailing slash, and sent `/failed/` to itself.
    // One leading slash: a path on this host, never `//host` a browser would leave for.
    return { status: 308, headers: { location: `${oneSlash(path).replace(/\/+$/, '') || '/'}${query === -1 ? '' : target.slice(query)}` } };
  }
  return null;
}

/** Headers every gate's answer carries, and every API answer. */
export function setJsonAnswerHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
  response.setHeader('content-security-policy', JSON_CONTENT_SECURITY_POLICY);
}

/** Sends `refusal` as the API's own refusals look: JSON, never cached. */
export function sendRefusal(response: ServerResponse, refusal: GateRefusal): void {
  response.setHeader('cache-control', 'no-store');
  for (const [name, value] of Object.entries(refusal.headers ?? {})) response.setHeader(name, value);
  if (refusal.error === undefined) {
    response.writeHead(refusal.status).end();
    return;
  }
  response.writeHead(refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: refusal.error }));
}

/**
 * Hands `request` to `next` unless the gate refuses it, in which case the
 * gate answers it with the security headers. Put in front of the app's
 * request listener, before the API's gate.
 */
export function guardRequest(request: IncomingMessage, response: ServerResponse, gate: RequestGate, next: () => void): void {
  const refusal = requestRefusal(request, gate);
  if (refusal === null) return next();
  setJsonAnswerHeaders(response);
  sendRefusal(response, refusal);
}
