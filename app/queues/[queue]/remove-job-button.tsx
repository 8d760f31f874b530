'use client';

import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { removeLineJob } from './line-actions';

/**
 * Removes a job of a layout whose line QueueLens repairs (the job page, the
 * queue page's line), asked first: its message and every entry of it go, as
 * the driver's own remove does.
 */
export function RemoveJobButton({ queue, id }: { queue: string; id: string }) {
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
          <p>
            Its message, attempts and place in <span className="font-mono [overflow-wrap:anywhere]">{queue}</span> are deleted and cannot be brought back. A
            worker running it now finishes it, and its acknowledge then finds nothing.
          </p>
        ),
      }}
      action={() => removeLineJob({ queue, id }, getTabConnection())}
      done={`Job ${id} was removed from ${queue}.`}
      unchanged={`Job ${id} was gone already.`}
    />
  );
}
