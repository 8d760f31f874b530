import { NextResponse, type NextRequest } from 'next/server';
import { FOREIGN_HOST_ERROR, isAllowedHost, isAllowedOrigin, PUBLIC_PATHS, readAccessSettings, type AccessSettings } from '@/lib/auth/access-settings';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { checkAccess, CLIENT_NAME_HEADER, refusalHeaders, SESSION_COOKIE } from '@/lib/auth/credentials';
import { sharedSessionStore } from '@/lib/auth/session-store';
import { contentSecurityPolicy, SECURITY_HEADERS } from '@/lib/auth/security-headers';
import { actionBodyProblem } from '@/lib/serving/action-body';

/**
 * The pages' gate, after every request's (lib/serving/request-gate.ts:
 * request target, host name, percent-escapes, forwarded actions, trailing
 * slash) in front of Next; the API's is lib/serving/api-gate.ts. Host name
 * again, origin of state-changing requests, body size (declared, or counted
 * when chunked), a server action's body as Next can decode it, credentials
 * and whether their session is still open, and the security headers with a
 * fresh CSP nonce.
 * Route handlers and server actions check access again themselves; this is
 * the outer wall, not the only one.
 */

/** Server actions carry ids and a reason, never more than this; a bigger body is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Whether a body sent without a Content-Length (chunked) is longer than
 * `limit`: read until it is, and no further. Next hands the proxy a copy of
 * the body and the route the original, so reading it here takes nothing away.
 */
async function isLongerThan(body: ReadableStream<Uint8Array>, limit: number): Promise<boolean> {
  const reader = body.getReader();
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      length += value.byteLength;
      if (length > limit) return true;
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}

let settings: AccessSettings | undefined;

function secured(response: NextResponse): NextResponse {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

function refuse(status: number, error: string, extra: HeadersInit = {}): NextResponse {
  return secured(NextResponse.json({ ok: false, error }, { status, headers: { 'cache-control': 'no-store', ...extra } }));
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  settings ??= readAccessSettings();
  const host = request.headers.get('host');
  if (!isAllowedHost(settings, host)) return refuse(421, FOREIGN_HOST_ERROR);

  const { pathname, search } = request.nextUrl;
  const safeMethod = request.method === 'GET' || request.method === 'HEAD';
  if (!safeMethod) {
    if (!isAllowedOrigin(settings, request.headers.get('origin'), host)) return refuse(403, 'The request did not come from this dashboard’s pages.');
    const declared = request.headers.get('content-length');
    const tooLarge =
      declared !== null ? Number(declared) > MAX_BODY_BYTES : request.body !== null && (await isLongerThan(request.clone().body!, MAX_BODY_BYTES));
    if (tooLarge) return refuse(413, 'The request body is too large.');
    const undecodable = request.headers.has('next-action') ? await actionBodyProblem(request.clone()) : null;
    if (undecodable !== null) return refuse(400, undecodable);
  }

  if (!PUBLIC_PATHS.has(pathname)) {
    const credentials = await checkAccess(
      settings,
      {
        sessionCookie: request.cookies.get(SESSION_COOKIE)?.value,
        authorization: request.headers.get('authorization'),
        clientName: request.headers.get(CLIENT_NAME_HEADER),
        clientAddress: request.headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown',
      },
      sharedSessionStore(),
    );
    if (!credentials.ok) {
      if (credentials.status === 401 && safeMethod) {
        const login = new URL('/login', request.url);
        login.searchParams.set('next', `${pathname}${search}`);
        return secured(NextResponse.redirect(login, 303));
      }
      return refuse(credentials.status, credentials.error, refusalHeaders(credentials.status));
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
  // Static build output carries no data and no credentials; the JSON API is
  // gated in front of Next (lib/serving/api-gate.ts), where it costs a poll
  // less than a proxy does; every other path passes this gate.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/).*)'],
};
