'use client';

import { useId, useState } from 'react';
import { previewForget } from '@/app/failed/actions';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatCount } from '@/components/ui/format-count';
import { useToast } from '@/components/ui/toaster';
import { getTabConnection } from '@/lib/queries/tab-connection';

/**
 * Forget everything that failed before a moment (UTC). The preview counts
 * what it would delete, and the confirmation names that count.
 */
export function ForgetBeforeForm({ busy, onForget }: { busy: boolean; onForget: (count: number, before: string) => void }) {
  const toast = useToast();
  const id = useId();
  const [pending, setPending] = useState<{ before: string; count: number } | null>(null);
  return (
    <>
      <form
        aria-label="Forget failed jobs before a date"
        className="flex flex-wrap items-end gap-3"
        onSubmit={async (event) => {
          event.preventDefault();
          // Read from the form, not from state: a date typed before the page hydrated is kept.
          const form = new FormData(event.currentTarget);
          const date = String(form.get('date') ?? '').trim();
          const time = String(form.get('time') ?? '').trim();
          const before = time === '' ? date : `${date} ${time.length === 5 ? `${time}:00` : time}`;
          const preview = await previewForget({ before }, getTabConnection());
          if (!preview.ok) return toast.error(preview.error);
          if (preview.count === 0) return toast.success(`No failed job failed before ${before} UTC`);
          setPending({ before, count: preview.count });
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-date`} className="text-xs text-zinc-600 dark:text-zinc-400">
            Failed before (UTC date)
          </label>
          {/* Text, not the browser's date picker: that one shows the reader's locale and zone, and this moment is UTC. */}
          <input
            id={`${id}-date`}
            type="text"
            name="date"
            required
            placeholder="YYYY-MM-DD"
            pattern="\d{4}-\d{2}-\d{2}"
            inputMode="numeric"
            autoComplete="off"
            className="w-32 rounded border border-zinc-300 bg-white px-2 py-1 font-mono text-sm dark:border-zinc-600 dark:bg-zinc-800"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-time`} className="text-xs text-zinc-600 dark:text-zinc-400">
            Time (UTC, optional)
          </label>
          <input
            id={`${id}-time`}
            type="text"
            name="time"
            placeholder="HH:MM:SS"
            pattern="\d{2}:\d{2}(:\d{2})?"
            inputMode="numeric"
            autoComplete="off"
            className="w-28 rounded border border-zinc-300 bg-white px-2 py-1 font-mono text-sm dark:border-zinc-600 dark:bg-zinc-800"
          />
        </div>
        <button type="submit" disabled={busy} className="button-secondary">
          Forget failed before…
        </button>
      </form>
      <ConfirmDialog
        open={pending !== null}
        title={`Forget ${formatCount(pending?.count ?? 0)} failed ${pending?.count === 1 ? 'job' : 'jobs'}?`}
        confirmLabel={`Forget ${formatCount(pending?.count ?? 0)}`}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending) onForget(pending.count, pending.before);
          setPending(null);
        }}
      >
        Every job that failed before {pending?.before} UTC leaves the failed list. While QueueLens keeps a trash they are kept there, whole, and can be restored
        from the Trash page; otherwise they are deleted for good.
      </ConfirmDialog>
    </>
  );
}
