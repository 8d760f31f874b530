import type { Route } from 'next';
import { formatCount, plural } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { formatRelative, formatUtc } from '@/components/ui/format-moment';
import type { QueueMark } from '@/lib/dashboard/marks';
import { delayedOfQueueHref, failedOfQueueHref, queueHref, reservationsOfQueueHref } from '@/lib/routes';

/** A mark as the overview shows it: its name, what was found, and the page that deals with it. */
export interface MarkView {
  title: string;
  detail: string;
  href: Route;
  /** the link's words, after the page it opens */
  action: string;
}

/** Each mark's name, as the overview and the alerts page write it. */
export const MARK_TITLES: Readonly<Record<QueueMark['kind'], string>> = {
  noWorker: 'No worker',
  stuck: 'Stuck',
  failing: 'Failing',
  overdueDelayed: 'Due, not moved',
};

/** What a mark says, in the dashboard's units and clock (UTC, measured against the server's `now`). */
export function describeMark(queue: string, mark: QueueMark, now: number): MarkView {
  switch (mark.kind) {
    case 'noWorker':
      return {
        title: MARK_TITLES.noWorker,
        detail: `${plural(mark.ready, 'job', 'jobs')} ready, none handed out for ${formatDuration(mark.waitingSeconds)}`,
        href: queueHref(queue),
        action: 'See the queue',
      };
    case 'stuck': {
      const ranOut = `${plural(mark.claims, 'claim', 'claims')} ran out at ${formatUtc(mark.ranOutAt, now)} (${formatRelative(mark.ranOutAt, now)})`;
      // A layout that records no holder (Laravel) has no claim to release or fail: its page puts an expired reservation back in line.
      if (mark.holders.length === 0) return { title: MARK_TITLES.stuck, detail: ranOut, href: reservationsOfQueueHref(queue), action: 'Put them back in line' };
      return {
        title: MARK_TITLES.stuck,
        detail: `${ranOut}, held by ${mark.holders.join(', ')}`,
        href: reservationsOfQueueHref(queue),
        action: 'Release or fail them',
      };
    }
    case 'failing':
      return {
        title: MARK_TITLES.failing,
        detail: `${plural(mark.failures, 'failure', 'failures')} in the last ${mark.minutes} min${mark.latestError === '' ? '' : `, latest: ${mark.latestError}`}`,
        href: failedOfQueueHref(queue),
        action: 'See its failed jobs',
      };
    case 'overdueDelayed':
      return {
        title: MARK_TITLES.overdueDelayed,
        detail: `${plural(mark.due, 'delayed job', 'delayed jobs')} due for ${formatDuration(mark.dueSeconds)}, not moved into the queue`,
        href: delayedOfQueueHref(queue),
        action: 'Move them in',
      };
  }
}

/** How many queues need attention, as the overview's summary says it. */
export function describeQueuesMarked(count: number): string {
  return count === 1 ? '1 queue needs attention' : `${formatCount(count)} queues need attention`;
}
