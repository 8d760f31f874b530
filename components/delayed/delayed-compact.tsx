'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { JobIdCell, JobNameAndNote } from '@/components/layouts/layout-job-cells';
import { useLiveQuery } from '@/components/live/use-live-query';
import { DueMoment } from '@/components/ui/due-moment';
import { formatCount } from '@/components/ui/format-count';
import { EmptyList, Section } from '@/components/ui/section';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { DueJob, DueTimeline } from '@/lib/layouts/pages';
import { dueTimelineQuery } from '@/lib/queries/layout-pages';
import { delayedOfQueueHref } from '@/lib/routes';
import { BucketChart } from './bucket-chart';

const TITLE = 'Delayed timeline';

/**
 * The queue page's glance at its delayed set: overdue jobs, and how many
 * come due in each 5 minutes of the next hour; the whole timeline and its
 * actions are one link away. Polls on its own, so the queue page needs no
 * more than this one element. A failed read says so here and nothing else.
 */
export function DelayedTimelineCompact({ queue }: { queue: string }) {
  const view = useLiveQuery(dueTimelineQuery(queue));
  const timeline = view.data;
  const hourTotal = timeline?.hour.reduce((sum, bucket) => sum + bucket.count, 0) ?? 0;
  return (
    <Section
      title={TITLE}
      actions={
        <Link href={delayedOfQueueHref(queue)} className="text-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
          Whole delayed timeline<span aria-hidden="true"> →</span>
        </Link>
      }
    >
      {timeline === undefined ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{view.error ?? 'Reading the delayed jobs…'}</p>
      ) : timeline.total === 0 ? (
        <EmptyList>No delayed jobs.</EmptyList>
      ) : (
        <div className="space-y-3">
          <p className="text-sm">
            <span className={timeline.overdue > 0 ? 'font-semibold text-amber-800 dark:text-amber-300' : ''}>
              {formatCount(timeline.overdue)} due, not moved
            </span>
            {timeline.overdue > 0 && ` (due, waiting for a worker taking a job from this queue to move them into ${timeline.movedInto?.many ?? 'the line'})`}
            {timeline.attendance.unattended && <strong className="font-semibold">; no worker seems to reserve from this queue</strong>}
            {' · '}
            {formatCount(hourTotal)} due in the next hour · {formatCount(timeline.total)} delayed in all
          </p>
          <BucketChart label="Coming due in the next hour" buckets={timeline.hour} now={timeline.now} compact />
        </div>
      )}
    </Section>
  );
}

const SOONEST = 'Delayed jobs, due soonest';

/**
 * The queue page's list of the delayed jobs due soonest (the timeline's
 * next jobs, read by the same poll as the glance above it); a due one waits
 * for the driver to move it into the line (StaticPHP: its level). With
 * `actionOf`, each row has what it offers (Run now), where the operator is.
 */
export function DueSoonest({ queue, actionOf }: { queue: string; actionOf?: (timeline: DueTimeline, job: DueJob) => ReactNode }) {
  const timeline = useLiveQuery(dueTimelineQuery(queue)).data;
  if (timeline === undefined) return null;
  const into = timeline.movedInto?.one ?? 'the line';
  return (
    <Section
      title={SOONEST}
      description={`A delayed job moves into ${timeline.movedInto?.many ?? 'the line'} once it is due and the driver next moves due jobs.`}
    >
      {timeline.next.length > 0 ? (
        <DataTable
          label={SOONEST}
          minWidthClass="min-w-[36rem]"
          stacked
          head={
            <>
              <HeaderCell>Job</HeaderCell>
              <HeaderCell>Name</HeaderCell>
              <HeaderCell>Due</HeaderCell>
              {actionOf && <HeaderCell>Actions</HeaderCell>}
            </>
          }
        >
          {timeline.next.map((job) => (
            <tr key={job.id}>
              <Cell>
                <JobIdCell id={job.id} queue={queue} idNote={job.idNote} ofConnection={timeline.idsOfConnection} near={job.near} />
              </Cell>
              <Cell label="Name">
                <JobNameAndNote name={job.name} note={job.note} />
              </Cell>
              <Cell label="Due">
                <DueMoment dueAt={job.dueAt} now={timeline.now} overdueLabel={`due, waiting for a worker to move it into ${into}`} />
              </Cell>
              {actionOf && <Cell label="Actions">{actionOf(timeline, job)}</Cell>}
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyList>No delayed jobs.</EmptyList>
      )}
    </Section>
  );
}
