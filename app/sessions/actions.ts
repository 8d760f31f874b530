'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { authenticate, isSameOriginRequest } from '@/lib/server/access';
import { logEvent } from '@/lib/server/log';
import { endSession, endSessionById } from '@/lib/server/session';
import { sessionsHref } from '@/lib/routes';

// Every export of a 'use server' file is a public endpoint: only the sessions page's button here.

export interface EndSessionState {
  error?: string;
}

const endSessionForm = z.object({ id: z.string().regex(/^[\w-]{16,64}$/, 'That is not a session id.') });

/** Ends an open session (an operator's power: it signs someone out); ending one's own is signing out. */
export async function endOpenSession(_previous: EndSessionState, form: unknown): Promise<EndSessionState> {
  if (!(await isSameOriginRequest())) return { error: 'The request did not come from this dashboard’s pages.' };
  const allowed = await authenticate();
  if (!allowed.ok) return { error: allowed.error };
  if (allowed.access.role !== 'operator') return { error: 'Only an operator can end sessions.' };
  // A client may post any arguments: a form is what this takes.
  if (!(form instanceof FormData)) return { error: 'The form was not understood.' };
  const parsed = endSessionForm.safeParse({ id: form.get('id') });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'The form was not understood.' };
  if (parsed.data.id === allowed.access.sessionId) {
    await endSession(parsed.data.id);
    redirect('/login');
  }
  const ended = await endSessionById(parsed.data.id);
  if (!ended.ok) return { error: ended.error };
  logEvent('info', 'a session was ended', { by: allowed.access.who, ended: ended.value });
  revalidatePath(sessionsHref);
  return ended.value ? {} : { error: 'That session had already ended.' };
}
