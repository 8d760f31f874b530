'use client';

import { DelayedHeading } from '@/components/delayed/delayed-heading';
import { AttendanceBox } from '@/components/delayed/overdue-notice';
import { TimelineBuckets } from '@/components/delayed/timeline-buckets';
import { JobNameAndNote, OptionalFigure, QueueJobLink } from '@/components/layouts/layout-job-cells';
import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { useChangePermission } from '@/components/shell/change-permission';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { DueMoment } from '@/components/ui/due-moment';
import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { DueTimeline, LineRepairOffer } from '@/lib/layouts/pages';
import { dueTimelineQuery } from '@/lib/queries/layout-pages';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { moveDueJobsNow, runDueJobNow } from '../line-actions';

/** Batches of due jobs one click moves at most; a queue with more is moved by clicking again. */
const MOVE_BATCHES = 20;

/** Moves the due jobs into the line in bounded batches, as the driver's own mover would place them. */
async function moveAllDue(queue: string) {
  let moved = 0;
  for (let batch = 0; batch < MOVE_BATCHES; batch++) {
    const result = await moveDueJobsNow({ queue }, getTabConnection());
    if (!result.ok) return result;
    moved += result.moved;
    if (result.stillDue === 0) break;
  }
  return { ok: true as const, changed: moved > 0 };
}

const NEXT = 'Next jobs due';

function sum(buckets: readonly { count: number }[]): number {
  return buckets.reduce((total, bucket) => total + bucket.count, 0);
}

/** How many are due and not moved, who moves them, and whether anybody seems to. */
function DueNotice({ timeline, whyNot }: { timeline: DueTimeline; whyNot: string | null }) {
  const { overdue, now, attendance } = timeline;
  const mayChange = useChangePermission().allowed;
  return (
    <AttendanceBox unattended={attendance.unattended}>
      <p>
        {overdue === 0 ? (
          'No delayed job is due yet: every one is still waiting for its time.'
        ) : (
          <>
            <strong className="tabular-nums">{formatCount(overdue)}</strong> {overdue === 1 ? 'job is' : 'jobs are'} due but not moved into the line yet.
          </>
        )}{' '}
        {timeline.dueMovedBy}
      </p>
      {attendance.oldestOverdueAt !== null && (
        <p>
          Oldest due since <UtcMoment seconds={attendance.oldestOverdueAt} now={now} />.
        </p>
      )}
      {attendance.unattended && <p className="font-semibold">Nobody seems to reserve from this queue: its oldest due job has waited over a minute.</p>}
      {mayChange && overdue > 0 && whyNot !== null && <p>{whyNot}.</p>}
      {mayChange && overdue > 0 && whyNot === null && (
        <p>
          <LineRepairButton
            label="Move due jobs now"
            busyLabel="Moving…"
            subject={`of ${timeline.queue}`}
            action={() => moveAllDue(timeline.queue)}
            done={`The due jobs of ${timeline.queue} are in the line, where its driver would have put them.`}
            unchanged={`No job of ${timeline.queue} was due any more: a worker moved them first.`}
          />
        </p>
      )}
    </AttendanceBox>
  );
}

function NextDue({ timeline, runNowOffered }: { timeline: DueTimeline; runNowOffered: boolean }) {
  const prioritized = timeline.next.some((job) => job.priority !== null);
  const mayChange = useChangePermission().allowed && runNowOffered;
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
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
          {mayChange && <HeaderCell>Actions</HeaderCell>}
        </>
      }
    >
      {timeline.next.map((job) => (
        <tr key={job.id}>
          <Cell>
            <QueueJobLink id={job.id} queue={timeline.queue} />
          </Cell>
          <Cell label="Class">
            <JobNameAndNote name={job.name} note={job.note} />
          </Cell>
          <Cell label="Due">
            <DueMoment dueAt={job.dueAt} now={timeline.now} overdueLabel="due, not moved" />
          </Cell>
          <Cell label="Attempts" numeric>
            {job.attempts}
          </Cell>
          {prioritized && (
            <Cell label="Priority" numeric>
              <OptionalFigure value={job.priority} missing="no priority" />
            </Cell>
          )}
          {mayChange && (
            <Cell label="Actions">
              {job.dueAt > timeline.now && (
                <LineRepairButton
                  label="Run now"
                  busyLabel="Running now…"
                  subject={`job ${job.id} on ${timeline.queue}`}
                  action={() => runDueJobNow({ queue: timeline.queue, id: job.id }, getTabConnection())}
                  done={`Job ${job.id} is due now: it is in line, or goes there at the driver's next move (drivers that move jobs only as they reserve).`}
                  unchanged={`Job ${job.id} is no longer delayed.`}
                />
              )}
            </Cell>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * A queue's delayed timeline for a layout without StaticPHP's: the same
 * counts and buckets, the next jobs due with what the layout knows of them,
 * and (where the layout offers them) running one now or moving the due ones; live.
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
        <EmptyList>This queue has no delayed jobs.</EmptyList>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
            <Stat label="Delayed" value={timeline.total} />
            <Stat label="Due, not moved" value={timeline.overdue} />
            <Stat label="Due in the next hour" value={sum(timeline.hour)} />
            <Stat label="Due in the next day" value={sum(timeline.day)} />
            <Stat label="Due later than a week" value={timeline.later} />
          </div>
          <Section title="Due, not moved">
            <DueNotice timeline={timeline} whyNot={repairs.moveDueJobs} />
          </Section>
          <TimelineBuckets timeline={timeline} />
          <Section title={NEXT} description="Soonest first, due ones included.">
            <NextDue timeline={timeline} runNowOffered={repairs.runDelayedNow === null} />
          </Section>
        </>
      )}
    </div>
  );
}
