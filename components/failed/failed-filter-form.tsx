'use client';

import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import type { FailedFilter } from '@/lib/queries/failed';
import { failedHref } from '@/lib/routes';

const FIELDS = [
  { name: 'queue', label: 'Queue (exact)' },
  { name: 'name', label: 'Job name contains' },
  { name: 'error', label: 'Error contains' },
] as const;

/** The filter lives in the URL (`/failed?queue=…&name=…&error=…`), so a search can be shared and survives a reload. */
export function FailedFilterForm({ filter }: { filter: FailedFilter }) {
  return (
    <UrlFilterForm label="Filter failed jobs" submitLabel="Search" filtered={Boolean(filter.queue || filter.name || filter.error)} path={failedHref}>
      {FIELDS.map(({ name, label }) => (
        <FilterField key={name} label={label}>
          {(id) => <input id={id} name={name} defaultValue={filter[name] ?? ''} key={filter[name] ?? ''} maxLength={1000} className={`${FILTER_INPUT} w-48`} />}
        </FilterField>
      ))}
    </UrlFilterForm>
  );
}
