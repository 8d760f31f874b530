'use client';

import type { Route } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueueThroughput } from '@/components/charts/queue-throughput';
import { DelayedTimelineCompact, DueSoonest } from '@/components/delayed/delayed-compact';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import { JobIdCell, JobNameAndNote, OptionalFigure } from '@/components/layouts/layout-job-cells';
import { PageLinks } from '@/components/layouts/page-links';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { LevelsTable } from '@/components/queues/levels-table';
import { BackToQueues } from '@/components/queues/queue-heading';
import { QueueTriage } from '@/components/queues/queue-triage';
import { useChangePermission } from '@/components/shell/change-permission';
import { QueueFailedTable } from '@/components/queues/queue-job-tables';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import { Note } from '@/components/ui/note';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { sentence } from '@/components/ui/sentence';
import { PAGE_ROWS, type JobLine, type LineRepairOffer, type LineSection, type NotInLineYet } from '@/lib/layouts/pages';
import { jobLineQuery } from '@/lib/queries/layout-pages';
import type { HistoryRange } from '@/lib/queries/throughput';
import { delayedOfQueueHref, failedOfQueueHref, queueHref, reservationsOfQueueHref } from '@/lib/routes';
import { PushJob } from './push-job';
import { RemoveJobButton } from './remove-job-button';
import { RunNowAction } from './run-now';

const LEVELS = 'Priority levels';
const FAILED = 'Latest failed jobs';

function count(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** Above row 1: the jobs the driver puts ahead of it (or among its rows) on its next move, with links to where they are now. */
function NotInLineYetNote({ queue, notInLineYet }: { queue: string; notInLineYet: NotInLineYet }) {
  const { dueDelayed, expiredReservations, where } = notInLineYet;
  if (dueDelayed + expiredReservations === 0) return null;
  const link = 'underline underline-offset-2';
  return (
    <Note title="Not in the line yet">
      <p>
        {dueDelayed > 0 && (
          <Link href={delayedOfQueueHref(queue)} className={link}>
            {count(dueDelayed, 'due delayed job', 'due delayed jobs')}
          </Link>
        )}
        {dueDelayed > 0 && expiredReservations > 0 && ' and '}
        {expiredReservations > 0 && (
          <Link href={reservationsOfQueueHref(queue)} className={link}>
            {count(expiredReservations, 'expired reservation', 'expired reservations')}
          </Link>
        )}{' '}
        {dueDelayed + expiredReservations === 1 ? 'is' : 'are'} not in the line yet: {where}.
      </p>
    </Note>
  );
}

function linePageHref(queue: string, page: number): Route {
  return (page > 1 ? `${queueHref(queue)}?page=${page}` : queueHref(queue)) as Route;
}

/** What the line's pages may change, as the connection's layout and the session allow. */
interface LineChanges {
  remove: boolean;
  runNow: boolean;
}

const TOO_DEEP = 'Too deep to remove yet';

/** Above a page of rows some of which are too deep in a long list to remove: why, once (each such row says TOO_DEEP). */
function TooDeepNote({ section }: { section: LineSection }) {
  const why = section.rows.find((row) => row.unremovable !== undefined)?.unremovable;
  if (why === undefined) return null;
  return (
    <Note title={TOO_DEEP}>
      <p>{sentence(why)}.</p>
    </Note>
  );
}

function SectionTable({ line, section, changes }: { line: JobLine; section: LineSection; changes: LineChanges }) {
  const prioritized = section.rows.some((row) => row.priority !== null);
  const timed = section.rows.some((row) => row.ttr !== undefined);
  const enqueued = section.rows.some((row) => row.enqueuedAt !== undefined);
  return (
    <DataTable
      label={section.title}
      minWidthClass="min-w-[36rem]"
      stacked
      head={
        <>
          <HeaderCell numeric>Place</HeaderCell>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Class</HeaderCell>
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
          {timed && <HeaderCell numeric>TTR</HeaderCell>}
          {enqueued && <HeaderCell>Enqueued</HeaderCell>}
          {changes.remove && <HeaderCell>Actions</HeaderCell>}
        </>
      }
    >
      {section.rows.map((row) => (
        <tr key={`${row.place}-${row.id}`}>
          <Cell numeric label="Place">
            {row.place}
          </Cell>
          <Cell label="Job">
            <JobIdCell id={row.id} queue={line.queue} idNote={row.idNote} ofConnection={line.idsOfConnection} near={row.near} />
          </Cell>
          <Cell label="Class">
            <JobNameAndNote name={row.name} note={row.note} />
          </Cell>
          <Cell numeric label="Attempts">
            {row.attempts}
          </Cell>
          {prioritized && (
            <Cell numeric label="Priority">
              <OptionalFigure value={row.priority} missing="no priority" />
            </Cell>
          )}
          {timed && (
            <Cell numeric label="TTR">
              <OptionalFigure value={row.ttr ?? null} unit=" s" missing="TTR not known" />
            </Cell>
          )}
          {enqueued && <Cell label="Enqueued">{row.enqueuedAt !== undefined && <UtcMoment seconds={row.enqueuedAt / 1000} now={line.now} />}</Cell>}
          {/* An id that is not exact names no job a script could find. */}
          {changes.remove && (
            <Cell label="Actions">
              {row.idNote === undefined &&
                (row.unremovable === undefined ? (
                  <RemoveJobButton queue={line.queue} id={row.id} near={row.near} />
                ) : (
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">{TOO_DEEP}</span>
                ))}
            </Cell>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

/** Nothing ready, delayed, reserved or failed under this name, by the layout's own counts: it may never have existed, or its jobs have all completed. */
function hasNothing({ counts, latestFailed, levels }: JobLine): boolean {
  return (
    counts !== undefined &&
    counts.total === 0 &&
    counts.error === undefined &&
    (latestFailed?.rows.length ?? 0) === 0 &&
    (levels?.rows ?? []).every((level) => level.length === 0 && level.error === undefined)
  );
}

function levelsDescription({ rows, total }: NonNullable<JobLine['levels']>): ReactNode {
  const shown = total > rows.length ? ` The highest ${formatCount(rows.length)} of its ${formatCount(total)} levels are shown.` : '';
  return (
    <>
      One line of waiting jobs per <GlossaryLink term="level">priority level</GlossaryLink> (a Redis stream); workers take from the highest level first.{shown}
    </>
  );
}

/**
 * Why no job waits in the line while the Pending figure says some are
 * pending: where the layout counts it so, that figure counts due delayed
 * jobs too, which wait for a worker to move them in. Said here so the two
 * figures agree.
 */
function nothingWaiting(line: JobLine): ReactNode {
  const pending = line.counts?.error === undefined ? line.counts?.pending : undefined;
  if (pending === undefined || pending === 0) return 'No job is waiting to run.';
  const one = pending === 1;
  const into = line.levels === undefined ? 'the line' : one ? 'its level' : 'their levels';
  return (
    <>
      No job waits in {line.levels === undefined ? 'the line' : 'a level'}: the {formatCount(pending)} <GlossaryLink term="pending">pending</GlossaryLink>{' '}
      {one ? 'is a' : 'are all'} <GlossaryLink term="due">due</GlossaryLink> delayed {one ? 'job' : 'jobs'}, moved into {into} when a worker next takes a job
      from this queue.
    </>
  );
}

function Figures({ line }: { line: JobLine }) {
  const { counts } = line;
  if (counts === undefined) {
    return (
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {line.sections.map((section) => (
          <Stat key={section.title} label={section.title} value={section.total} />
        ))}
      </div>
    );
  }
  if (counts.error !== undefined) return <Banner title="Cannot count this queue's jobs">{counts.error}</Banner>;
  return (
    <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      <Stat label="Pending" value={counts.pending} />
      <Stat label="Delayed" value={counts.delayed} />
      <Stat label="Reserved" value={counts.reserved} />
      <Stat label="Total" value={counts.total} />
    </div>
  );
}

function LineBody({
  line,
  page,
  chartRange,
  delayed,
  changes,
}: {
  line: JobLine;
  page: number;
  chartRange: HistoryRange | null;
  delayed: boolean;
  changes: LineChanges;
}) {
  return (
    <>
      <Figures line={line} />
      {chartRange !== null && <QueueThroughput queue={line.queue} initialRange={chartRange} />}
      {line.levels && (
        <Section title={LEVELS} description={levelsDescription(line.levels)}>
          {line.levels.rows.length > 0 ? (
            <LevelsTable label={LEVELS} levels={line.levels.rows} />
          ) : (
            <EmptyList>No priority levels: no job of this queue has waited in a level yet.</EmptyList>
          )}
        </Section>
      )}
      {line.sections.map((section, index) => (
        <Section key={section.title} title={section.title} description={section.description}>
          {index === 0 && line.notInLineYet && <NotInLineYetNote queue={line.queue} notInLineYet={line.notInLineYet} />}
          {changes.remove && <TooDeepNote section={section} />}
          {section.rows.length > 0 ? (
            <SectionTable line={line} section={section} changes={changes} />
          ) : (
            <EmptyList>{section.total > 0 ? 'No rows on this page.' : nothingWaiting(line)}</EmptyList>
          )}
        </Section>
      ))}
      <PageLinks
        label="Pages of the line"
        page={page}
        pageRows={PAGE_ROWS}
        total={Math.max(...line.sections.map((section) => section.total))}
        hrefOf={(target) => linePageHref(line.queue, target)}
      />
      {delayed && line.delayedGlance && (
        <>
          <DelayedTimelineCompact queue={line.queue} />
          <DueSoonest queue={line.queue} actionOf={changes.runNow ? (timeline, job) => <RunNowAction timeline={timeline} job={job} /> : undefined} />
        </>
      )}
      {line.latestFailed && (
        <Section
          title={FAILED}
          actions={
            <Link href={failedOfQueueHref(line.queue)} className="text-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
              All failed jobs of this queue<span aria-hidden="true"> →</span>
            </Link>
          }
          description={`Among the newest ${formatCount(line.latestFailed.scanLimit)} failed jobs of every queue.`}
        >
          {line.latestFailed.rows.length > 0 ? (
            <QueueFailedTable label={FAILED} jobs={line.latestFailed.rows} now={line.now} />
          ) : (
            <EmptyList>No failed jobs of this queue.</EmptyList>
          )}
        </Section>
      )}
    </>
  );
}

/**
 * A queue's page on every layout, live: its waiting jobs in the order they
 * run, a page at a time, and what joins the line next; where the layout
 * tells more, its counts, its priority levels and its latest failed jobs;
 * where it has them, its throughput (`chartRange`, null where the layout
 * samples none) and a glance at its delayed jobs (`delayed`). Its trouble
 * (marks, recent failures and the way to retry them) is under its name, and
 * the repairs the layout offers (`repairs`: Remove, Run now) are on the
 * rows they change. Where QueueLens runs the layout's jobs (`pushes`), an
 * operator can push one from here.
 */
export function JobLineView({
  name,
  page,
  chartRange,
  delayed,
  pushes,
  repairs,
}: {
  name: string;
  page: number;
  chartRange: HistoryRange | null;
  delayed: boolean;
  pushes: boolean;
  repairs: LineRepairOffer;
}) {
  const view = useLiveQuery(jobLineQuery(name, page));
  const line = view.data;
  const mayChange = useChangePermission().allowed;
  const changes: LineChanges = { remove: mayChange && repairs.remove === null, runNow: mayChange && repairs.runDelayedNow === null };
  const link = 'text-blue-700 underline-offset-2 hover:underline dark:text-blue-400';
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <BackToQueues />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          Queue <span className="font-mono">{name}</span>
        </h1>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <Link href={reservationsOfQueueHref(name)} className={link}>
            Its reservations<span aria-hidden="true"> →</span>
          </Link>
          <Link href={delayedOfQueueHref(name)} className={link}>
            Its delayed timeline<span aria-hidden="true"> →</span>
          </Link>
          {pushes && mayChange && <PushJob queue={name} />}
        </div>
        <QueueTriage queue={name} />
      </div>
      <LiveErrorBanner title="Cannot read this queue" view={view} />
      {line === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the queue…</p>
      ) : hasNothing(line) ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">This queue has no jobs.</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            Nothing is ready, delayed, reserved or failed under this name. Either every job it had has completed, or no job was ever pushed to it: queue names
            are exact, so check the spelling.
          </p>
        </div>
      ) : (
        <LineBody line={line} page={page} chartRange={chartRange} delayed={delayed} changes={changes} />
      )}
    </div>
  );
}
