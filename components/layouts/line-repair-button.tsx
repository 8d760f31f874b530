'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState, useTransition, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useUndoToast } from '@/components/trash/use-restore';
import { useToast } from '@/components/ui/toaster';
import { queryKeys } from '@/lib/queries/keys';
import type { ActionResult } from '@/lib/server/action';

const NO_ANSWER = 'The QueueLens server did not answer; the job may or may not have changed. The page shows its state as soon as a read succeeds.';

export interface RepairQuestion {
  title: string;
  confirmLabel: string;
  body: ReactNode;
}

/**
 * One repair of a job on a layout's line, reservations, delayed or job page:
 * asked first when `question` is given, then run; the outcome is a toast
 * (`unchanged` when the job had moved on already), with Undo when the action
 * kept the job in the trash, and every page's data is read again. The
 * button's name starts with its visible words, then the job.
 */
export function LineRepairButton({
  label,
  busyLabel,
  subject,
  tone = 'secondary',
  question,
  action,
  done,
  unchanged,
  onChanged,
}: {
  label: string;
  busyLabel: string;
  /** "job 12 on mail", for screen readers after the visible words */
  subject: string;
  tone?: 'secondary' | 'danger';
  question?: RepairQuestion;
  /** `said`, where the layout tells what happened (the level a job joined), is the toast instead of `done` or `unchanged` */
  /** `keptAs`, where the action kept the job in the trash: the id the toast's Undo restores */
  action: () => Promise<ActionResult<{ changed: boolean; said?: string; keptAs?: string | null }>>;
  done: string;
  unchanged: string;
  /** after the job changed, such as leaving a page about a job that is gone */
  onChanged?: () => void;
}) {
  const toast = useToast();
  const undoToast = useUndoToast();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [busy, startAction] = useTransition();

  const run = () =>
    startAction(async () => {
      try {
        const result = await action();
        if (!result.ok) toast.error(result.error);
        else if (result.changed) {
          undoToast(result.said ?? done, result.keptAs ? [result.keptAs] : [], Boolean(result.keptAs));
          onChanged?.();
        } else toast.error(result.said ?? unchanged);
      } catch {
        toast.error(NO_ANSWER);
      }
      setAsking(false);
      await Promise.all(
        [queryKeys.queues.all, queryKeys.jobs.all, queryKeys.reservations.all, queryKeys.overview.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    });

  return (
    <>
      <button
        type="button"
        className={`${tone === 'danger' ? 'button-danger' : 'button-secondary'} whitespace-nowrap`}
        disabled={busy}
        onClick={() => (question ? setAsking(true) : run())}
      >
        {busy && !asking ? busyLabel : label}
        <span className="sr-only"> {subject}</span>
      </button>
      {question && (
        <ConfirmDialog
          open={asking}
          title={question.title}
          confirmLabel={question.confirmLabel}
          busyLabel={busyLabel}
          busy={busy}
          onConfirm={run}
          onCancel={() => setAsking(false)}
        >
          {question.body}
        </ConfirmDialog>
      )}
    </>
  );
}
