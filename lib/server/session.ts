import 'server-only';
import { cookies, headers } from 'next/headers';
import { configuredSecrets } from '@/lib/auth/access-settings';
import { SESSION_COOKIE } from '@/lib/auth/credentials';
import { issueSessionToken, SESSION_SECONDS, sessionKey, type Role } from '@/lib/auth/session-token';
import { accessSettings } from './access';

/**
 * Signs this browser in: a signed cookie that scripts cannot read
 * (HttpOnly), that no other site's request carries (SameSite=Strict), and
 * that travels only over HTTPS when the dashboard is served that way.
 */
export async function startSession(role: Role, who: string): Promise<void> {
  const [cookieJar, headerList] = await Promise.all([cookies(), headers()]);
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_SECONDS;
  const secure = (headerList.get('origin') ?? '').startsWith('https:') || headerList.get('x-forwarded-proto') === 'https';
  cookieJar.set(SESSION_COOKIE, issueSessionToken(sessionKey(configuredSecrets(accessSettings())), { role, who, expiresAt }), {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: SESSION_SECONDS,
  });
}

export async function endSession(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
}
