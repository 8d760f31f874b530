'use client';

import Link from 'next/link';
import { useLiveQuery } from '@/components/live/use-live-query';
import { formatCount } from '@/components/ui/format-count';
import { overviewQuery, queueTriageRequest } from '@/lib/queries/overview';
import { failedOfQueueHref } from '@/lib/routes';
import { QueueMarks } from './queue-marks';

const LINK = 'text-blue-700 underline-offset-2 hover:underline dark:text-blue-400';

/**
 * A queue page's word on trouble, as the overview judges it: its marks
 * (each with the page that deals with it), how many of its jobs failed in
 * its failing window, and the way to retry them (the failed list filtered
 * to this queue, where Select all and Retry are). Read from the overview's
 * shared read filtered by the queue's name, so it costs Redis nothing more;
 * a queue that page does not list (more than a page of names holding this
 * one) shows nothing here rather than a guess.
 */
export function QueueTriage({ queue }: { queue: string }) {
  const overview = useLiveQuery(overviewQuery(queueTriageRequest(queue))).data;
  const row = overview?.queues.find((candidate) => candidate.queue === queue);
  if (overview === undefined || row === undefined) return null;
  const failed = row.failedRecently;
  return (
    <div className="space-y-1 text-sm">
      {failed !== null && (
        <p className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <span className={failed.count > 0 ? 'font-semibold text-red-800 dark:text-red-300' : undefined}>
            {formatCount(failed.count)}
            {failed.atLeast && failed.count > 0 ? '+' : ''} failed in the last {failed.minutes} min
          </span>
          {overview.failed !== null && (
            <Link href={failedOfQueueHref(queue)} className={`${LINK} inline-flex min-h-11 items-center sm:min-h-0`}>
              Retry its failed jobs<span aria-hidden="true"> →</span>
            </Link>
          )}
        </p>
      )}
      <QueueMarks queue={queue} marks={row.marks} now={overview.now} />
    </div>
  );
}
