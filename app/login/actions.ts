'use server';

import type { Route } from 'next';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { roleOfSecret, safeNextPath } from '@/lib/auth/access-settings';
import { loginThrottle } from '@/lib/auth/credentials';
import { secretsMatch } from '@/lib/auth/session-token';
import { accessSettings, authenticate, isSameOriginRequest, requestClientAddress } from '@/lib/server/access';
import { logEvent } from '@/lib/server/log';
import { endSession, startSession } from '@/lib/server/session';

// Every export of a 'use server' file is a public endpoint: only the sign-in, link and sign-out actions here.

export interface SignInState {
  error?: string;
}

const signInForm = z.object({
  secret: z.string().min(1, 'Enter the secret.').max(4096),
  name: z.string().max(100).default(''),
  next: z.string().max(4096).default('/'),
});

const FOREIGN_ORIGIN = 'The request did not come from this dashboard’s pages.';
const NOT_A_FORM = 'The form was not understood.';

/** Signs in with a secret; the role is the one the secret grants. Wrong secrets spend the client address's budget. */
export async function signIn(_previous: SignInState, form: unknown): Promise<SignInState> {
  if (!(await isSameOriginRequest())) return { error: FOREIGN_ORIGIN };
  // A client may post any arguments: a form is what this takes.
  if (!(form instanceof FormData)) return { error: NOT_A_FORM };
  const parsed = signInForm.safeParse({ secret: form.get('secret'), name: form.get('name') ?? undefined, next: form.get('next') ?? undefined });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? NOT_A_FORM };
  const throttle = loginThrottle();
  const client = await requestClientAddress();
  const wait = throttle.retryAfterSeconds(client);
  if (wait > 0) return { error: `Too many wrong secrets. Try again in ${wait} s.` };
  const role = roleOfSecret(accessSettings(), parsed.data.secret);
  if (role === null) {
    throttle.recordFailure(client);
    logEvent('warn', 'a sign-in was refused: wrong secret', { client });
    return { error: 'That secret is not right.' };
  }
  const who = parsed.data.name.trim() || role;
  const started = await startSession(role, who);
  if (!started.ok) return { error: started.error };
  logEvent('info', 'signed in', { who, role });
  // safeNextPath keeps it a path on this site, which typedRoutes cannot know of a string from a form.
  redirect(safeNextPath(parsed.data.next) as Route);
}

const link = globalThis as typeof globalThis & { queuelensLoginLinkUsed?: boolean };

/**
 * The one-time link `queuelens serve` prints, confirmed: its page
 * (app/login/link/page.tsx) only shows a button that posts here, so a link
 * scanner's or chat unfurler's HEAD or GET signs nobody in. The first post
 * with the right token signs that browser in as an operator; the token is not
 * the secret, so a link left in a terminal's scrollback is worth nothing once
 * used.
 */
export async function signInWithLink(form: unknown): Promise<void> {
  if (!(await isSameOriginRequest())) redirect('/login?link=used');
  const token = form instanceof FormData ? form.get('token') : null;
  const expected = accessSettings().loginToken;
  if (link.queuelensLoginLinkUsed || expected === undefined || typeof token !== 'string') redirect('/login?link=used');
  const throttle = loginThrottle();
  const client = await requestClientAddress();
  if (throttle.retryAfterSeconds(client) > 0 || !secretsMatch(token, expected)) {
    throttle.recordFailure(client);
    redirect('/login?link=used');
  }
  link.queuelensLoginLinkUsed = true;
  const started = await startSession('operator', 'operator (login link)');
  if (!started.ok) {
    // The link is not spent by a session that could not be stored.
    link.queuelensLoginLinkUsed = false;
    redirect('/login?link=unavailable');
  }
  logEvent('info', 'signed in with the one-time login link');
  redirect('/');
}

/** Signs this browser out: its session ends in the store, so a copy of the cookie is refused too. */
export async function signOut(): Promise<void> {
  if (!(await isSameOriginRequest())) return;
  const current = await authenticate();
  await endSession(current.ok ? current.access.sessionId : undefined);
  redirect('/login');
}
