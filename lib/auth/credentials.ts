import { configuredSecrets, effectiveRole, MIN_EXPOSED_SECRET_BYTES, roleOfSecret, type AccessSettings } from './access-settings';
import { LoginThrottle } from './login-throttle';
import type { SessionStore } from './session-store';
import { sessionKey, verifySessionToken, type Role } from './session-token';

export const SESSION_COOKIE = 'queuelens-session';
/** Who a script says it is, for the audit log; a bearer secret alone names no one. */
export const CLIENT_NAME_HEADER = 'x-queuelens-user';

/** The headers a refusal of credentials carries: a 401 says which scheme would do. */
export function refusalHeaders(status: number): Record<string, string> {
  return status === 401 ? { 'www-authenticate': 'Bearer realm="QueueLens"' } : {};
}

export interface Access {
  role: Role;
  who: string;
  via: 'session' | 'bearer';
  /** the session's id in the session store, for a browser's session */
  sessionId?: string;
}

export type Credentials = { ok: true; access: Access } | { ok: false; status: 401 | 429 | 503; error: string };

/** What a request presents: the session cookie's value, the Authorization header, and where it comes from. */
export interface Presented {
  sessionCookie: string | undefined;
  authorization: string | null;
  clientName: string | null;
  /** the client's address (lib/auth/client-address.ts), whose budget wrong secrets spend */
  clientAddress: string;
}

// The proxy and the route handlers are bundled apart but run in one process:
// one throttle on globalThis gives them one set of budgets.
const shared = globalThis as typeof globalThis & { [key: symbol]: LoginThrottle | undefined };
const THROTTLE = Symbol.for('queuelens.loginThrottle');

export function loginThrottle(): LoginThrottle {
  return (shared[THROTTLE] ??= new LoginThrottle());
}

const SIGN_IN = 'Sign in to QueueLens, or send Authorization: Bearer <secret>.';
const SESSION_ENDED = 'This session has ended (signed out, or ended from the sessions page): sign in again.';

function cleanName(name: string | null, fallback: string): string {
  const cleaned = (name ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 100);
  return cleaned || fallback;
}

/**
 * Checks what a request presents, without the session store: a bearer
 * secret, or a session cookie's signature and expiry. A bearer secret is
 * checked first (scripts send no cookie). A right one of at least
 * MIN_EXPOSED_SECRET_BYTES is accepted whatever the client's budget: nobody
 * guesses 32 bytes, and a stream of wrong secrets must not keep monitoring
 * out. A wrong one spends the client's budget like a wrong password, so the
 * API is no faster way to guess a short (loopback-only) secret, which stays
 * behind the budget.
 */
export function checkCredentials(settings: AccessSettings, presented: Presented, nowMs = Date.now()): Credentials {
  const bearer = presented.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (bearer !== undefined) {
    const role = roleOfSecret(settings, bearer);
    const access = (granted: Role): Credentials => ({
      ok: true,
      access: { role: granted, who: cleanName(presented.clientName, `${granted} script`), via: 'bearer' },
    });
    if (role !== null && Buffer.byteLength(bearer, 'utf8') >= MIN_EXPOSED_SECRET_BYTES) return access(role);
    const throttle = loginThrottle();
    const wait = throttle.retryAfterSeconds(presented.clientAddress, nowMs);
    if (wait > 0) return { ok: false, status: 429, error: `Too many wrong secrets; try again in ${wait} s.` };
    if (role === null) {
      throttle.recordFailure(presented.clientAddress, nowMs);
      return { ok: false, status: 401, error: 'The bearer secret is not one this dashboard accepts.' };
    }
    return access(role);
  }
  const secrets = configuredSecrets(settings);
  if (presented.sessionCookie && secrets.length > 0) {
    const session = verifySessionToken(sessionKey(secrets), presented.sessionCookie, Math.floor(nowMs / 1000));
    if (session) return { ok: true, access: { role: effectiveRole(settings, session.role), who: session.who, via: 'session', sessionId: session.id } };
  }
  return { ok: false, status: 401, error: SIGN_IN };
}

/**
 * checkCredentials, and for a session cookie whether its session is still
 * open in the store: a cookie kept after signing out is refused. Without a
 * store to ask (not registered, or Redis unreachable) a session is refused
 * with 503: whether it was ended cannot be known.
 */
export async function checkAccess(
  settings: AccessSettings,
  presented: Presented,
  sessions: SessionStore | undefined,
  nowMs = Date.now(),
): Promise<Credentials> {
  const credentials = checkCredentials(settings, presented, nowMs);
  if (!credentials.ok || credentials.access.sessionId === undefined) return credentials;
  const unavailable = (why: string): Credentials => ({
    ok: false,
    status: 503,
    error: `QueueLens cannot check this session: ${why}. Bearer secrets still work.`,
  });
  if (sessions === undefined) return unavailable('the session store is not set up yet');
  try {
    return (await sessions.isOpen(credentials.access.sessionId, nowMs)) ? credentials : { ok: false, status: 401, error: SESSION_ENDED };
  } catch {
    return unavailable(`the Redis that keeps the sessions (${sessions.server}) cannot be reached`);
  }
}
