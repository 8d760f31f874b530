import { formatCount } from '@/components/ui/format-count';
import type { QueueStats } from '@/lib/queue/redis-queue';

type Count = 'pending' | 'delayed' | 'reserved' | 'total';

const COLUMNS: readonly { key: Count; label: string }[] = [
  { key: 'pending', label: 'Pending' },
  { key: 'delayed', label: 'Delayed' },
  { key: 'reserved', label: 'Reserved' },
  { key: 'total', label: 'Total' },
];

function sumOf(rows: readonly QueueStats[], key: Count): number {
  return rows.reduce((sum, row) => sum + row[key], 0);
}

/** Jobs per queue as stats() reports them, with a row of totals. */
export function QueuesTable({ rows }: { rows: readonly QueueStats[] }) {
  return (
    <table className="w-full border border-zinc-200 bg-white text-sm">
      <caption className="mb-2 text-left text-base font-semibold">Jobs per queue</caption>
      <thead className="bg-zinc-100 text-zinc-600">
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
      <tbody className="divide-y divide-zinc-100">
        {rows.map((row) => (
          <tr key={row.queue}>
            <th scope="row" className="px-4 py-2 text-left font-mono font-normal">
              {row.queue}
            </th>
            {COLUMNS.map(({ key }) => (
              <td key={key} className="px-4 py-2 text-right tabular-nums">
                {formatCount(row[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t border-zinc-200 font-semibold">
        <tr>
          <th scope="row" className="px-4 py-2 text-left">
            All queues
          </th>
          {COLUMNS.map(({ key }) => (
            <td key={key} className="px-4 py-2 text-right tabular-nums">
              {formatCount(sumOf(rows, key))}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}
