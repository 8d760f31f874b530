import Link from 'next/link';
import { useId } from 'react';
import { Sparkline } from '@/components/charts/sparkline';
import { Badge } from '@/components/ui/badge';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { Absent, Cell, DataTable, HeaderCell, RowHeaderCell } from '@/components/ui/table';
import type { OverviewQueue, OverviewTotals } from '@/lib/queries/overview';
import { glanceOf, type HistoryPoint, type ThroughputGlance } from '@/lib/queries/throughput';
import { failedHref, failedOfQueueHref, queueHref, reservationsHref, reservationsOfQueueHref } from '@/lib/routes';
import { describeCrossing } from './describe-crossing';
import { QueueMarks } from './queue-marks';

type Count = 'pending' | 'delayed' | 'reserved' | 'total';

const COLUMNS: readonly { key: Count; label: string }[] = [
  { key: 'pending', label: 'Pending' },
  { key: 'delayed', label: 'Delayed' },
  { key: 'reserved', label: 'Reserved' },
  { key: 'total', label: 'Total' },
];

const PROCESSED = 'Processed/s, 15 min';
const WAIT = 'Wait';
const MUTED = 'text-xs text-zinc-500 dark:text-zinc-400';
const FIGURE_LINK = 'text-blue-700 underline-offset-2 hover:underline dark:text-blue-400';

/** The failed-recently column's heading: its window when every queue counts over the same one, which is the usual case. */
function failedHeading(rows: readonly FailingQueue[]): { heading: string; sameWindow: boolean } {
  const windows = new Set(rows.map((row) => row.failedRecently.minutes));
  const [only] = windows;
  return windows.size === 1 && only !== undefined ? { heading: `Failed, ${only} min`, sameWindow: true } : { heading: 'Failed recently', sameWindow: false };
}

type FailingQueue = OverviewQueue & { failedRecently: NonNullable<OverviewQueue['failedRecently']> };

function failedFigure({ count, atLeast }: { count: number; atLeast: boolean }): string {
  return `${formatCount(count)}${atLeast && count > 0 ? '+' : ''}`;
}

/** The sparkline of processed/s with the latest rate beside it, and the wait where the layout samples it: the cells of a glance. A glance of no points has not been sampled yet. */
function GlanceCells({ glance, waitSampled }: { glance: ThroughputGlance; waitSampled: boolean }) {
  const latest = glance.processedPerSecond.findLast((value) => value !== null);
  const rate = latest === undefined || latest === null ? null : latest.toFixed(2);
  return (
    <>
      <Cell numeric label={PROCESSED} wide>
        {glance.processedPerSecond.length > 0 ? (
          <span className="inline-flex items-center gap-2">
            <Sparkline
              values={glance.processedPerSecond}
              label={`Processed per second over the last 15 minutes: ${rate === null ? 'no figure yet' : `${rate} per second now`}`}
            />
            {/* The same figure the sparkline's label gives a screen reader. */}
            <span aria-hidden="true" className="w-14">
              {rate === null ? '—' : `${rate}/s`}
            </span>
          </span>
        ) : (
          <span className={MUTED}>no samples yet</span>
        )}
      </Cell>
      {waitSampled && (
        <Cell numeric label={WAIT}>
          {glance.waitSeconds !== null ? (
            formatDuration(glance.waitSeconds)
          ) : glance.processedPerSecond.length > 0 ? (
            <span className={MUTED}>none waiting</span>
          ) : (
            // Without a sample the wait is unknown, not zero.
            <Absent label="not sampled yet" />
          )}
        </Cell>
      )}
    </>
  );
}

/**
 * One page of the registered queues, empty ones included, in the order
 * lib/dashboard/overview-page.ts gives (trouble first, names breaking ties
 * so that rows hold still between polls), and in its foot what every queue
 * adds up to: each queue's counts (the Reserved figure a link to its
 * reservations), its failures in its failing window (a link to its failed
 * jobs), processed/s over the last 15 minutes and how long its oldest ready
 * job has waited. A queue that needs attention is marked with what is wrong
 * and a link to the page that deals with it; one over an alert threshold
 * says which and by how much; one whose keys could not be read shows why
 * instead of counts. Queue names are whatever the producers wrote and render
 * as text. The failed and throughput columns are there only where the
 * layout can tell them (`sampled`: its throughput is sampled; `waitSampled`:
 * its samples tell the wait). On a phone each queue is a card with every
 * figure and mark in view (DataTable `cards`).
 */
export function QueuesTable({
  rows,
  totals,
  throughput,
  sampled,
  waitSampled,
  now,
}: {
  rows: readonly OverviewQueue[];
  totals: OverviewTotals;
  throughput: readonly HistoryPoint[];
  sampled: boolean;
  waitSampled: boolean;
  now: number;
}) {
  const failing = rows.every((row): row is FailingQueue => row.failedRecently !== null) ? rows : null;
  const failed = failing && failedHeading(failing);
  // Ids by position, not by name: queue names are whatever producers wrote.
  const idPrefix = useId();
  return (
    <DataTable
      label="Jobs per queue"
      captioned
      minWidthClass="min-w-[58rem]"
      cards
      head={
        <>
          <HeaderCell>Queue</HeaderCell>
          {COLUMNS.map(({ key, label }) => (
            <HeaderCell key={key} numeric>
              {label}
            </HeaderCell>
          ))}
          {failed && <HeaderCell numeric>{failed.heading}</HeaderCell>}
          {sampled && (
            <>
              <HeaderCell numeric>{PROCESSED}</HeaderCell>
              {waitSampled && <HeaderCell numeric>{WAIT}</HeaderCell>}
            </>
          )}
        </>
      }
      foot={
        <>
          <RowHeaderCell>All queues</RowHeaderCell>
          {COLUMNS.map(({ key, label }) => (
            <Cell key={key} numeric label={label}>
              {key === 'reserved' ? (
                <Link
                  prefetch={false}
                  href={reservationsHref}
                  className={FIGURE_LINK}
                  aria-label={`${formatCount(totals.reserved)} reserved in all queues: the reservations`}
                >
                  {formatCount(totals.reserved)}
                </Link>
              ) : (
                formatCount(totals[key])
              )}
            </Cell>
          ))}
          {failed && (
            <Cell numeric label={failed.heading}>
              {totals.failedRecently === null ? (
                <Absent label="unknown" />
              ) : (
                <Link prefetch={false} href={failedHref} className={FIGURE_LINK}>
                  {failedFigure(totals.failedRecently)}
                </Link>
              )}
            </Cell>
          )}
          {sampled && <GlanceCells glance={glanceOf(throughput)} waitSampled={waitSampled} />}
        </>
      }
    >
      {rows.map((row, index) => (
        <tr
          key={row.queue}
          className={row.marks.length > 0 ? 'bg-red-50/60 dark:bg-red-950/30' : row.crossed.length > 0 ? 'bg-amber-50 dark:bg-amber-950/40' : undefined}
        >
          <RowHeaderCell labelledBy={`${idPrefix}-${index}`}>
            <Link
              prefetch={false}
              id={`${idPrefix}-${index}`}
              href={queueHref(row.queue)}
              className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400"
            >
              {row.queue}
            </Link>
            {row.error !== undefined && <p className="mt-1 text-xs text-red-700 dark:text-red-400">{row.error}</p>}
            <QueueMarks queue={row.queue} marks={row.marks} now={now} />
            {row.crossed.length > 0 && (
              // Each crossing kept on one line, so a narrow column wraps between them rather than inside one.
              <p className="mt-1 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-amber-950 dark:text-amber-100">
                <Badge tone="warning">Over threshold</Badge>
                {row.crossed.map((crossing, index) => (
                  <span key={crossing.threshold} className="whitespace-nowrap">
                    {describeCrossing(crossing)}
                    {index < row.crossed.length - 1 && ','}
                  </span>
                ))}
              </p>
            )}
          </RowHeaderCell>
          {COLUMNS.map(({ key, label }) => (
            <Cell key={key} numeric label={label}>
              {row.error !== undefined ? (
                <Absent label="unknown" />
              ) : key === 'reserved' ? (
                <Link
                  prefetch={false}
                  href={reservationsOfQueueHref(row.queue)}
                  className={FIGURE_LINK}
                  aria-label={`${formatCount(row.reserved)} reserved in ${row.queue}: its reservations`}
                >
                  {formatCount(row.reserved)}
                </Link>
              ) : (
                formatCount(row[key])
              )}
            </Cell>
          ))}
          {failed && row.failedRecently && (
            <Cell numeric label={failed.heading}>
              <Link
                prefetch={false}
                href={failedOfQueueHref(row.queue)}
                className={FIGURE_LINK}
                aria-label={`${failedFigure(row.failedRecently)} failed in ${row.queue} in the last ${row.failedRecently.minutes} min: its failed jobs`}
              >
                {failedFigure(row.failedRecently)}
                {!failed.sameWindow && <span className={MUTED}> in {row.failedRecently.minutes} min</span>}
              </Link>
            </Cell>
          )}
          {sampled && <GlanceCells glance={row} waitSampled={waitSampled} />}
        </tr>
      ))}
    </DataTable>
  );
}
