'use client';

import { useId, useState } from 'react';
import { editAndRetryJob } from '@/app/failed/actions';
import { useUndoToast } from '@/components/trash/use-restore';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDialogAction } from '@/components/ui/use-dialog-action';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { describeUnrunnablePayload } from '@/lib/shapes/job-payload';
import { lineDiff, type DiffLine } from '@/lib/shapes/line-diff';
import { prettyJson } from '@/lib/shapes/pretty-json';
import { NO_ANSWER, useRefreshJobViews } from './forget-failed-job';

const OUTCOMES = {
  'not-failed': 'is no longer failed: it was retried or forgotten meanwhile. Nothing was changed.',
  changed: 'has another payload than the one you edited: it changed meanwhile. Nothing was changed; read it again and edit that.',
  missing: 'is gone: its hash was deleted meanwhile. It was taken off the failed list.',
} as const;

const LINE_MARK = { same: ' ', removed: '−', added: '+' } as const;
const LINE_TONE = {
  same: '',
  removed: 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200',
  added: 'bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-200',
} as const;

/** The edit against the stored payload, both re-indented (so a one-line payload diffs by its members), or why it cannot be shown. */
export function ChangesOf({ before, after }: { before: string; after: string }) {
  const lines: DiffLine[] | null = lineDiff(prettyJson(before) ?? before, prettyJson(after) ?? after);
  if (lines === null) return <p>The edit is too long to compare line by line.</p>;
  return (
    <pre
      // Focusable, so that the keyboard scrolls it too.
      tabIndex={0}
      aria-label="Changes to the payload"
      className="max-h-48 overflow-auto rounded border border-zinc-200 font-mono text-xs dark:border-zinc-700"
    >
      {lines.map((line, index) => (
        <div key={index} className={`px-2 whitespace-pre-wrap [overflow-wrap:anywhere] ${LINE_TONE[line.kind]}`}>
          <span aria-hidden="true">{LINE_MARK[line.kind]} </span>
          {line.kind !== 'same' && <span className="sr-only">{line.kind}: </span>}
          {line.text}
        </div>
      ))}
    </pre>
  );
}

/**
 * Edit payload and retry… for a failed job whose payload is JSON shown whole
 * (`payload`, its stored text): the edit is checked as the driver would
 * (an object or an array), its changes are shown before it is sent, and
 * the job is retried with it only while it is still failed with the payload
 * shown here. The job as it was goes to the trash; the toast's Undo puts it
 * back once the retried job is gone.
 */
export function EditAndRetry({ id, payload }: { id: string; payload: string }) {
  const undoToast = useUndoToast();
  const { open, setOpen, busy: sending, run, toast } = useDialogAction(NO_ANSWER, useRefreshJobViews());
  const editorId = useId();
  const problemId = useId();
  const [edited, setEdited] = useState(payload);
  const problem = edited === payload ? 'Unchanged: edit the payload to retry it with the edit.' : describeUnrunnablePayload(edited);

  const send = () =>
    run(async () => {
      const result = await editAndRetryJob({ id, seen: payload, edited }, getTabConnection());
      if (!result.ok) toast.error(result.error);
      else if (result.outcome === 'retried') undoToast(`Job ${id} was retried with the edited payload`, [id], result.kept);
      else toast.error(`Job ${id} ${OUTCOMES[result.outcome]}`);
    });

  return (
    <>
      <button
        type="button"
        className="button-secondary"
        onClick={() => {
          setEdited(payload);
          setOpen(true);
        }}
      >
        Edit payload and retry…
      </button>
      <ConfirmDialog
        open={open}
        wide
        title={`Edit job ${id}'s payload and retry it`}
        confirmLabel="Retry with this payload"
        busyLabel="Retrying…"
        busy={sending}
        ready={problem === null}
        onConfirm={send}
        onCancel={() => setOpen(false)}
      >
        <p>
          The job goes back on its queue with this payload, stored exactly as typed, only while it is still failed with the payload shown here. The job as it
          was is kept in the trash, to restore once the retried job is gone.
        </p>
        <label htmlFor={editorId} className="block font-medium text-zinc-900 dark:text-zinc-100">
          Payload (JSON: an object or an array)
        </label>
        <textarea
          id={editorId}
          value={edited}
          onChange={(event) => setEdited(event.target.value)}
          spellCheck={false}
          rows={8}
          aria-invalid={problem !== null && edited !== payload}
          aria-describedby={problemId}
          className="w-full rounded border border-zinc-300 bg-white p-2 font-mono text-xs aria-invalid:border-red-500 dark:border-zinc-600 dark:bg-zinc-950"
        />
        <p
          id={problemId}
          aria-live="polite"
          className={problem === null ? 'sr-only' : edited === payload ? 'text-xs text-zinc-600 dark:text-zinc-400' : 'text-xs text-red-700 dark:text-red-400'}
        >
          {problem === null ? 'The edit is a payload the worker can run.' : edited === payload ? problem : `The payload ${problem}.`}
        </p>
        {problem === null && <ChangesOf before={payload} after={edited} />}
      </ConfirmDialog>
    </>
  );
}
