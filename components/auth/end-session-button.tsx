'use client';

import { useActionState } from 'react';
import { endOpenSession, type EndSessionState } from '@/app/sessions/actions';

/** The button that ends one session, with the outcome read out beside it. */
export function EndSessionButton({ id, label }: { id: string; label: string }) {
  const [state, action, pending] = useActionState<EndSessionState, FormData>(endOpenSession, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="button-secondary" disabled={pending} aria-label={label}>
        {pending ? 'Ending…' : 'End'}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {state.error}
      </span>
    </form>
  );
}
