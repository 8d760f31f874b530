'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueueThroughput } from '@/components/charts/queue-throughput';
import { DelayedTimelineCompact } from '@/components/delayed/delayed-compact';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { LevelsTable } from '@/components/queues/levels-table';
import { DelayedJobsTable, NextJobsTable, QueueFailedTable } from '@/components/queues/queue-job-tables';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import type { QueueDetail } from '@/lib/queries/queue-detail';
import type { HistoryRange } from '@/lib/queries/throughput';
import { queueDetailQuery } from '@/lib/queries/queue-detail';
import { failedOfQueueHref, overviewHref } from '@/lib/routes';

const LEVELS = 'Priority levels';
const NEXT = 'Next jobs to run';
const DELAYED = 'Delayed jobs, due soonest';
const FAILED = 'Latest failed jobs';

function BackToQueues() {
  return (
    <p className="text-sm">
      <Link href={overviewHref} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
        <span aria-hidden="true">← </span>All queues
      </Link>
    </p>
  );
}

function Heading({ name }: { name: string }) {
  return (
    <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
      Queue <span className="font-mono">{name}</span>
    </h1>
  );
}

/** Nothing ready, delayed, reserved or failed under this name: it may never have existed, or its jobs have all completed. */
function hasNothing(detail: QueueDetail): boolean {
  return (
    detail.counts.total === 0 &&
    detail.counts.error === undefined &&
    detail.failed.length === 0 &&
    detail.levels.every((level) => level.length === 0 && level.error === undefined)
  );
}

/** One queue, live: counts, priority levels, the next jobs, the delayed ones due soonest and its latest failures. */
export function QueueDetailView({ name, chartRange }: { name: string; chartRange: HistoryRange }) {
  const view = useLiveQuery(queueDetailQuery(name));
  const detail = view.data;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <BackToQueues />
        <Heading name={name} />
      </div>
      <LiveErrorBanner title="Cannot read this queue" view={view} />
      {detail === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the queue…</p>
      ) : hasNothing(detail) ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">This queue has no jobs.</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            Nothing is ready, delayed, reserved or failed under this name. Either every job it had has completed, or no job was ever
            pushed to it: queue names are exact, so check the spelling.
          </p>
        </div>
      ) : (
        <QueueBody detail={detail} chartRange={chartRange} />
      )}
    </div>
  );
}

function levelsDescription({ levels, levelCount }: QueueDetail): ReactNode {
  const shown = levelCount > levels.length ? ` The highest ${formatCount(levels.length)} of its ${formatCount(levelCount)} levels are shown.` : '';
  return (
    <>
      One line of waiting jobs per <GlossaryLink term="level">priority level</GlossaryLink> (a Redis stream); workers take from the highest
      level first.{shown}
    </>
  );
}

/**
 * Why no job waits in a level while the Pending figure above says some are
 * pending: that figure counts due delayed jobs too, which wait for a worker to
 * move them in. Said here so the two figures agree.
 */
function nothingWaiting(pending: number | undefined): ReactNode {
  if (pending === undefined || pending === 0) return 'No job is waiting to run.';
  const one = pending === 1;
  return (
    <>
      No job waits in a level: the {formatCount(pending)} <GlossaryLink term="pending">pending</GlossaryLink> {one ? 'is a' : 'are all'}{' '}
      <GlossaryLink term="due">due</GlossaryLink> delayed {one ? 'job' : 'jobs'}, moved into {one ? 'its level' : 'their levels'} when a
      worker next takes a job from this queue.
    </>
  );
}

function QueueBody({ detail, chartRange }: { detail: QueueDetail; chartRange: HistoryRange }) {
  const { counts, now } = detail;
  return (
    <>
      {counts.error === undefined ? (
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Stat label="Pending" value={counts.pending} />
          <Stat label="Delayed" value={counts.delayed} />
          <Stat label="Reserved" value={counts.reserved} />
          <Stat label="Total" value={counts.total} />
        </div>
      ) : (
        <Banner title="Cannot count this queue's jobs">{counts.error}</Banner>
      )}

      <QueueThroughput queue={detail.queue} initialRange={chartRange} />

      <Section title={LEVELS} description={levelsDescription(detail)}>
        {detail.levels.length > 0 ? (
          <LevelsTable label={LEVELS} levels={detail.levels} />
        ) : (
          <EmptyList>No priority levels: no job of this queue has waited in a level yet.</EmptyList>
        )}
      </Section>

      <Section title={NEXT} description="Not handed to a worker yet, in the order workers take them: highest level first, then oldest first.">
        {detail.nextJobs.length > 0 ? (
          <NextJobsTable label={NEXT} jobs={detail.nextJobs} now={now} />
        ) : (
          <EmptyList>{nothingWaiting(counts.error === undefined ? counts.pending : undefined)}</EmptyList>
        )}
      </Section>

      <DelayedTimelineCompact queue={detail.queue} />

      <Section title={DELAYED} description="A delayed job moves into its level once it is due and a worker takes a job from this queue.">
        {detail.delayedSoonest.length > 0 ? (
          <DelayedJobsTable label={DELAYED} jobs={detail.delayedSoonest} now={now} />
        ) : (
          <EmptyList>No delayed jobs.</EmptyList>
        )}
      </Section>

      <Section
        title={FAILED}
        actions={
          <Link href={failedOfQueueHref(detail.queue)} className="text-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
            All failed jobs of this queue<span aria-hidden="true"> →</span>
          </Link>
        }
        description={`Among the newest ${formatCount(detail.failedScanLimit)} failed jobs of every queue.`}
      >
        {detail.failed.length > 0 ? (
          <QueueFailedTable label={FAILED} jobs={detail.failed} now={now} />
        ) : (
          <EmptyList>No failed jobs of this queue.</EmptyList>
        )}
      </Section>
    </>
  );
}

/** A /queues/ address that queueHref did not write: its segment is not valid percent-encoding. */
export function NotAQueueName({ segment }: { segment: string }) {
  return (
    <div className="space-y-4">
      <BackToQueues />
      <h1 className="text-2xl font-semibold tracking-tight">Not a queue name</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
        <span className="font-mono">{segment}</span> is not a percent-encoded name. Open a queue from the overview instead.
      </p>
    </div>
  );
}
