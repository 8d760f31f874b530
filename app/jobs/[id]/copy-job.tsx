'use client';

import { useId, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDialogAction } from '@/components/ui/use-dialog-action';
import { getTabConnection } from '@/lib/queries/tab-connection';
import type { SeenPlace } from '@/lib/shapes/job-location';
import { copyJob } from './copy-action';
import { ChangesOf } from './edit-and-retry';
import { NO_ANSWER, useRefreshJobViews } from './forget-failed-job';

const INPUT = 'rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-950';

/** Why the edited message cannot be sent, in the words the dialog shows; null when it can (the layout's script checks it again). */
function editProblem(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    const named = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).class : undefined;
    return typeof named === 'string' ? null : 'The message must be a JSON object naming its "class", as the JSON serializer reads it back.';
  } catch {
    return 'The message is not valid JSON.';
  }
}

/**
 * Run a copy… of a job on a layout whose jobs QueueLens does not push itself
 * (its jobCopies): a delay, and the message to edit where the layout offers
 * it (`editable`, the stored text; else `asStored` says why not), then one
 * atomic script of the layout.
 */
export function CopyJob({
  queue,
  id,
  near,
  editable,
  asStored,
}: {
  queue: string;
  id: string;
  /** where the page found the job in its queue's list (JobSnapshot.near) */
  near?: SeenPlace;
  editable: string | null;
  asStored: string;
}) {
  const { open, setOpen, busy: copying, run, toast } = useDialogAction(NO_ANSWER, useRefreshJobViews());
  const ids = { delay: useId(), message: useId(), problem: useId() };
  const [delay, setDelay] = useState('0');
  const [message, setMessage] = useState(editable ?? '');
  const delaySeconds = /^\d{1,9}$/.test(delay.trim()) ? Number(delay) : null;
  const problem = delaySeconds === null ? 'The delay is a whole number of seconds, 0 or more.' : editable === null ? null : editProblem(message);

  const send = () =>
    run(async () => {
      const edited = editable !== null && message !== editable ? message : undefined;
      const result = await copyJob({ queue, id, delaySeconds: delaySeconds ?? 0, edited, near }, getTabConnection());
      if (result.ok) toast.success(`Job ${result.id} is a copy of job ${id} on ${queue}${delaySeconds ? `, due in ${delaySeconds} s` : ''}`);
      else toast.error(result.error);
    });

  return (
    <>
      <button
        type="button"
        className="button-secondary"
        onClick={() => {
          setDelay('0');
          setMessage(editable ?? '');
          setOpen(true);
        }}
      >
        Run a copy…
      </button>
      <ConfirmDialog
        open={open}
        wide
        title={`Run a copy of job ${id}`}
        confirmLabel="Run the copy"
        busyLabel="Copying…"
        busy={copying}
        ready={problem === null}
        onConfirm={send}
        onCancel={() => setOpen(false)}
      >
        <p>
          A new job with a new id on <span className="font-mono [overflow-wrap:anywhere]">{queue}</span>, made from this job&apos;s message and put where the
          driver&apos;s own push puts a new job. This job is left as it is.
        </p>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.delay} className="font-medium text-zinc-900 dark:text-zinc-100">
            Delay (seconds)
          </label>
          <input
            id={ids.delay}
            value={delay}
            onChange={(event) => setDelay(event.target.value)}
            inputMode="numeric"
            autoComplete="off"
            className={`${INPUT} w-32 tabular-nums`}
          />
        </div>
        {editable === null ? (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{asStored}.</p>
        ) : (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor={ids.message} className="font-medium text-zinc-900 dark:text-zinc-100">
                Message (JSON, after its TTR prefix)
              </label>
              <textarea
                id={ids.message}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                spellCheck={false}
                rows={6}
                aria-describedby={ids.problem}
                className={`${INPUT} font-mono text-xs`}
              />
            </div>
            {message !== editable && problem === null && <ChangesOf before={editable} after={message} />}
          </>
        )}
        <p id={ids.problem} aria-live="polite" className={problem === null ? 'sr-only' : 'text-xs text-zinc-600 dark:text-zinc-400'}>
          {problem ?? 'Ready to copy.'}
        </p>
      </ConfirmDialog>
    </>
  );
}
