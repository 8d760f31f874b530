'use client';

import { useId } from 'react';
import { UrlFilterForm } from '@/components/ui/url-filter-form';
import type { FailedFilter } from '@/lib/queries/failed';
import { failedHref } from '@/lib/routes';

const FIELDS = [
  { name: 'queue', label: 'Queue (exact)' },
  { name: 'name', label: 'Job name contains' },
  { name: 'error', label: 'Error contains' },
] as const;

/** The filter lives in the URL (`/failed?queue=…&name=…&error=…`), so a search can be shared and survives a reload. */
export function FailedFilterForm({ filter }: { filter: FailedFilter }) {
  const formId = useId();
  return (
    <UrlFilterForm label="Filter failed jobs" submitLabel="Search" filtered={Boolean(filter.queue || filter.name || filter.error)} path={failedHref}>
      {FIELDS.map(({ name, label }) => (
        <div key={name} className="flex flex-col gap-1">
          <label htmlFor={`${formId}-${name}`} className="text-xs text-zinc-600 dark:text-zinc-400">
            {label}
          </label>
          <input
            id={`${formId}-${name}`}
            name={name}
            defaultValue={filter[name] ?? ''}
            key={filter[name] ?? ''}
            maxLength={1000}
            className="w-48 rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-800"
          />
        </div>
      ))}
    </UrlFilterForm>
  );
}
