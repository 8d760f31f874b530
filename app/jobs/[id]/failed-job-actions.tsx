'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useActionState, useId, useState, useTransition } from 'react';
import { forgetOutcome, parseMaxAttempts, retryOutcome, type Outcome } from '@/components/jobs/job-actions';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toaster';
import { useForgetToast } from '@/components/trash/use-restore';
import { useRouter } from 'next/navigation';
import { failedHref } from '@/lib/routes';
import { forgetJobs, retryJobs } from '@/app/failed/actions';
import { queryKeys } from '@/lib/queries/keys';
import { getTabConnection } from '@/lib/queries/tab-connection';

const NO_ANSWER = 'The QueueLens server did not answer; the job may or may not have changed. The page shows its state as soon as a read succeeds.';

interface RetryForm {
  /** why the max attempts typed cannot be sent; null when it can */
  inputError: string | null;
}

/**
 * Retry and Forget for a failed job. Each reports its outcome as a toast and
 * refreshes whatever shows the job (the job itself, its queue, the failed
 * list, the overview) instead of reloading the page.
 */
export function FailedJobActions({ id, maxAttempts }: { id: number; maxAttempts: string | null }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [maxAttemptsText, setMaxAttemptsText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [forgetting, startForget] = useTransition();
  const forgetToast = useForgetToast();
  const router = useRouter();

  const report = ({ tone, message }: Outcome) => (tone === 'success' ? toast.success(message) : toast.error(message));
  const refresh = () =>
    Promise.all(
      [queryKeys.jobs.all, queryKeys.queues.all, queryKeys.failed.all, queryKeys.overview.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );

  const [form, retry, retrying] = useActionState(
    async (_previous: RetryForm, data: FormData): Promise<RetryForm> => {
      const input = parseMaxAttempts(String(data.get('maxAttempts') ?? ''));
      if (!input.ok) return { inputError: input.error };
      try {
        const result = await retryJobs({ ids: [String(id)], maxAttempts: input.value }, getTabConnection());
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

  const forget = () =>
    startForget(async () => {
      try {
        const result = await forgetJobs({ ids: [String(id)] }, getTabConnection());
        const outcome = result.ok ? forgetOutcome(id, result) : null;
        if (!result.ok) toast.error(result.error);
        else if (outcome?.tone === 'success' && result.kept) {
          // Back where the operator came from, not on a page saying the job is gone; the Undo rides along in the toast.
          forgetToast(outcome.message, [String(id)], true);
          router.push(failedHref);
        } else if (outcome) report(outcome);
      } catch {
        toast.error(NO_ANSWER);
      }
      setConfirming(false);
      await refresh();
    });

  return (
    <div className="flex flex-wrap items-end justify-between gap-4 rounded-md border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <form action={retry} noValidate className="flex flex-wrap items-end gap-3">
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
        <button type="submit" disabled={retrying} className="button-primary">
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
        <p id={hintId} className="w-full text-xs text-zinc-600 dark:text-zinc-400">
          Puts it back on its own queue at priority 0 with 0 attempts. Leave max attempts empty to keep the job&apos;s own
          {maxAttempts ? ` (${maxAttempts})` : ''}.
        </p>
        {/* Always in the page, so a new message is announced. */}
        <p id={errorId} aria-live="polite" className={form.inputError ? 'w-full text-xs text-red-700 dark:text-red-400' : 'sr-only'}>
          {form.inputError}
        </p>
      </form>
      <button type="button" onClick={() => setConfirming(true)} disabled={forgetting} className="button-secondary">
        Forget…
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Forget job ${id}?`}
        confirmLabel={`Forget job ${id}`}
        busyLabel="Forgetting…"
        busy={forgetting}
        onConfirm={forget}
        onCancel={() => setConfirming(false)}
      >
        <p>Job {id} is removed from the failed list.</p>
        <p>While QueueLens keeps a trash it is kept there, whole, and can be restored (the Trash page); otherwise it is deleted for good.</p>
      </ConfirmDialog>
    </div>
  );
}
