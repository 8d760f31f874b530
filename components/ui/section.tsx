import { useId, type ReactNode } from 'react';

/**
 * A part of a page under its own heading; a region named by that heading, so
 * it can be found by role. `actions` sit on the heading's line (a link to
 * more, a button).
 */
export function Section({ title, description, actions, children }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {description && <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
      {children}
    </section>
  );
}

/** What a list shows when it has nothing in it. */
export function EmptyList({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed border-zinc-300 bg-white px-4 py-5 text-sm text-zinc-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-400">
      {children}
    </p>
  );
}
