import type { ReactNode } from 'react';

/**
 * The frame of a wide table: on a narrow screen it scrolls sideways instead
 * of widening the page. Focusable, so a keyboard can scroll it too.
 */
export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto rounded-md border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      {children}
    </div>
  );
}
