import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type Role = 'viewer' | 'operator';

export interface Session {
  /** the session's id in the session store (lib/auth/session-store.ts), where signing out ends it */
  id: string;
  role: Role;
  /** the name given at sign-in, for the audit log; not a proof of identity */
  who: string;
  expiresAt: number;
}

// v2 added the session id: a v1 cookie names no session that could be ended, so it is refused.
const VERSION = 'v2';

/** How long a browser stays signed in: a working day, so a forgotten tab does not stay an operator for a week. */
export const SESSION_SECONDS = 12 * 60 * 60;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a secret someone sent with the configured one in constant time:
 * both are hashed first, so neither the content nor the length of the
 * configured secret shows in how long the comparison takes.
 */
export function secretsMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The key that signs session cookies, derived from every configured secret:
 * changing either secret signs everyone out, and the key itself never leaves
 * the server.
 */
export function sessionKey(secrets: readonly string[]): Buffer {
  return createHmac('sha256', secrets.join('\u0000')).update('queuelens session key').digest();
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

const SESSION_ID = /^[\w-]{16,64}$/;

/** A signed `v2.<role>.<expires>.<id>.<who>.<signature>` token for the session cookie. */
export function issueSessionToken(key: Buffer, session: Session): string {
  if (!SESSION_ID.test(session.id)) throw new Error('A session id is 16 to 64 base64url characters.');
  const payload = [VERSION, session.role, String(session.expiresAt), session.id, Buffer.from(session.who, 'utf8').toString('base64url')].join('.');
  return `${payload}.${sign(key, payload)}`;
}

/** The session a cookie carries, or null when it is malformed, forged, signed by old secrets or expired. */
export function verifySessionToken(key: Buffer, token: string, nowSeconds: number): Session | null {
  const parts = token.split('.');
  if (parts.length !== 6) return null;
  const [version, role, expires, id, who, signature] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(sign(key, parts.slice(0, 5).join('.')));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (version !== VERSION || (role !== 'viewer' && role !== 'operator') || !SESSION_ID.test(id)) return null;
  const expiresAt = Number(expires);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowSeconds) return null;
  return { id, role, who: Buffer.from(who, 'base64url').toString('utf8'), expiresAt };
}
