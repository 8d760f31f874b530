'use server';

import type { Route } from 'next';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { roleOfSecret, safeNextPath } from '@/lib/auth/access-settings';
import { loginThrottle } from '@/lib/auth/credentials';
import { accessSettings, isSameOriginRequest } from '@/lib/server/access';
import { logEvent } from '@/lib/server/log';
import { endSession, startSession } from '@/lib/server/session';

// Every export of a 'use server' file is a public endpoint: only the sign-in and sign-out actions here.

export interface SignInState {
  error?: string;
}

const signInForm = z.object({
  secret: z.string().min(1, 'Enter the secret.').max(4096),
  name: z.string().max(100).default(''),
  next: z.string().max(4096).default('/'),
});

/** Signs in with a secret; the role is the one the secret grants. Wrong secrets count against a shared throttle. */
export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  if (!(await isSameOriginRequest())) return { error: 'The request did not come from this dashboard’s pages.' };
  const parsed = signInForm.safeParse({ secret: form.get('secret'), name: form.get('name') ?? undefined, next: form.get('next') ?? undefined });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'The form was not understood.' };
  const throttle = loginThrottle();
  const wait = throttle.retryAfterSeconds();
  if (wait > 0) return { error: `Too many wrong secrets. Try again in ${wait} s.` };
  const role = roleOfSecret(accessSettings(), parsed.data.secret);
  if (role === null) {
    throttle.recordFailure();
    logEvent('warn', 'a sign-in was refused: wrong secret');
    return { error: 'That secret is not right.' };
  }
  const who = parsed.data.name.trim() || role;
  await startSession(role, who);
  logEvent('info', 'signed in', { who, role });
  // safeNextPath keeps it a path on this site, which typedRoutes cannot know of a string from a form.
  redirect(safeNextPath(parsed.data.next) as Route);
}

export async function signOut(): Promise<void> {
  if (!(await isSameOriginRequest())) return;
  await endSession();
  redirect('/login');
}
