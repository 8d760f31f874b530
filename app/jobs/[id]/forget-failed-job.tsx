'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { forgetJobs } from '@/app/failed/actions';
import { forgetOutcome } from '@/components/jobs/job-actions';
import { useUndoToast } from '@/components/trash/use-restore';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toaster';
import { queryKeys } from '@/lib/queries/keys';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { failedHref } from '@/lib/routes';

export const NO_ANSWER = 'The QueueLens server did not answer; the job may or may not have changed. The page shows its state as soon as a read succeeds.';

/** Invalidates whatever shows a job that changed: the job itself, its queue, the failed list, the overview. */
export function useRefreshJobViews(): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.jobs.all, queryKeys.queues.all, queryKeys.failed.all, queryKeys.overview.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

/**
 * Forget… for one failed job (`id` as its driver spells it), after a
 * confirmation. Once forgotten the operator is taken back to the failed list,
 * not left on a page saying the job is gone; when the layout kept it in the
 * trash, the toast carries the Undo.
 */
export function ForgetFailedJob({ id }: { id: string }) {
  const toast = useToast();
  const undoToast = useUndoToast();
  const router = useRouter();
  const refresh = useRefreshJobViews();
  const [confirming, setConfirming] = useState(false);
  const [forgetting, startForget] = useTransition();

  const forget = () =>
    startForget(async () => {
      try {
        const result = await forgetJobs({ ids: [id] }, getTabConnection());
        const outcome = result.ok ? forgetOutcome(id, result) : { tone: 'error', message: result.error };
        if (!result.ok || outcome.tone === 'error') toast.error(outcome.message);
        else {
          undoToast(outcome.message, [id], result.kept);
          router.push(failedHref);
        }
      } catch {
        toast.error(NO_ANSWER);
      }
      setConfirming(false);
      await refresh();
    });

  return (
    <>
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
        <p>While QueueLens keeps a trash of this layout it is kept there, whole, and can be restored (the Trash page); otherwise it is deleted for good.</p>
      </ConfirmDialog>
    </>
  );
}
