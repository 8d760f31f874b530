'use client';

import { useState } from 'react';
import { DelayedHeading } from '@/components/delayed/delayed-heading';
import { NextDueTable } from '@/components/delayed/next-due-table';
import { OverdueNotice } from '@/components/delayed/overdue-notice';
import { TimelineBuckets } from '@/components/delayed/timeline-buckets';
import { useDelayedActions } from '@/components/delayed/use-delayed-actions';
import { BulkProgressBar } from '@/components/failed/bulk-progress-bar';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { delayedTimelineQuery, type DelayedTimeline } from '@/lib/queries/delayed-timeline';

const OVERDUE = 'Overdue';
const NEXT = 'Next jobs due';

type DelayedJob = DelayedTimeline['next'][number];

function sum(buckets: readonly { count: number }[]): number {
  return buckets.reduce((total, bucket) => total + bucket.count, 0);
}

/** One queue's delayed set, live: overdue jobs, what comes due over the next hour, day and week, the next jobs due, and the repairs. */
export function DelayedTimelineView({ name }: { name: string }) {
  const view = useLiveQuery(delayedTimelineQuery(name));
  const timeline = view.data;

  return (
    <div className="space-y-8">
      <DelayedHeading name={name} />
      <LiveErrorBanner title="Cannot read the delayed jobs" view={view} />
      {timeline === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the delayed jobs…</p>
      ) : timeline.total === 0 ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">This queue has no delayed jobs.</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            A job pushed with a delay, released for a retry later, or parked until its holder&apos;s deadline waits here until it is due.
          </p>
        </div>
      ) : (
        <TimelineBody timeline={timeline} />
      )}
    </div>
  );
}

function TimelineBody({ timeline }: { timeline: DelayedTimeline }) {
  const { promoteDue, promoting, cancelPromote, runNow, runningId } = useDelayedActions(timeline.queue);
  const [confirming, setConfirming] = useState<DelayedJob | null>(null);
  const canChange = useChangePermission().allowed;
  const { now } = timeline;

  return (
    <>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <Stat label="Delayed" value={timeline.total} />
        <Stat label={OVERDUE} value={timeline.overdue} />
        <Stat label="Due in the next hour" value={sum(timeline.hour)} />
        <Stat label="Due in the next day" value={sum(timeline.day)} />
        <Stat label="Due later than a week" value={timeline.later} />
      </div>
      {timeline.total > 0 && <ChangeControls />}

      <Section
        title="Due, not moved in"
        actions={
          canChange &&
          timeline.overdue > 0 &&
          promoting === null && (
            <button type="button" onClick={() => void promoteDue(timeline.overdue)} className="button-primary">
              Move due jobs now
            </button>
          )
        }
      >
        <OverdueNotice timeline={timeline} />
        {promoting !== null && <BulkProgressBar progress={promoting} onCancel={cancelPromote} />}
      </Section>

      <TimelineBuckets timeline={timeline} />

      <Section title={NEXT} description="Soonest first. Running one now puts it at the back of its level at once.">
        {timeline.next.length > 0 ? (
          <NextDueTable label={NEXT} timeline={timeline} runningId={runningId} onRunNow={canChange ? setConfirming : undefined} />
        ) : (
          <EmptyList>No delayed jobs.</EmptyList>
        )}
      </Section>

      <ConfirmDialog
        open={confirming !== null}
        title={`Run job ${confirming?.id ?? ''} now?`}
        confirmLabel={`Run job ${confirming?.id ?? ''} now`}
        busyLabel="Moving…"
        busy={runningId !== null}
        onConfirm={() => {
          const job = confirming;
          if (job === null || typeof job.id !== 'number') return;
          void runNow(job.id).then(() => setConfirming(null));
        }}
        onCancel={() => setConfirming(null)}
      >
        {confirming !== null && (
          <>
            <p>
              It is due <UtcMoment seconds={confirming.dueAt} now={now} />. It leaves the delayed jobs and joins the back of its
              level, and the next worker taking a job from this queue takes it in turn.
            </p>
            <p>If a worker moved it in meanwhile, nothing changes and you are told so.</p>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
