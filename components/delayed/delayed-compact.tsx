'use client';

import Link from 'next/link';
import { useLiveQuery } from '@/components/live/use-live-query';
import { formatCount } from '@/components/ui/format-count';
import { EmptyList, Section } from '@/components/ui/section';
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
              {formatCount(timeline.overdue)} overdue
            </span>
            {timeline.overdue > 0 && ' (due, waiting for a worker taking a job from this queue to move them into their levels)'}
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
