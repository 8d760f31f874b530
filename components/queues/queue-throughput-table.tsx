import { Sparkline } from '@/components/charts/sparkline';
import { formatDuration } from '@/components/ui/format-duration';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { ThroughputGlance } from '@/lib/queries/throughput';

const CAPTION = 'Throughput per queue';

/** The latest figure of a sparkline's values, for its label. */
function latestRate(values: readonly (number | null)[]): string {
  const latest = values.findLast((value) => value !== null);
  return latest === undefined || latest === null ? 'no figure yet' : `${latest.toFixed(2)} per second now`;
}

/**
 * Each queue's processed/s over the last 15 minutes as a sparkline, and how
 * long its oldest ready job has waited at the latest sample: the figure that
 * says a queue is falling behind. Queue names render as text.
 */
export function QueueThroughputTable({ queues }: { queues: ThroughputGlance['queues'] }) {
  return (
    <DataTable
      label={CAPTION}
      minWidthClass="min-w-[28rem]"
      head={
        <>
          <HeaderCell>Queue</HeaderCell>
          <HeaderCell numeric>Processed/s, last 15 min</HeaderCell>
          <HeaderCell numeric>Oldest ready job waiting</HeaderCell>
        </>
      }
    >
      {queues.map((glance) => (
        <tr key={glance.queue}>
          {/* Plain text: the table above already links each queue, once. */}
          <Cell code>{glance.queue}</Cell>
          <Cell numeric>
            {glance.processedPerSecond.length > 0 ? (
              <Sparkline values={glance.processedPerSecond} label={`Processed per second over the last 15 minutes: ${latestRate(glance.processedPerSecond)}`} />
            ) : (
              <span className="text-xs text-zinc-500 dark:text-zinc-400">no samples yet</span>
            )}
          </Cell>
          <Cell numeric>{glance.waitSeconds === null ? <span className="text-zinc-500 dark:text-zinc-400">none waiting</span> : formatDuration(glance.waitSeconds)}</Cell>
        </tr>
      ))}
    </DataTable>
  );
}
