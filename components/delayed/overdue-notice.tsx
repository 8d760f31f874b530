import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import type { DelayedTimeline } from '@/lib/queries/delayed-timeline';
import type { ReactNode } from 'react';

/** The frame of what is due and not moved: amber when the queue looks unattended. */
export function AttendanceBox({ unattended, children }: { unattended: boolean; children: ReactNode }) {
  return (
    <div
      className={`space-y-1 rounded-md border px-4 py-3 text-sm ${
        unattended
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-50'
          : 'border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900'
      }`}
    >
      {children}
    </div>
  );
}

/**
 * The overdue count and what it means: due jobs sit in the delayed set
 * until a worker reserving from this very queue promotes them. Flagged when
 * the queue looks unattended (lib/inspect/delayed-timeline.ts says how that
 * is judged).
 */
export function OverdueNotice({ timeline }: { timeline: DelayedTimeline }) {
  const { overdue, now, attendance } = timeline;
  if (overdue === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No delayed job is overdue: every one is still waiting for its time.</p>;
  }
  return (
    <AttendanceBox unattended={attendance.unattended}>
      <p>
        <strong className="tabular-nums">{formatCount(overdue)}</strong> {overdue === 1 ? 'job is' : 'jobs are'} due but not moved into
        {overdue === 1 ? ' its level' : ' their levels'} yet. Only a worker taking a job from this queue moves them in (at most 50 each
        time), or you do it here.
      </p>
      {attendance.oldestOverdueAt !== null && (
        <p>
          Oldest due since <UtcMoment seconds={attendance.oldestOverdueAt} now={now} />.
        </p>
      )}
      {attendance.unattended && (
        <p className="font-semibold">
          No worker seems to take jobs from this queue: its oldest due job has waited over a minute, and no job that became ready since
          then has been handed to a worker
          {attendance.lastDeliveredEntryAt === null ? ' (no job of it ever was).' : '.'}
        </p>
      )}
    </AttendanceBox>
  );
}
