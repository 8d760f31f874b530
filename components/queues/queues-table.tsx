import Link from 'next/link';
import { formatCount } from '@/components/ui/format-count';
import { ScrollX } from '@/components/ui/scroll-x';
import type { QueueStats } from '@/lib/queue/redis-queue';
import { queueHref } from '@/lib/routes';

type Count = 'pending' | 'delayed' | 'reserved' | 'total';

const COLUMNS: readonly { key: Count; label: string }[] = [
  { key: 'pending', label: 'Pending' },
  { key: 'delayed', label: 'Delayed' },
  { key: 'reserved', label: 'Reserved' },
  { key: 'total', label: 'Total' },
];

const CAPTION = 'Jobs per queue';

/** One column's total over every queue. */
export function sumOf(rows: readonly QueueStats[], key: Count): number {
  return rows.reduce((sum, row) => sum + row[key], 0);
}

/**
 * Jobs per queue as stats() reports them, with a row of totals. A queue
 * whose keys could not be read shows why instead of counts. Queue names are
 * whatever the producers wrote and render as text.
 */
export function QueuesTable({ rows }: { rows: readonly QueueStats[] }) {
  return (
    <ScrollX label={CAPTION}>
      <table className="w-full min-w-[32rem] text-sm">
        <caption className="px-4 pt-3 pb-2 text-left text-base font-semibold">{CAPTION}</caption>
        <thead className="bg-zinc-100 text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>
            <th scope="col" className="px-4 py-2 text-left font-medium">
              Queue
            </th>
            {COLUMNS.map(({ key, label }) => (
              <th key={key} scope="col" className="px-4 py-2 text-right font-medium">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.queue}>
              <th scope="row" className="px-4 py-2 text-left font-normal [overflow-wrap:anywhere]">
                <Link href={queueHref(row.queue)} className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                  {row.queue}
                </Link>
                {row.error !== undefined && <p className="mt-1 text-xs text-red-700 dark:text-red-400">{row.error}</p>}
              </th>
              {COLUMNS.map(({ key }) => (
                <td key={key} className="px-4 py-2 text-right whitespace-nowrap tabular-nums">
                  {row.error === undefined ? (
                    formatCount(row[key])
                  ) : (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">unknown</span>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-zinc-200 font-semibold dark:border-zinc-800">
          <tr>
            <th scope="row" className="px-4 py-2 text-left">
              All queues
            </th>
            {COLUMNS.map(({ key }) => (
              <td key={key} className="px-4 py-2 text-right whitespace-nowrap tabular-nums">
                {formatCount(sumOf(rows, key))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </ScrollX>
  );
}
