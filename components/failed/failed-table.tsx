'use client';

import Link from 'next/link';
import { formatDuration } from '@/components/ui/format-duration';
import { ScrollX } from '@/components/ui/scroll-x';
import type { FailedRowView } from '@/lib/queries/failed';
import { jobHref, queueHref } from '@/lib/routes';
import { BeyondExactId } from '@/components/queues/job-link';

const CAPTION = 'Failed jobs, newest first';

/** Job data is whatever producers wrote: text only, and a dash where a field is missing. */
function orDash(text: string): string {
  return text === '' ? '—' : text;
}

export interface Selection {
  selected: ReadonlySet<number>;
  onSelect: (ids: readonly number[], selected: boolean) => void;
}

interface FailedTableProps {
  rows: readonly FailedRowView[];
  /** the checkboxes; none for a session that cannot act on the rows */
  selection?: Selection;
  /** the reader's clock, unix seconds, for "3 min ago" */
  now: number;
}

/** Failed jobs, with a checkbox each when they can be selected; the header checkbox selects the rows shown. */
export function FailedTable({ rows, selection, now }: FailedTableProps) {
  // Only ids a JS number holds exactly can be retried or forgotten; the others are shown, never selected.
  const ids = rows.flatMap((row) => (typeof row.id === 'number' ? [row.id] : []));
  const allShownSelected = ids.length > 0 && selection !== undefined && ids.every((id) => selection.selected.has(id));
  return (
    <ScrollX label={CAPTION}>
      {/* table-stacked: on a phone each job is a block, its error and checkbox in reach (app/globals.css). */}
      <table className="table-stacked w-full min-w-[56rem] text-sm">
        <caption className="sr-only">{CAPTION}</caption>
        <thead className="bg-zinc-100 text-left text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>
            {selection && (
              <th scope="col" className="w-10 px-3 py-2">
                <input
                  type="checkbox"
                  aria-label="Select the jobs shown"
                  checked={allShownSelected}
                  onChange={(event) => selection.onSelect(ids, event.target.checked)}
                  disabled={ids.length === 0}
                />
              </th>
            )}
            <th scope="col" className="px-3 py-2 font-medium">Id</th>
            <th scope="col" className="px-3 py-2 font-medium">Queue</th>
            <th scope="col" className="px-3 py-2 font-medium">Name</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Attempts</th>
            <th scope="col" className="px-3 py-2 font-medium">Failed at (UTC)</th>
            <th scope="col" className="px-3 py-2 font-medium">Error</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.id} className="align-top">
              {selection && (
                <td className="px-3 py-2">
                  {typeof row.id === 'number' && (
                    <input
                      type="checkbox"
                      aria-label={`Select job ${row.id}`}
                      checked={selection.selected.has(row.id)}
                      onChange={(event) => selection.onSelect([row.id as number], event.target.checked)}
                    />
                  )}
                </td>
              )}
              <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
                {typeof row.id === 'number' ? (
                  <Link href={jobHref(row.id)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-300">
                    {row.id}
                  </Link>
                ) : (
                  <BeyondExactId id={row.id} />
                )}
              </th>
              <td data-label="Queue" className="px-3 py-2 font-mono">
                {row.queue === '' ? '—' : (
                  <Link href={queueHref(row.queue)} className="underline-offset-2 hover:underline">
                    {row.queue}
                  </Link>
                )}
              </td>
              <td data-label="Name" className="max-w-[16rem] px-3 py-2 font-mono break-all">{orDash(row.name)}</td>
              <td data-label="Attempts" className="px-3 py-2 text-right tabular-nums">
                {orDash(row.attempts)}/{orDash(row.maxAttempts)}
              </td>
              <td data-label="Failed at (UTC)" className="px-3 py-2 whitespace-nowrap">
                <span className="font-mono">{orDash(row.failedAt)}</span>
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(now - row.failedAtSeconds)} ago</span>
              </td>
              <td data-label="Error" className="max-w-[28rem] px-3 py-2 font-mono text-xs break-words text-red-800 dark:text-red-300">{orDash(row.errorFirstLine)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}
