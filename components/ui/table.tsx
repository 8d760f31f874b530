import type { ReactNode } from 'react';
import { ScrollX } from './scroll-x';

/**
 * A table of rows in the dashboard's look, inside a frame that scrolls
 * sideways on a narrow screen. `label` names the table and its frame, and
 * with `captioned` is shown above it. `minWidthClass` (a literal Tailwind
 * class, such as `min-w-[36rem]`) is the width below which the frame scrolls
 * instead of squeezing the columns. `foot` is the cells of a closing row,
 * such as totals.
 *
 * `stacked`: on a phone each row becomes a block of "label value" lines
 * instead (the `table-stacked` rules in app/globals.css), for tables whose
 * rows carry actions a sideways scroll would hide; give its cells a `label`.
 *
 * `cards`: on a phone each row becomes a card instead (the `table-cards`
 * rules), its row heading across the top and its figures side by side under
 * their labels, for tables of many short figures whose every one matters at
 * a glance (the overview's queues); give its cells a `label`, and a cell
 * too wide to share a line with others (a sparkline) `wide`.
 */
export function DataTable({
  label,
  captioned = false,
  minWidthClass,
  stacked = false,
  cards = false,
  head,
  foot,
  children,
}: {
  label: string;
  captioned?: boolean;
  minWidthClass: string;
  stacked?: boolean;
  cards?: boolean;
  head: ReactNode;
  foot?: ReactNode;
  children: ReactNode;
}) {
  return (
    <ScrollX label={label}>
      <table aria-label={label} className={`w-full text-sm ${minWidthClass} ${stacked ? 'table-stacked' : ''} ${cards ? 'table-cards' : ''}`}>
        {captioned && <caption className="px-4 pt-3 pb-2 text-left text-base font-semibold">{label}</caption>}
        <thead className="bg-zinc-100 text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>{head}</tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</tbody>
        {foot && (
          <tfoot className="border-t border-zinc-200 font-semibold dark:border-zinc-800">
            <tr>{foot}</tr>
          </tfoot>
        )}
      </table>
    </ScrollX>
  );
}

export function HeaderCell({ children, numeric = false }: { children: ReactNode; numeric?: boolean }) {
  return (
    <th scope="col" className={`px-4 py-2 font-medium whitespace-nowrap ${numeric ? 'text-right' : 'text-left'}`}>
      {children}
    </th>
  );
}

/**
 * The cell that names its row (a queue), in the row's weight: normal in the
 * body, bold in the foot. `labelledBy` names it by one element inside it
 * when it holds more than the name (marks, warnings), so the name each of
 * the row's cells is announced under stays the queue's.
 */
export function RowHeaderCell({ children, labelledBy }: { children: ReactNode; labelledBy?: string }) {
  return (
    <th scope="row" aria-labelledby={labelledBy} className="px-4 py-2 text-left align-top [font-weight:inherit] [overflow-wrap:anywhere]">
      {children}
    </th>
  );
}

/**
 * A data cell; `numeric` right-aligns with figures of one width, `code` shows
 * the value as it is stored. `label` is its column's heading, shown beside
 * the value when a `stacked` or `cards` table is laid out for a phone; `wide`
 * gives the cell a card's whole width there.
 */
export function Cell({
  children,
  numeric = false,
  code = false,
  colSpan,
  label,
  wide = false,
}: {
  children: ReactNode;
  numeric?: boolean;
  code?: boolean;
  colSpan?: number;
  label?: string;
  wide?: boolean;
}) {
  const look = numeric ? 'text-right tabular-nums whitespace-nowrap' : code ? 'font-mono text-xs [overflow-wrap:anywhere]' : '[overflow-wrap:anywhere]';
  return (
    <td colSpan={colSpan} data-label={label} data-wide={wide ? '' : undefined} className={`px-4 py-2 align-top ${look}`}>
      {children}
    </td>
  );
}

/** A value the reader has no text for (a job whose hash is gone): a dash on screen, words for a screen reader. */
export function Absent({ label }: { label: string }) {
  return (
    <>
      <span aria-hidden="true" className="text-zinc-400 dark:text-zinc-500">
        —
      </span>
      <span className="sr-only">{label}</span>
    </>
  );
}
