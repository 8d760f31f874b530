import { useId, type ReactNode } from 'react';

/** An error the page cannot work around: an alert, named by its title, so it is announced and findable. */
export function Banner({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <div
      role="alert"
      aria-labelledby={titleId}
      className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
    >
      <p id={titleId} className="font-semibold">
        {title}
      </p>
      <p className="mt-1 text-sm break-words">{children}</p>
    </div>
  );
}
