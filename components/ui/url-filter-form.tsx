'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useId, type ReactNode } from 'react';

/**
 * A search form whose fields become the page's query string on submit (empty
 * ones left out), so a filtered view can be shared and survives a reload.
 * `submitLabel` names its button; while `filtered`, a second one clears it.
 */
export function UrlFilterForm({
  label,
  path,
  submitLabel,
  filtered,
  children,
}: {
  label: string;
  path: Route;
  submitLabel: string;
  filtered: boolean;
  children: ReactNode;
}) {
  const router = useRouter();
  return (
    <form
      role="search"
      aria-label={label}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const params = new URLSearchParams();
        for (const [name, value] of new FormData(event.currentTarget)) {
          if (typeof value === 'string' && value.trim() !== '') params.set(name, value.trim());
        }
        router.push(`${path}${params.size > 0 ? `?${params}` : ''}` as Route);
      }}
    >
      {children}
      <button type="submit" className="button-primary">
        {submitLabel}
      </button>
      {filtered && (
        <button type="button" className="button-secondary" onClick={() => router.push(path)}>
          Clear filter
        </button>
      )}
    </form>
  );
}

/** The look of a filter form's inputs and selects. */
export const FILTER_INPUT = 'rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-800';

/** One labelled field of a filter form; `children` renders the control with the id its label points at. */
export function FilterField({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
