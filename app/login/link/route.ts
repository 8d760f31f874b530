import { loginThrottle } from '@/lib/auth/credentials';
import { secretsMatch } from '@/lib/auth/session-token';
import { accessSettings } from '@/lib/server/access';
import { logEvent } from '@/lib/server/log';
import { startSession } from '@/lib/server/session';

const link = globalThis as typeof globalThis & { queuelensLoginLinkUsed?: boolean };

/**
 * The one-time link `queuelens serve` prints when it made the secret itself:
 * the first visit signs that browser in as an operator, later visits go to
 * the sign-in form. The token is not the secret, so a link left in a
 * terminal's scrollback is worth nothing once used.
 */
export async function GET(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const expected = accessSettings().loginToken;
  if (link.queuelensLoginLinkUsed || expected === undefined) return redirectTo('/login?link=used');
  const throttle = loginThrottle();
  if (throttle.retryAfterSeconds() > 0 || !secretsMatch(token, expected)) {
    throttle.recordFailure();
    return redirectTo('/login?link=used');
  }
  link.queuelensLoginLinkUsed = true;
  await startSession('operator', 'operator (login link)');
  logEvent('info', 'signed in with the one-time login link');
  return redirectTo('/');
}

function redirectTo(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
}
