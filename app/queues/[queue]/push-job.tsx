'use client';

import { useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDialogAction } from '@/components/ui/use-dialog-action';
import { useRefreshJobViews } from '@/app/jobs/[id]/forget-failed-job';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { describeUnrunnablePayload } from '@/lib/shapes/job-payload';
import { pushJob } from './push-action';

const NO_ANSWER = 'The QueueLens server did not answer; the job may or may not have been pushed. The queue page shows it as soon as a read succeeds.';

/** What the form starts from: a new job's defaults, or the job a copy is made of. */
export interface PushStart {
  name: string;
  payload: string;
  maxAttempts: string;
}

const NEW_JOB: PushStart = { name: '', payload: '{}', maxAttempts: '3' };

const wholeNumber = (text: string, least: number) => (/^-?\d+$/.test(text.trim()) && Number(text) >= least ? Number(text) : null);

/** Why the form cannot be sent yet, in the words it shows; null when it can. */
function problemOf(form: PushStart & { delay: string; priority: string }): string | null {
  if (form.name.trim() === '') return 'Name the job: its handler is found by this name.';
  const payload = describeUnrunnablePayload(form.payload);
  if (payload !== null) return `The payload ${payload}.`;
  if (wholeNumber(form.delay, 0) === null) return 'The delay is a whole number of seconds, 0 or more.';
  if (!/^-?\d{1,19}$/.test(form.priority.trim())) return 'The priority is a whole number (higher runs first; negative is allowed).';
  if (wholeNumber(form.maxAttempts, 1) === null) return 'Max attempts is a whole number, 1 or more.';
  return null;
}

const INPUT = 'rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-950';

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-zinc-900 dark:text-zinc-100">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The form's one-line fields: what each holds, how it reads (text in mono, numbers tabular), and whether a phone shows digits. */
const LINE_FIELDS = [
  { field: 'name', label: 'Name', look: 'font-mono', numeric: false },
  { field: 'uniqueKey', label: 'Unique key (optional)', look: 'font-mono', numeric: false },
  { field: 'delay', label: 'Delay (seconds)', look: 'tabular-nums', numeric: true },
  // Not numeric: a priority may be negative, which a phone's digit pad cannot type.
  { field: 'priority', label: 'Priority (higher runs first)', look: 'tabular-nums', numeric: false },
  { field: 'maxAttempts', label: 'Max attempts', look: 'tabular-nums', numeric: true },
] as const;

function LineField({
  label,
  value,
  onChange,
  look,
  numeric,
}: {
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  look: string;
  numeric: boolean;
}) {
  const id = useId();
  return (
    <Field label={label} id={id}>
      <input id={id} value={value} onChange={onChange} inputMode={numeric ? 'numeric' : undefined} autoComplete="off" className={`${INPUT} ${look}`} />
    </Field>
  );
}

/**
 * Push a job… on a queue of a layout whose jobs QueueLens runs (its
 * `runner`), or Run a copy… of a job (`start`: its name, payload and max
 * attempts): a form checked as the driver would, then the push
 * `queuelens push` makes, the payload stored exactly as typed.
 */
export function PushJob({ queue, start = NEW_JOB, label = 'Push a job…' }: { queue: string; start?: PushStart; label?: string }) {
  const { open, setOpen, busy: pushing, run, toast } = useDialogAction(NO_ANSWER, useRefreshJobViews());
  const ids = { payload: useId(), problem: useId() };
  const [form, setForm] = useState({ ...start, delay: '0', priority: '0', uniqueKey: '' });
  const problem = problemOf(form);
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });

  const send = () =>
    run(async () => {
      const result = await pushJob(
        {
          queue,
          name: form.name.trim(),
          payload: form.payload,
          delaySeconds: Number(form.delay),
          priority: form.priority.trim(),
          maxAttempts: Number(form.maxAttempts),
          uniqueKey: form.uniqueKey,
        },
        getTabConnection(),
      );
      if (!result.ok) toast.error(result.error);
      else toast.success(`Job ${result.id} is on ${queue}${form.uniqueKey === '' ? '' : ' (the live job holding that unique key, if one did)'}`);
    });

  return (
    <>
      <button
        type="button"
        className="button-secondary"
        onClick={() => {
          setForm({ ...start, delay: '0', priority: '0', uniqueKey: '' });
          setOpen(true);
        }}
      >
        {label}
      </button>
      <ConfirmDialog
        open={open}
        wide
        title={`Push a job to ${queue}`}
        confirmLabel="Push job"
        busyLabel="Pushing…"
        busy={pushing}
        ready={problem === null}
        onConfirm={send}
        onCancel={() => setOpen(false)}
      >
        <p>
          What <code className="font-mono">queuelens push</code> writes: a new job with a new id, its payload stored exactly as typed, for this queue&apos;s
          workers to run.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          {LINE_FIELDS.map(({ field, label, look, numeric }) => (
            <LineField key={field} label={label} value={form[field]} onChange={set(field)} look={look} numeric={numeric} />
          ))}
        </div>
        <Field label="Payload (JSON: an object or an array)" id={ids.payload}>
          <textarea
            id={ids.payload}
            value={form.payload}
            onChange={set('payload')}
            spellCheck={false}
            rows={6}
            aria-describedby={ids.problem}
            className={`${INPUT} font-mono text-xs`}
          />
        </Field>
        <p id={ids.problem} aria-live="polite" className={problem === null ? 'sr-only' : 'text-xs text-zinc-600 dark:text-zinc-400'}>
          {problem ?? 'Ready to push.'}
        </p>
      </ConfirmDialog>
    </>
  );
}
