import Link from 'next/link';
import { Sparkline } from '@/components/charts/sparkline';
import { Badge } from '@/components/ui/badge';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { Absent, Cell, DataTable, HeaderCell, RowHeaderCell } from '@/components/ui/table';
import type { OverviewQueue } from '@/lib/queries/overview';
import { glanceOf, type HistoryPoint, type ThroughputGlance } from '@/lib/queries/throughput';
import type { QueueStats } from '@/lib/queue/redis-queue';
import { queueHref } from '@/lib/routes';
import { describeCrossing } from './describe-crossing';

type Count = 'pending' | 'delayed' | 'reserved' | 'total';

const COLUMNS: readonly { key: Count; label: string }[] = [
  { key: 'pending', label: 'Pending' },
  { key: 'delayed', label: 'Delayed' },
  { key: 'reserved', label: 'Reserved' },
  { key: 'total', label: 'Total' },
];

const MUTED = 'text-xs text-zinc-500 dark:text-zinc-400';

/** One column's total over every queue. */
export function sumOf(rows: readonly QueueStats[], key: Count): number {
  return rows.reduce((sum, row) => sum + row[key], 0);
}

/** The sparkline of processed/s with the latest rate beside it, and the wait: the two cells of a glance. A glance of no points has not been sampled yet. */
function GlanceCells({ glance }: { glance: ThroughputGlance }) {
  const latest = glance.processedPerSecond.findLast((value) => value !== null);
  const rate = latest === undefined || latest === null ? null : latest.toFixed(2);
  return (
    <>
      <Cell numeric>
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
      <Cell numeric>
        {glance.waitSeconds !== null ? (
          formatDuration(glance.waitSeconds)
        ) : glance.processedPerSecond.length > 0 ? (
          <span className={MUTED}>none waiting</span>
        ) : (
          // Without a sample the wait is unknown, not zero.
          <Absent label="not sampled yet" />
        )}
      </Cell>
    </>
  );
}

/**
 * Jobs per queue as stats() reports them, each queue's processed/s over the
 * last 15 minutes and how long its oldest ready job has waited (the figure
 * that says a queue is falling behind), with a row for every queue together
 * (`throughput`). A queue over one of its alert thresholds is marked, with
 * which one and by how much; one whose keys could not be read shows why
 * instead of counts. Queue names are whatever the producers wrote and render
 * as text.
 */
export function QueuesTable({ rows, throughput }: { rows: readonly OverviewQueue[]; throughput: readonly HistoryPoint[] }) {
  return (
    <DataTable
      label="Jobs per queue"
      captioned
      minWidthClass="min-w-[52rem]"
      head={
        <>
          <HeaderCell>Queue</HeaderCell>
          {COLUMNS.map(({ key, label }) => (
            <HeaderCell key={key} numeric>
              {label}
            </HeaderCell>
          ))}
          <HeaderCell numeric>Processed/s, 15 min</HeaderCell>
          <HeaderCell numeric>Wait</HeaderCell>
        </>
      }
      foot={
        <>
          <RowHeaderCell>All queues</RowHeaderCell>
          {COLUMNS.map(({ key }) => (
            <Cell key={key} numeric>
              {formatCount(sumOf(rows, key))}
            </Cell>
          ))}
          <GlanceCells glance={glanceOf(throughput)} />
        </>
      }
    >
      {rows.map((row) => (
        <tr key={row.queue} className={row.crossed.length > 0 ? 'bg-amber-50 dark:bg-amber-950/40' : undefined}>
          <RowHeaderCell>
            <Link href={queueHref(row.queue)} className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
              {row.queue}
            </Link>
            {row.error !== undefined && <p className="mt-1 text-xs text-red-700 dark:text-red-400">{row.error}</p>}
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
          {COLUMNS.map(({ key }) => (
            <Cell key={key} numeric>
              {row.error === undefined ? formatCount(row[key]) : <Absent label="unknown" />}
            </Cell>
          ))}
          <GlanceCells glance={row} />
        </tr>
      ))}
    </DataTable>
  );
}
