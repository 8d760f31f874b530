import type { ReactNode } from 'react';
import { ScrollX } from './scroll-x';

/**
 * A table of rows in the dashboard's look, inside a frame that scrolls
 * sideways on a narrow screen. `label` names the table and its frame.
 * `minWidthClass` (a literal Tailwind class, such as `min-w-[36rem]`) is the
 * width below which the frame scrolls instead of squeezing the columns.
 */
export function DataTable({ label, minWidthClass, head, children }: { label: string; minWidthClass: string; head: ReactNode; children: ReactNode }) {
  return (
    <ScrollX label={label}>
      <table aria-label={label} className={`w-full text-sm ${minWidthClass}`}>
        <thead className="bg-zinc-100 text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
          <tr>{head}</tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</tbody>
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

/** A data cell; `numeric` right-aligns with figures of one width, `code` shows the value as it is stored. */
export function Cell({ children, numeric = false, code = false, colSpan }: { children: ReactNode; numeric?: boolean; code?: boolean; colSpan?: number }) {
  const look = numeric ? 'text-right tabular-nums whitespace-nowrap' : code ? 'font-mono text-xs [overflow-wrap:anywhere]' : '[overflow-wrap:anywhere]';
  return (
    <td colSpan={colSpan} className={`px-4 py-2 align-top ${look}`}>
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
