import { configuredSecrets, effectiveRole, roleOfSecret, type AccessSettings } from './access-settings';
import { LoginThrottle } from './login-throttle';
import { sessionKey, verifySessionToken, type Role } from './session-token';

export const SESSION_COOKIE = 'queuelens-session';
/** Who a script says it is, for the audit log; a bearer secret alone names no one. */
export const CLIENT_NAME_HEADER = 'x-queuelens-user';

export interface Access {
  role: Role;
  who: string;
  via: 'session' | 'bearer';
}

export type Credentials = { ok: true; access: Access } | { ok: false; status: 401 | 429; error: string };

/** What a request presents: the session cookie's value and the Authorization header. */
export interface Presented {
  sessionCookie: string | undefined;
  authorization: string | null;
  clientName: string | null;
}

// The proxy and the route handlers are bundled apart but run in one process:
// one throttle on globalThis gives them one budget of failures.
const shared = globalThis as typeof globalThis & { [key: symbol]: LoginThrottle | undefined };
const THROTTLE = Symbol.for('queuelens.loginThrottle');

export function loginThrottle(): LoginThrottle {
  return (shared[THROTTLE] ??= new LoginThrottle());
}

const SIGN_IN = 'Sign in to QueueLens, or send Authorization: Bearer <secret>.';

function cleanName(name: string | null, fallback: string): string {
  const cleaned = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 100);
  return cleaned || fallback;
}

/**
 * Checks what a request presents. A bearer secret is checked first (scripts
 * send no cookie); a wrong one counts against the sign-in throttle like a
 * wrong password, so the API is no faster way to guess.
 */
export function checkCredentials(settings: AccessSettings, presented: Presented, nowMs = Date.now()): Credentials {
  const bearer = presented.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (bearer !== undefined) {
    const throttle = loginThrottle();
    const wait = throttle.retryAfterSeconds(nowMs);
    if (wait > 0) return { ok: false, status: 429, error: `Too many wrong secrets; try again in ${wait} s.` };
    const role = roleOfSecret(settings, bearer);
    if (role === null) {
      throttle.recordFailure(nowMs);
      return { ok: false, status: 401, error: 'The bearer secret is not one this dashboard accepts.' };
    }
    return { ok: true, access: { role, who: cleanName(presented.clientName, `${role} script`), via: 'bearer' } };
  }
  const secrets = configuredSecrets(settings);
  if (presented.sessionCookie && secrets.length > 0) {
    const session = verifySessionToken(sessionKey(secrets), presented.sessionCookie, Math.floor(nowMs / 1000));
    if (session) return { ok: true, access: { role: effectiveRole(settings, session.role), who: session.who, via: 'session' } };
  }
  return { ok: false, status: 401, error: SIGN_IN };
}
