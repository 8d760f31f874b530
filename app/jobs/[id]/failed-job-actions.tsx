'use client';

import { useActionState, useId, useState } from 'react';
import { retryJobs } from '@/app/failed/actions';
import { parseMaxAttempts, retryOutcome, type Outcome } from '@/components/jobs/job-actions';
import { useToast } from '@/components/ui/toaster';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { EditAndRetry } from './edit-and-retry';
import { ForgetFailedJob, NO_ANSWER, useRefreshJobViews } from './forget-failed-job';

interface RetryForm {
  /** why the max attempts typed cannot be sent; null when it can */
  inputError: string | null;
}

interface FailedJobActionsProps {
  id: string;
  /** what the layout's retry does, in its words, shown under the button */
  whatItDoes: string;
  /** whether the retry takes a max attempts; `maxAttempts` is the job's own, for the placeholder */
  offersMaxAttempts: boolean;
  maxAttempts: string | null;
  /** the stored JSON text where it can be edited before a retry */
  payload: string | null;
}

/**
 * Retry, Edit payload and retry (where `payload`, the stored JSON text, is
 * shown whole) and Forget for a failed job, as the layout's retry offers
 * them. Each reports its outcome as a toast and refreshes whatever shows the
 * job (the job itself, its queue, the failed list, the overview) instead of
 * reloading the page.
 */
export function FailedJobActions({ id, whatItDoes, offersMaxAttempts, maxAttempts, payload }: FailedJobActionsProps) {
  const toast = useToast();
  const refresh = useRefreshJobViews();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [maxAttemptsText, setMaxAttemptsText] = useState('');

  const report = ({ tone, message }: Outcome) => (tone === 'success' ? toast.success(message) : toast.error(message));

  const [form, retry, retrying] = useActionState(
    async (_previous: RetryForm, data: FormData): Promise<RetryForm> => {
      const input = parseMaxAttempts(String(data.get('maxAttempts') ?? ''));
      if (!input.ok) return { inputError: input.error };
      try {
        const result = await retryJobs({ ids: [id], maxAttempts: input.value }, getTabConnection());
        if (result.ok) report(retryOutcome(id, result));
        else toast.error(result.error);
      } catch {
        toast.error(NO_ANSWER);
      }
      await refresh();
      return { inputError: null };
    },
    { inputError: null },
  );

  return (
    <div className="flex flex-wrap items-end justify-between gap-4 rounded-md border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <form action={retry} noValidate className="flex flex-wrap items-end gap-3">
        {offersMaxAttempts && (
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={inputId} className="font-medium">
              Max attempts
            </label>
            <input
              id={inputId}
              name="maxAttempts"
              // Text, not number: a number input reads "abc" as empty, which here would mean "keep the job's own".
              type="text"
              inputMode="numeric"
              autoComplete="off"
              placeholder={maxAttempts ?? ''}
              // Controlled, so a value the form refused stays there to be corrected.
              value={maxAttemptsText}
              onChange={(event) => setMaxAttemptsText(event.target.value)}
              aria-invalid={form.inputError !== null}
              aria-describedby={`${hintId} ${errorId}`}
              className="w-28 rounded-md border border-zinc-300 bg-white px-2 py-1 tabular-nums aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950"
            />
          </div>
        )}
        <button type="submit" disabled={retrying} className="button-primary">
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
        <p id={hintId} className="w-full text-xs text-zinc-600 dark:text-zinc-400">
          {whatItDoes}.{offersMaxAttempts && ` Leave max attempts empty to keep the job's own${maxAttempts ? ` (${maxAttempts})` : ''}.`}
        </p>
        {/* Always in the page, so a new message is announced. */}
        <p id={errorId} aria-live="polite" className={form.inputError ? 'w-full text-xs text-red-700 dark:text-red-400' : 'sr-only'}>
          {form.inputError}
        </p>
      </form>
      <div className="flex flex-wrap gap-3">
        {payload !== null && <EditAndRetry id={id} payload={payload} />}
        <ForgetFailedJob id={id} />
      </div>
    </div>
  );
}
