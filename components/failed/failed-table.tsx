'use client';

import Link from 'next/link';
import { createContext, memo, use } from 'react';
import { CopyButton } from '@/components/ui/copy-button';
import { JobName } from '@/components/ui/job-name';
import { formatDuration } from '@/components/ui/format-duration';
import { ScrollX } from '@/components/ui/scroll-x';
import type { FailedRowView } from '@/lib/queries/failed';
import { jobHref, queueHref } from '@/lib/routes';
import { BeyondExactId } from '@/components/queues/job-link';

const CAPTION = 'Failed jobs, newest first';
/** 44 px square on a phone (WCAG 2.5.5), around a checkbox drawn at its usual size. */
const THUMB_TARGET = 'max-sm:-ml-3 max-sm:inline-flex max-sm:size-11 max-sm:items-center max-sm:justify-center';

/** Job data is whatever producers wrote: text only, and a dash where a field is missing. */
function orDash(text: string): string {
  return text === '' ? '—' : text;
}

export interface Selection {
  selected: ReadonlySet<string>;
  onSelect: (rows: readonly FailedRowView[], selected: boolean) => void;
}

interface FailedTableProps {
  rows: readonly FailedRowView[];
  /** the checkboxes; none for a session that cannot act on the rows */
  selection?: Selection;
  /** the reader's clock, unix seconds, for "3 min ago" */
  now: number;
}

/**
 * The reader's clock, unix seconds, for each row's "3 min ago". A context,
 * so that a poll which changes only the clock renders those lines again and
 * not every row (FailedRow is memoized; its row keeps its identity across
 * polls while its figures hold, react-query's structural sharing).
 */
const ReaderNow = createContext(0);

function FailedAgo({ failedAtSeconds }: { failedAtSeconds: number }) {
  return <>{formatDuration(use(ReaderNow) - failedAtSeconds)} ago</>;
}

interface FailedRowProps {
  row: FailedRowView;
  /** whether its checkbox is ticked; null where the rows have no checkboxes */
  selected: boolean | null;
  onSelect: Selection['onSelect'] | undefined;
  withAttempts: boolean;
  withRetryCommands: boolean;
}

const FailedRow = memo(function FailedRow({ row, selected, onSelect, withAttempts, withRetryCommands }: FailedRowProps) {
  return (
    <tr className="align-top">
      {selected !== null && (
        <td className="px-3 py-2 max-sm:py-0">
          {row.exact && (
            // The label around it makes a thumb-sized target on a phone; the box keeps its own name.
            <label className={THUMB_TARGET}>
              <input type="checkbox" aria-label={`Select job ${row.id}`} checked={selected} onChange={(event) => onSelect?.([row], event.target.checked)} />
            </label>
          )}
        </td>
      )}
      <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
        {row.exact ? (
          <Link prefetch={false} href={jobHref(row.id)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-300">
            {row.id}
          </Link>
        ) : (
          <BeyondExactId id={row.id} />
        )}
      </th>
      <td data-label="Queue" className="px-3 py-2 font-mono">
        {row.queue === '' ? (
          '—'
        ) : (
          <Link prefetch={false} href={queueHref(row.queue)} className="underline-offset-2 hover:underline">
            {row.queue}
          </Link>
        )}
      </td>
      <td data-label="Name" className="max-w-[16rem] px-3 py-2 font-mono">
        {row.name === '' ? '—' : <JobName name={row.name} />}
      </td>
      {withAttempts && (
        <td data-label="Attempts" className="px-3 py-2 text-right tabular-nums">
          {orDash(row.attempts)}/{orDash(row.maxAttempts)}
        </td>
      )}
      <td data-label="Failed at (UTC)" data-wide="" className="px-3 py-2 whitespace-nowrap">
        <span className="font-mono">{orDash(row.failedAt)}</span>
        <span className="block text-xs text-zinc-500 max-sm:ml-2 max-sm:inline dark:text-zinc-400">
          <FailedAgo failedAtSeconds={row.failedAtSeconds} />
        </span>
      </td>
      <td data-label="Error" data-wide="" className="max-w-[28rem] px-3 py-2 font-mono text-xs break-words text-red-800 dark:text-red-300">
        {orDash(row.errorFirstLine)}
      </td>
      {withRetryCommands && (
        <td data-label="Retry where the application runs" data-wide="" className="px-3 py-2">
          {row.retryCommand !== null && (
            <span className="flex flex-col items-start gap-1">
              <code className="font-mono text-xs [overflow-wrap:anywhere]">{row.retryCommand}</code>
              <CopyButton text={row.retryCommand} label="Copy" subject={`the retry command of job ${row.id}`} />
            </span>
          )}
        </td>
      )}
    </tr>
  );
});

/**
 * Failed jobs, with a checkbox each when they can be selected; the header
 * checkbox selects the rows shown. Rows whose layout keeps no attempts show
 * no Attempts column; rows QueueLens cannot retry show the command that does.
 */
export function FailedTable({ rows, selection, now }: FailedTableProps) {
  // A row whose id is not exact is shown, never selected (see FailedRowView.exact).
  const selectable = rows.filter((row) => row.exact);
  const ids = selectable.map((row) => row.id);
  const allShownSelected = ids.length > 0 && selection !== undefined && ids.every((id) => selection.selected.has(id));
  const withAttempts = rows.some((row) => row.attempts !== '' || row.maxAttempts !== '');
  const withRetryCommands = rows.some((row) => row.retryCommand !== null);
  return (
    <ScrollX label={CAPTION}>
      {/* table-cards: on a phone each job is a card, its checkbox and id on its first line and its error in view (app/globals.css). */}
      <table className="table-cards w-full min-w-[56rem] text-sm">
        <caption className="sr-only">{CAPTION}</caption>
        <thead className="bg-zinc-100 text-left text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>
            {selection && (
              <th scope="col" className="w-10 px-3 py-2">
                <label className={THUMB_TARGET}>
                  <input
                    type="checkbox"
                    aria-label="Select the jobs shown"
                    checked={allShownSelected}
                    onChange={(event) => selection.onSelect(selectable, event.target.checked)}
                    disabled={ids.length === 0}
                  />
                </label>
              </th>
            )}
            <th scope="col" className="px-3 py-2 font-medium">
              Id
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Queue
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Name
            </th>
            {withAttempts && (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Attempts
              </th>
            )}
            <th scope="col" className="px-3 py-2 font-medium">
              Failed at (UTC)
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Error
            </th>
            {withRetryCommands && (
              <th scope="col" className="px-3 py-2 font-medium">
                Retry where the application runs
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          <ReaderNow value={now}>
            {rows.map((row) => (
              <FailedRow
                key={row.id}
                row={row}
                selected={selection === undefined ? null : selection.selected.has(row.id)}
                onSelect={selection?.onSelect}
                withAttempts={withAttempts}
                withRetryCommands={withRetryCommands}
              />
            ))}
          </ReaderNow>
        </tbody>
      </table>
    </ScrollX>
  );
}
