import { randomBytes } from 'node:crypto';
import { dashboardKeys } from '@/lib/dashboard/keys';
import type { QueueClient } from '@/lib/redis/client';
import { SESSION_SECONDS, type Role } from './session-token';

/**
 * The sessions that are open, kept in Redis under QueueLens's own prefix
 * (`<QUEUELENS_PREFIX>sessions`, a hash of session id to its role, name and
 * expiry), so that signing out ends a session for good: a copied cookie
 * names a session that is no longer there. Every dashboard instance given
 * the same Redis and prefix shares them. Types only from ioredis: the proxy
 * uses this store through the instance the server registered.
 */

export interface OpenSession {
  id: string;
  role: Role;
  who: string;
  /** seconds since the epoch */
  startedAt: number;
  expiresAt: number;
}

/** How long an "open" answer is reused by this process, so that a page's several checks cost one round trip. */
const CONFIRMED_MS = 1000;
const CONFIRMED_LIMIT = 10_000;

function parseRecord(id: string, text: string | null | undefined): OpenSession | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<OpenSession>;
    if ((value.role !== 'operator' && value.role !== 'viewer') || typeof value.who !== 'string') return null;
    if (!Number.isSafeInteger(value.startedAt) || !Number.isSafeInteger(value.expiresAt)) return null;
    return { id, role: value.role, who: value.who, startedAt: value.startedAt!, expiresAt: value.expiresAt! };
  } catch {
    return null;
  }
}

export class SessionStore {
  readonly key: string;
  private readonly confirmed = new Map<string, number>();

  /** `server` names the Redis in errors, as "host:port". */
  constructor(
    private readonly redis: QueueClient,
    dashboardPrefix: string,
    readonly server: string,
  ) {
    this.key = dashboardKeys(dashboardPrefix).sessions;
  }

  /** Opens a session and returns it; expired ones are dropped on the way. */
  async start(role: Role, who: string, nowMs = Date.now()): Promise<OpenSession> {
    await this.list(nowMs);
    const startedAt = Math.floor(nowMs / 1000);
    const session: OpenSession = { id: randomBytes(18).toString('base64url'), role, who, startedAt, expiresAt: startedAt + SESSION_SECONDS };
    const { id, ...record } = session;
    // Every session in the hash ends within SESSION_SECONDS of the newest one's start, so the hash may expire then.
    await this.redis.multi().hset(this.key, id, JSON.stringify(record)).expire(this.key, SESSION_SECONDS).exec();
    return session;
  }

  /** Whether the session is open: there, and not expired. Throws when Redis cannot be asked. */
  async isOpen(id: string, nowMs = Date.now()): Promise<boolean> {
    if ((this.confirmed.get(id) ?? 0) > nowMs) return true;
    const session = parseRecord(id, await this.redis.hget(this.key, id));
    const open = session !== null && session.expiresAt > nowMs / 1000;
    if (open) {
      if (this.confirmed.size >= CONFIRMED_LIMIT) this.confirmed.clear();
      this.confirmed.set(id, nowMs + CONFIRMED_MS);
    }
    return open;
  }

  /** Ends a session; false when it was not open. */
  async end(id: string): Promise<boolean> {
    this.confirmed.delete(id);
    return (await this.redis.hdel(this.key, id)) > 0;
  }

  /** The open sessions, the newest first; expired ones are deleted. Bounded by the sign-ins of one session lifetime. */
  async list(nowMs = Date.now()): Promise<OpenSession[]> {
    const all = await this.redis.hgetall(this.key);
    const sessions = Object.entries(all).map(([id, text]) => ({ id, session: parseRecord(id, text) }));
    const ended = sessions.filter(({ session }) => session === null || session.expiresAt <= nowMs / 1000).map(({ id }) => id);
    if (ended.length > 0) await this.redis.hdel(this.key, ...ended);
    return sessions
      .flatMap(({ session }) => (session !== null && session.expiresAt > nowMs / 1000 ? [session] : []))
      .sort((a, b) => b.startedAt - a.startedAt || a.id.localeCompare(b.id));
  }
}

// Registered once by the server (instrumentation-node.ts); the proxy and the
// server layer are bundled apart but share the process, so globalThis gives
// them one store and one cache.
const shared = globalThis as typeof globalThis & { [key: symbol]: SessionStore | undefined };
const STORE = Symbol.for('queuelens.sessionStore');

export function shareSessionStore(store: SessionStore): void {
  shared[STORE] = store;
}

/** The server's session store, or undefined before the server registered it. */
export function sharedSessionStore(): SessionStore | undefined {
  return shared[STORE];
}
