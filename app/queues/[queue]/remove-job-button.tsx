'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { getTabConnection } from '@/lib/queries/tab-connection';
import type { SeenPlace } from '@/lib/shapes/job-location';
import { removeLineJob } from './line-actions';

/**
 * Removes a job of a layout whose line QueueLens repairs (the job page, the
 * queue page's line), asked first: its message and every entry of it go, as
 * the driver's own remove does, into the trash where the layout keeps one
 * (the toast then offers Undo). `near`: where the page saw it in its
 * queue's list, where a layout that searches its list for a job looks
 * first. From a page about the job itself the operator is taken to
 * `leaveTo`, not left on a page saying it is gone.
 */
export function RemoveJobButton({ queue, id, near, leaveTo }: { queue: string; id: string; near?: SeenPlace; leaveTo?: Route }) {
  const router = useRouter();
  return (
    <LineRepairButton
      label="Remove job…"
      busyLabel="Removing…"
      subject={`${id} on ${queue}`}
      tone="danger"
      question={{
        title: `Remove job ${id}?`,
        confirmLabel: `Remove job ${id}`,
        body: (
          <>
            <p>
              Its message, attempts and place in <span className="font-mono [overflow-wrap:anywhere]">{queue}</span> are taken out of the queue. A worker
              running it now finishes it, and its acknowledge then finds nothing.
            </p>
            <p>
              While QueueLens keeps a trash of this layout the job is kept there, whole, and can be restored (Undo, or the Trash page); otherwise it is deleted
              for good.
            </p>
          </>
        ),
      }}
      action={() => removeLineJob({ queue, id, near }, getTabConnection())}
      done={`Job ${id} was removed from ${queue}`}
      unchanged={`Job ${id} was gone already.`}
      onChanged={leaveTo === undefined ? undefined : () => router.push(leaveTo)}
    />
  );
}
