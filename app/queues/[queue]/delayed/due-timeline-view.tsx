'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { DelayedHeading } from '@/components/delayed/delayed-heading';
import { moveDueOutcome } from '@/components/delayed/delayed-outcomes';
import { AttendanceBox } from '@/components/delayed/overdue-notice';
import { TimelineBuckets } from '@/components/delayed/timeline-buckets';
import { BulkProgressBar } from '@/components/failed/bulk-progress-bar';
import { useBulkRun } from '@/components/failed/use-bulk-run';
import { JobIdCell, JobNameAndNote, OptionalFigure } from '@/components/layouts/layout-job-cells';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { DueMoment } from '@/components/ui/due-moment';
import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { useToast } from '@/components/ui/toaster';
import type { DueTimeline, LineRepairOffer } from '@/lib/layouts/pages';
import { queryKeys } from '@/lib/queries/keys';
import { dueTimelineQuery } from '@/lib/queries/layout-pages';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { moveDueJobsNow } from '../line-actions';
import { RunNowAction } from '../run-now';

const NEXT = 'Next jobs due';
const THE_LINE = { one: 'the line', many: 'the line' };
const NO_ANSWER = 'The QueueLens server did not answer; jobs may or may not have moved. The page shows where they are as soon as a read succeeds.';

function sum(buckets: readonly { count: number }[]): number {
  return buckets.reduce((total, bucket) => total + bucket.count, 0);
}

/**
 * "Move due jobs now": bounded batches, one atomic script each, with
 * progress and Cancel between them; a toast says how it went, and whatever
 * shows the queue's jobs is read again.
 */
function useMoveDue(timeline: DueTimeline) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { progress, run, cancel } = useBulkRun();
  const { queue } = timeline;
  const into = timeline.movedInto ?? THE_LINE;
  const moveDue = useCallback(
    async (overdue: number) => {
      let moved = 0;
      let gone = 0;
      const outcome = await run('Moving due jobs', overdue, async () => {
        try {
          const step = await moveDueJobsNow({ queue }, getTabConnection());
          if (!step.ok) return step;
          moved += step.moved;
          gone += step.gone ?? 0;
          return { ok: true, handled: step.moved + (step.gone ?? 0), finished: step.stillDue === 0 };
        } catch {
          return { ok: false, error: NO_ANSWER };
        }
      });
      const { tone, message } = moveDueOutcome({ queue, into, moved, gone, cancelled: outcome.cancelled, error: outcome.error });
      if (tone === 'success') toast.success(message);
      else toast.error(message);
      await Promise.all([queryKeys.queues.all, queryKeys.overview.all, queryKeys.jobs.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    [queue, into, run, toast, queryClient],
  );
  return { moveDue, moving: progress, cancelMove: cancel };
}

/** How many are due and not moved, who moves them, and whether anybody seems to. */
function DueNotice({ timeline, whyNot }: { timeline: DueTimeline; whyNot: string | null }) {
  const { overdue, now, attendance } = timeline;
  const into = timeline.movedInto ?? THE_LINE;
  const mayChange = useChangePermission().allowed;
  if (overdue === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">No delayed job is overdue: every one is still waiting for its time. {timeline.dueMovedBy}</p>
    );
  return (
    <AttendanceBox unattended={attendance.unattended}>
      <p>
        <strong className="tabular-nums">{formatCount(overdue)}</strong> {overdue === 1 ? 'job is' : 'jobs are'} due but not moved into{' '}
        {overdue === 1 ? into.one : into.many} yet. {timeline.dueMovedBy}
      </p>
      {attendance.oldestOverdueAt !== null && (
        <p>
          Oldest due since <UtcMoment seconds={attendance.oldestOverdueAt} now={now} />.
        </p>
      )}
      {attendance.unattended && (
        <p className="font-semibold">
          No worker seems to take jobs from this queue: its oldest due job has waited over a minute
          {attendance.lastDeliveredEntryAt === null ? '.' : ', and no job that became ready since then has been handed to a worker.'}
        </p>
      )}
      {mayChange && whyNot !== null && <p>{whyNot}.</p>}
    </AttendanceBox>
  );
}

function NextDue({ timeline, runNowOffered }: { timeline: DueTimeline; runNowOffered: boolean }) {
  const prioritized = timeline.next.some((job) => job.priority !== null);
  const mayChange = useChangePermission().allowed && runNowOffered;
  const { now, queue } = timeline;
  return (
    <DataTable
      label={NEXT}
      minWidthClass="min-w-[40rem]"
      stacked
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Class</HeaderCell>
          <HeaderCell>Due</HeaderCell>
          {/* Beside the moment it changes, and clear of the toasts in the bottom right corner. */}
          {mayChange && <HeaderCell>Actions</HeaderCell>}
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
        </>
      }
    >
      {timeline.next.map((job) => (
        <tr key={job.id}>
          <Cell>
            <JobIdCell id={job.id} queue={queue} idNote={job.idNote} ofConnection={timeline.idsOfConnection} near={job.near} />
          </Cell>
          <Cell label="Class">
            <JobNameAndNote name={job.name} note={job.note} />
            {job.heldBy && (
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                Parked: {job.heldBy.holder === '' ? 'its holder' : <span className="font-mono">{job.heldBy.holder}</span>} holds its claim until{' '}
                <UtcMoment seconds={job.heldBy.until} now={now} />
              </p>
            )}
          </Cell>
          <Cell label="Due">
            <DueMoment dueAt={job.dueAt} now={now} overdueLabel="due, not moved" />
          </Cell>
          {mayChange && (
            <Cell label="Actions">
              <RunNowAction timeline={timeline} job={job} />
            </Cell>
          )}
          <Cell label="Attempts" numeric>
            {job.attempts}
          </Cell>
          {prioritized && (
            <Cell label="Priority" numeric>
              <OptionalFigure value={job.priority} missing="no priority" />
            </Cell>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

function TimelineBody({ timeline, repairs }: { timeline: DueTimeline; repairs: LineRepairOffer }) {
  const { moveDue, moving, cancelMove } = useMoveDue(timeline);
  const canChange = useChangePermission().allowed;
  return (
    <>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <Stat label="Delayed" value={timeline.total} />
        <Stat label="Due, not moved" value={timeline.overdue} />
        <Stat label="Due in the next hour" value={sum(timeline.hour)} />
        <Stat label="Due in the next day" value={sum(timeline.day)} />
        <Stat label="Due later than a week" value={timeline.later} />
      </div>
      <ChangeControls />
      <Section
        title="Due, not moved in"
        actions={
          canChange &&
          timeline.overdue > 0 &&
          repairs.moveDueJobs === null &&
          moving === null && (
            <button type="button" onClick={() => void moveDue(timeline.overdue)} className="button-primary">
              Move due jobs now<span className="sr-only"> of {timeline.queue}</span>
            </button>
          )
        }
      >
        <DueNotice timeline={timeline} whyNot={repairs.moveDueJobs} />
        {moving !== null && <BulkProgressBar progress={moving} onCancel={cancelMove} />}
      </Section>
      <TimelineBuckets timeline={timeline} />
      <Section title={NEXT} description="Soonest first, due ones included.">
        <NextDue timeline={timeline} runNowOffered={repairs.runDelayedNow === null} />
      </Section>
    </>
  );
}

/**
 * A queue's delayed timeline, live, on every layout: overdue jobs and who
 * moves them, what comes due over the next hour, day and week, the next jobs
 * due with what the layout knows of them (a parked job's holder where it
 * records one), and, where the layout offers them, running one now and
 * moving the due ones.
 */
export function DueTimelineView({ name, repairs }: { name: string; repairs: LineRepairOffer }) {
  const view = useLiveQuery(dueTimelineQuery(name));
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
        <TimelineBody timeline={timeline} repairs={repairs} />
      )}
    </div>
  );
}
