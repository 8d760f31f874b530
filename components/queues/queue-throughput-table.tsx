import { Sparkline } from '@/components/charts/sparkline';
import { formatDuration } from '@/components/ui/format-duration';
import { ScrollX } from '@/components/ui/scroll-x';
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
    <ScrollX label={CAPTION}>
      <table className="w-full min-w-[28rem] text-sm">
        <caption className="px-4 pt-3 pb-2 text-left text-base font-semibold">{CAPTION}</caption>
        <thead className="bg-zinc-100 text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>
            <th scope="col" className="px-4 py-2 text-left font-medium">
              Queue
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Processed/s, last 15 min
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Oldest ready job waiting
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {queues.map((glance) => (
            <tr key={glance.queue}>
              <th scope="row" className="px-4 py-2 text-left font-normal [overflow-wrap:anywhere]">
                {/* Plain text: the table above already links each queue, once. */}
                <span className="font-mono">{glance.queue}</span>
              </th>
              <td className="px-4 py-2 text-right">
                {glance.processedPerSecond.length > 0 ? (
                  <Sparkline values={glance.processedPerSecond} label={`Processed per second over the last 15 minutes: ${latestRate(glance.processedPerSecond)}`} />
                ) : (
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">no samples yet</span>
                )}
              </td>
              <td className="px-4 py-2 text-right whitespace-nowrap tabular-nums">
                {glance.waitSeconds === null ? <span className="text-zinc-500 dark:text-zinc-400">none waiting</span> : formatDuration(glance.waitSeconds)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}
