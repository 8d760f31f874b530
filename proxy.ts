import { NextResponse, type NextRequest } from 'next/server';
import { isAllowedHost, isAllowedOrigin, readAccessSettings, type AccessSettings } from '@/lib/auth/access-settings';
import { checkCredentials, CLIENT_NAME_HEADER, SESSION_COOKIE } from '@/lib/auth/credentials';
import { contentSecurityPolicy, SECURITY_HEADERS } from '@/lib/auth/security-headers';

/**
 * The first gate of every request: host name, origin of state-changing
 * requests, body size, credentials, and the security headers with a fresh
 * CSP nonce. Route handlers and server actions check access again
 * themselves; this is the outer wall, not the only one.
 */

/** Server actions carry ids and a reason, never more than this; a bigger body is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reached without signing in: the sign-in page and its one-time link. */
const PUBLIC_PATHS = new Set(['/login', '/login/link']);

let settings: AccessSettings | undefined;

function secured(response: NextResponse): NextResponse {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

function refuse(status: number, error: string, extra: HeadersInit = {}): NextResponse {
  return secured(NextResponse.json({ ok: false, error }, { status, headers: { 'cache-control': 'no-store', ...extra } }));
}

export function proxy(request: NextRequest): NextResponse {
  settings ??= readAccessSettings();
  const host = request.headers.get('host');
  if (!isAllowedHost(settings, host)) return refuse(421, 'This dashboard does not answer for that host name.');

  const { pathname, search } = request.nextUrl;
  const safeMethod = request.method === 'GET' || request.method === 'HEAD';
  if (!safeMethod) {
    if (!isAllowedOrigin(settings, request.headers.get('origin'), host)) return refuse(403, 'The request did not come from this dashboard’s pages.');
    if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return refuse(413, 'The request body is too large.');
  }

  if (!PUBLIC_PATHS.has(pathname)) {
    const credentials = checkCredentials(settings, {
      sessionCookie: request.cookies.get(SESSION_COOKIE)?.value,
      authorization: request.headers.get('authorization'),
      clientName: request.headers.get(CLIENT_NAME_HEADER),
    });
    if (!credentials.ok) {
      if (safeMethod && !pathname.startsWith('/api/')) {
        const login = new URL('/login', request.url);
        login.searchParams.set('next', `${pathname}${search}`);
        return secured(NextResponse.redirect(login, 303));
      }
      return refuse(credentials.status, credentials.error, credentials.status === 401 ? { 'www-authenticate': 'Bearer realm="QueueLens"' } : {});
    }
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  // Next.js reads the nonce for its own scripts from the request's policy header.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return secured(response);
}

export const config = {
  // Static build output carries no data and no credentials; everything else passes the gate.
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
