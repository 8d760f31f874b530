'use client';

import { useActionState, useId } from 'react';
import { signIn, type SignInState } from '@/app/login/actions';

const FIELD = 'w-full rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-800';

/** The sign-in form: the secret decides the role; the name only labels the audit log. */
export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  const id = useId();
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="next" value={next} />
      <div className="space-y-1">
        <label htmlFor={`${id}-secret`} className="block text-sm font-medium">
          Secret
        </label>
        <input id={`${id}-secret`} name="secret" type="password" required autoComplete="current-password" autoFocus className={FIELD} />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-name`} className="block text-sm font-medium">
          Your name <span className="font-normal text-zinc-600 dark:text-zinc-400">(optional, shown in the audit log)</span>
        </label>
        <input id={`${id}-name`} name="name" type="text" maxLength={100} autoComplete="name" className={FIELD} />
      </div>
      <p aria-live="polite" role="status" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {state.error}
      </p>
      <button type="submit" className="button-primary" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
