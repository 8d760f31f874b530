'use client';

import type { Route } from 'next';
import Link from 'next/link';
import { QueueThroughput } from '@/components/charts/queue-throughput';
import { JobNameAndNote, OptionalFigure, QueueJobLink } from '@/components/layouts/layout-job-cells';
import { PageLinks } from '@/components/layouts/page-links';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { formatCount } from '@/components/ui/format-count';
import { Note } from '@/components/ui/note';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { PAGE_ROWS, type LineSection, type NotInLineYet } from '@/lib/layouts/pages';
import { jobLineQuery } from '@/lib/queries/layout-pages';
import type { HistoryRange } from '@/lib/queries/throughput';
import { delayedOfQueueHref, overviewHref, queueHref, reservationsOfQueueHref } from '@/lib/routes';

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

function SectionTable({ queue, section }: { queue: string; section: LineSection }) {
  const prioritized = section.rows.some((row) => row.priority !== null);
  const timed = section.rows.some((row) => row.ttr !== undefined);
  return (
    <DataTable
      label={section.title}
      minWidthClass="min-w-[36rem]"
      head={
        <>
          <HeaderCell numeric>Place</HeaderCell>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Class</HeaderCell>
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
          {timed && <HeaderCell numeric>TTR</HeaderCell>}
        </>
      }
    >
      {section.rows.map((row) => (
        <tr key={`${row.place}-${row.id}`}>
          <Cell numeric>{row.place}</Cell>
          <Cell>
            <QueueJobLink id={row.id} queue={queue} />
          </Cell>
          <Cell>
            <JobNameAndNote name={row.name} note={row.note} />
          </Cell>
          <Cell numeric>{row.attempts}</Cell>
          {prioritized && (
            <Cell numeric>
              <OptionalFigure value={row.priority} missing="no priority" />
            </Cell>
          )}
          {timed && (
            <Cell numeric>
              <OptionalFigure value={row.ttr ?? null} unit=" s" missing="TTR not known" />
            </Cell>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * A queue's page for a layout without StaticPHP's queue detail: its waiting
 * jobs in the order they run, a page at a time, and what joins the line
 * next; live. `chartRange` is the throughput chart's range, null where the
 * layout samples no throughput.
 */
export function JobLineView({ name, page, chartRange }: { name: string; page: number; chartRange: HistoryRange | null }) {
  const view = useLiveQuery(jobLineQuery(name, page));
  const line = view.data;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link href={overviewHref} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
            <span aria-hidden="true">← </span>All queues
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          Queue <span className="font-mono">{name}</span>
        </h1>
        <p className="flex flex-wrap gap-x-4 text-sm">
          <Link href={reservationsOfQueueHref(name)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
            Its reservations<span aria-hidden="true"> →</span>
          </Link>
          <Link href={delayedOfQueueHref(name)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
            Its delayed timeline<span aria-hidden="true"> →</span>
          </Link>
        </p>
      </div>
      <LiveErrorBanner title="Cannot read this queue" view={view} />
      {line === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the queue…</p>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            {line.sections.map((section) => (
              <Stat key={section.title} label={section.title} value={section.total} />
            ))}
          </div>
          {chartRange !== null && <QueueThroughput queue={line.queue} initialRange={chartRange} />}
          {line.sections.map((section, index) => (
            <Section key={section.title} title={section.title} description={section.description}>
              {index === 0 && line.notInLineYet && <NotInLineYetNote queue={line.queue} notInLineYet={line.notInLineYet} />}
              {section.rows.length > 0 ? <SectionTable queue={line.queue} section={section} /> : <EmptyList>{section.total > 0 ? 'No rows on this page.' : 'No job is waiting.'}</EmptyList>}
            </Section>
          ))}
          <PageLinks label="Pages of the line" page={page} pageRows={PAGE_ROWS} total={Math.max(...line.sections.map((section) => section.total))} hrefOf={(target) => linePageHref(name, target)} />
        </>
      )}
    </div>
  );
}
