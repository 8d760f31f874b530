import 'server-only';
import { cookies, headers } from 'next/headers';
import { FOREIGN_HOST_ERROR, isAllowedHost, isAllowedOrigin, readAccessSettings, type AccessSettings } from '@/lib/auth/access-settings';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { checkAccess, CLIENT_NAME_HEADER, SESSION_COOKIE, type Access } from '@/lib/auth/credentials';
import { sharedSessionStore } from '@/lib/auth/session-store';
import type { Connection } from '@/lib/dashboard/connections';

export type AccessCheck = { ok: true; access: Access } | { ok: false; status: 401 | 403 | 421 | 429 | 503; error: string };

const cache = globalThis as typeof globalThis & { queuelensAccessSettings?: AccessSettings };

/** The environment's access settings, read once: they cannot change under a running server. */
export function accessSettings(): AccessSettings {
  return (cache.queuelensAccessSettings ??= readAccessSettings());
}

/**
 * Why `access` may not change queues on `connection`, or null when it may:
 * only operators change queues, and nobody changes a read-only connection.
 * Actions refuse with this, and pages use it to leave out what would be refused.
 */
export function changeRefusal(access: Access, connection: Pick<Connection, 'label' | 'readOnly'>): string | null {
  if (access.role !== 'operator') {
    const why = accessSettings().readOnly ? 'this dashboard runs read-only' : 'you are signed in as a viewer';
    return `Only an operator can change queues, and ${why}.`;
  }
  return connection.readOnly ? `${connection.label} is read-only: nothing on it can be changed through QueueLens.` : null;
}

/**
 * Who is asking, checked here and not only in the proxy: a handler or action
 * that trusted the proxy alone would be open whenever the proxy is skipped
 * (CVE-2025-29927). Refuses foreign Host names, missing or wrong
 * credentials, and sessions that were ended.
 */
export async function authenticate(): Promise<AccessCheck> {
  const settings = accessSettings();
  const [headerList, cookieJar] = await Promise.all([headers(), cookies()]);
  if (!isAllowedHost(settings, headerList.get('host'))) return { ok: false, status: 421, error: FOREIGN_HOST_ERROR };
  return checkAccess(
    settings,
    {
      sessionCookie: cookieJar.get(SESSION_COOKIE)?.value,
      authorization: headerList.get('authorization'),
      clientName: headerList.get(CLIENT_NAME_HEADER),
      clientAddress: headerList.get(CLIENT_ADDRESS_HEADER) ?? 'unknown',
    },
    sharedSessionStore(),
  );
}

/** The address whose sign-in budget this request spends (lib/auth/client-address.ts). */
export async function requestClientAddress(): Promise<string> {
  return (await headers()).get(CLIENT_ADDRESS_HEADER) ?? 'unknown';
}

/** Whether the browser reached the dashboard over HTTPS (directly, or through a proxy that says so): its cookies are then `Secure`. */
export async function isHttpsRequest(): Promise<boolean> {
  const headerList = await headers();
  return (headerList.get('origin') ?? '').startsWith('https:') || headerList.get('x-forwarded-proto') === 'https';
}

/**
 * Whether a state-changing request came from this dashboard's own pages.
 * Next.js checks server actions' Origin too, but lets a request without one
 * through; here a missing or `null` Origin is refused as well.
 */
export async function isSameOriginRequest(): Promise<boolean> {
  const headerList = await headers();
  return isAllowedOrigin(accessSettings(), headerList.get('origin'), headerList.get('host'));
}
