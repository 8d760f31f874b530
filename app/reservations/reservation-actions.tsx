'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, useTransition } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toaster';
import type { ActionResult } from '@/lib/server/action';
import type { ClaimRepairOutcome } from '@/lib/shapes/claim-repairs';
import { queryKeys } from '@/lib/queries/keys';
import type { ClaimState } from '@/lib/layouts/pages';
import type { JobIdAsRead } from '@/lib/shapes/job-ids';
import { cleanUpTombstone, failWithReason, releaseNow } from './actions';
import { getTabConnection } from '@/lib/queries/tab-connection';

const NO_ANSWER = 'The QueueLens server did not answer; the job may or may not have changed. The page shows its state as soon as a read succeeds.';
const DEFAULT_REASON = 'Failed by an operator from QueueLens: the reservation was stuck.';

type Dialog = 'release' | 'fail' | null;

/**
 * Which job a row's button acts on, for a screen reader listing the page's
 * buttons; after the visible words, so the button's name starts with what it
 * shows ("Release now job 12"), as speech control expects.
 */
function JobOfButton({ subject }: { subject: string }) {
  return <span className="sr-only"> {subject.toLowerCase()}</span>;
}

/** What the repairs act on: the entry, and the job as the operator saw it (the reservations page's row, or the job page's). */
export interface SeenReservation {
  queue: string;
  level: string;
  entry: string;
  jobId: JobIdAsRead | null;
  state: ClaimState;
  /** the holder, and the claim's deadline and attempts, as stored */
  reservedBy: string;
  reservedUntil: string;
  attempts: string | null;
}

/**
 * Runs one claim repair: toasts what it did (or why it did nothing), closes
 * the dialog it came from and refreshes every view the job is in.
 */
function useClaimRepair(subject: string, onDone: () => void) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [busy, startAction] = useTransition();

  const refresh = () =>
    Promise.all(
      [queryKeys.reservations.all, queryKeys.queues.all, queryKeys.jobs.all, queryKeys.failed.all, queryKeys.overview.all].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );

  const run = (action: () => Promise<ActionResult<ClaimRepairOutcome>>, success: string) =>
    startAction(async () => {
      try {
        const result = await action();
        if (!result.ok) toast.error(result.error);
        else if (result.done) toast.success(success);
        else toast.error(`${subject} ${result.message}`);
      } catch {
        toast.error(NO_ANSWER);
      }
      onDone();
      await refresh();
    });
  return { busy, run };
}

function subjectOf(row: SeenReservation): string {
  return row.jobId === null ? `Entry ${row.entry}` : `Job ${row.jobId}`;
}

/** The repairs one hand-out allows: release or fail a held job, clean up one whose job is gone. One out of date is left to the next reserve. */
export function ReservationActions({ row }: { row: SeenReservation }) {
  const entryJobId = row.jobId;
  // An id past 2^53 is shown as its digits; every repair would name the job its rounded number names.
  if (typeof entryJobId === 'string') return <span className="text-xs text-zinc-500 dark:text-zinc-400">No action: the row says why</span>;
  if (row.state === 'mismatch') return <span className="text-xs text-zinc-500 dark:text-zinc-400">Cleared by the next worker</span>;
  if (row.state === 'tombstone') return <CleanUpTombstone row={row} jobId={entryJobId} />;
  return <HeldJobActions row={row} jobId={entryJobId!} />;
}

/** A pending entry whose job is gone: its left-over hand-out removed. */
function CleanUpTombstone({ row, jobId }: { row: SeenReservation; jobId: number | null }) {
  const subject = subjectOf(row);
  const { busy, run } = useClaimRepair(subject, () => {});
  return (
    <button
      type="button"
      className="button-secondary whitespace-nowrap"
      disabled={busy}
      onClick={() =>
        run(
          () => cleanUpTombstone({ queue: row.queue, level: row.level, entry: row.entry, jobId }, getTabConnection()),
          `${subject}: its left-over hand-out was removed.`,
        )
      }
    >
      {busy ? 'Cleaning…' : 'Clean up'}
      <JobOfButton subject={subject} />
    </button>
  );
}

/** A held job: released now (asked first while its claim is live), or failed with a reason. */
function HeldJobActions({ row, jobId }: { row: SeenReservation; jobId: number }) {
  const reasonId = useId();
  const reasonErrorId = useId();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState(DEFAULT_REASON);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const subject = subjectOf(row);
  const { busy, run } = useClaimRepair(subject, () => setDialog(null));

  const seen = {
    queue: row.queue,
    level: row.level,
    entry: row.entry,
    jobId,
    reservedBy: row.reservedBy,
    reservedUntil: row.reservedUntil,
    attempts: row.attempts ?? '',
  };
  const release = () => run(() => releaseNow(seen, getTabConnection()), `Job ${jobId} released: it is ready again on ${row.queue}, level ${row.level}.`);
  const fail = () => {
    if (reason.trim() === '') {
      setReasonError('Give a reason: it is stored as the job’s error.');
      return;
    }
    run(() => failWithReason({ ...seen, reason }, getTabConnection()), `Job ${jobId} failed; it is in the failed list.`);
  };

  return (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        className="button-secondary whitespace-nowrap"
        disabled={busy}
        // A running job's holder may still be working on it: releasing would run it twice, so that is asked first.
        onClick={() => (row.state === 'running' ? setDialog('release') : release())}
      >
        {busy && dialog === null ? 'Releasing…' : 'Release now'}
        <JobOfButton subject={subject} />
      </button>
      <button
        type="button"
        className="button-danger whitespace-nowrap"
        disabled={busy}
        onClick={() => {
          setReason(DEFAULT_REASON);
          setReasonError(null);
          setDialog('fail');
        }}
      >
        Fail…
        <JobOfButton subject={subject} />
      </button>
      <ConfirmDialog
        open={dialog === 'release'}
        title={`Release job ${jobId} now?`}
        confirmLabel={`Release job ${jobId}`}
        busyLabel="Releasing…"
        busy={busy}
        onConfirm={release}
        onCancel={() => setDialog(null)}
      >
        <p>
          Its claim by <span className="font-mono [overflow-wrap:anywhere]">{row.reservedBy}</span> has not run out. If that worker is still running it, the job
          will run twice: once there and once more by whoever reserves it next.
        </p>
        <p>It goes back to the end of its level with its attempts as they are.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'fail'}
        title={`Fail job ${jobId}?`}
        confirmLabel={`Fail job ${jobId}`}
        busyLabel="Failing…"
        busy={busy}
        onConfirm={fail}
        onCancel={() => setDialog(null)}
      >
        <p>The job leaves its queue for the failed list with this reason as its error, and its unique key is freed. It can be retried from there.</p>
        <label htmlFor={reasonId} className="block font-medium">
          Reason
        </label>
        <textarea
          id={reasonId}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(null);
          }}
          rows={3}
          maxLength={60_000}
          aria-invalid={reasonError !== null}
          aria-describedby={reasonErrorId}
          className="w-full rounded border border-zinc-300 bg-white px-2 py-1 aria-invalid:border-red-500 dark:border-zinc-600 dark:bg-zinc-800"
        />
        <p id={reasonErrorId} aria-live="polite" className={reasonError ? 'text-xs text-red-700 dark:text-red-400' : 'sr-only'}>
          {reasonError}
        </p>
      </ConfirmDialog>
    </div>
  );
}
