import type { ReactNode } from 'react';

/**
 * The frame of a wide table: on a narrow screen it scrolls sideways instead
 * of widening the page. Focusable, so a keyboard can scroll it too, and so
 * named; a group rather than a region, because the section around a table
 * usually carries the same name and two landmarks must not share one.
 * `relative`: visually hidden text inside (`sr-only` is absolutely
 * positioned) is placed against this frame; otherwise it is placed against
 * the page, and hidden text in a column off the frame's edge widens the page.
 */
export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="group"
      aria-label={label}
      tabIndex={0}
      className="relative overflow-x-auto rounded-md border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      {children}
    </div>
  );
}

/**
 * What makes any box that may scroll (an error's first lines, a payload's
 * tree) reachable by keyboard: focusable, so the arrow keys scroll it, and
 * named, so what gets the focus is announced (axe's scrollable-region-focusable).
 * A group, not a region, for ScrollX's reason.
 */
export function scrollableBox(label: string) {
  return { role: 'group', 'aria-label': label, tabIndex: 0 } as const;
}
