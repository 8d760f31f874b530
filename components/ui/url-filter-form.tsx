'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';

/**
 * A search form whose fields become the page's query string on submit (empty
 * ones left out), so a filtered view can be shared and survives a reload.
 */
export function UrlFilterForm({ label, path, children }: { label: string; path: Route; children: ReactNode }) {
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
    </form>
  );
}
