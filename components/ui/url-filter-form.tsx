'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';

/**
 * A search form whose fields become the page's query string on submit (empty
 * ones left out), so a filtered view can be shared and survives a reload.
 * `submitLabel` names its button; while `filtered`, a second one clears it.
 */
export function UrlFilterForm({ label, path, submitLabel, filtered, children }: { label: string; path: Route; submitLabel: string; filtered: boolean; children: ReactNode }) {
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
