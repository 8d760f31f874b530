import type { ReactNode } from 'react';

/**
 * The frame of a wide table: on a narrow screen it scrolls sideways instead
 * of widening the page. Focusable, so a keyboard can scroll it too. Relative,
 * so a cell's screen-reader text (sr-only is position: absolute) is placed
 * inside the frame: placed against the page, it widened the page to the
 * table's width on a phone.
 */
export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative overflow-x-auto rounded-md border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      {children}
    </div>
  );
}
