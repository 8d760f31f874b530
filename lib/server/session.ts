import 'server-only';
import { cookies } from 'next/headers';
import { configuredSecrets } from '@/lib/auth/access-settings';
import { SESSION_COOKIE } from '@/lib/auth/credentials';
import type { Access } from '@/lib/auth/credentials';
import { sharedSessionStore, type OpenSession, type SessionStore } from '@/lib/auth/session-store';
import { issueSessionToken, SESSION_SECONDS, sessionKey, type Role } from '@/lib/auth/session-token';
import { accessSettings, isHttpsRequest } from './access';
import { logEvent } from './log';

export type SessionResult<T> = { ok: true; value: T } | { ok: false; error: string };

const STORE_MISSING = 'The session store is not set up yet; try again in a moment.';

async function withStore<T>(operation: (store: SessionStore) => Promise<T>): Promise<SessionResult<T>> {
  const store = sharedSessionStore();
  if (!store) return { ok: false, error: STORE_MISSING };
  try {
    return { ok: true, value: await operation(store) };
  } catch (error) {
    logEvent('error', 'the session store failed', { error });
    return { ok: false, error: `The Redis that keeps QueueLens's sessions (${store.server}) cannot be reached; nobody can sign in until it is back.` };
  }
}

/**
 * Signs this browser in: a session opened in the store, and a signed cookie
 * naming it that scripts cannot read (HttpOnly), that no other site's
 * request carries (SameSite=Strict), and that travels only over HTTPS when
 * the dashboard is served that way.
 */
export async function startSession(role: Role, who: string): Promise<SessionResult<OpenSession>> {
  const opened = await withStore((store) => store.start(role, who));
  if (!opened.ok) return opened;
  const { id, expiresAt } = opened.value;
  const [cookieJar, secure] = await Promise.all([cookies(), isHttpsRequest()]);
  cookieJar.set(SESSION_COOKIE, issueSessionToken(sessionKey(configuredSecrets(accessSettings())), { id, role, who, expiresAt }), {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: SESSION_SECONDS,
  });
  return opened;
}

/** Ends a session in the store, so that its cookie is refused wherever it was copied to. */
export function endSessionById(id: string): Promise<SessionResult<boolean>> {
  return withStore((store) => store.end(id));
}

/** An open session as the sessions page shows it to someone signed in. */
export interface ShownSession {
  who: string;
  role: Role;
  startedAt: number;
  expiresAt: number;
  /** the session of the browser looking */
  isThisBrowser: boolean;
  /** only for an operator, who ends sessions by it: the id is a session's name in the store, and a viewer's page carries none */
  id?: string;
}

/** The open sessions as `access` may see them, newest first, and the moment they were read (unix seconds). */
export function openSessionsSeenBy(access: Access): Promise<SessionResult<{ sessions: ShownSession[]; now: number }>> {
  return withStore(async (store) => {
    const nowMs = Date.now();
    const sessions = (await store.list(nowMs)).map(({ id, ...session }) => ({
      ...session,
      isThisBrowser: id === access.sessionId,
      ...(access.role === 'operator' ? { id } : {}),
    }));
    return { sessions, now: Math.floor(nowMs / 1000) };
  });
}

/** Signs this browser out: its session ended in the store (when it names one), and its cookie deleted. */
export async function endSession(sessionId: string | undefined): Promise<void> {
  if (sessionId !== undefined) await endSessionById(sessionId);
  (await cookies()).delete(SESSION_COOKIE);
}
