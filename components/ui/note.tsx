import { useId, type ReactNode } from 'react';

/** An amber note, named by its title so it can be found by role; `alert` for one that must be announced. */
export function Note({ title, children, role = 'note' }: { title: string; children: ReactNode; role?: 'note' | 'alert' }) {
  const titleId = useId();
  return (
    <div
      role={role}
      aria-labelledby={titleId}
      className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <p id={titleId} className="font-semibold">
        {title}
      </p>
      <div className="mt-1 space-y-1 text-sm">{children}</div>
    </div>
  );
}
