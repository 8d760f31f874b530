'use client';

import { QueuePickerField } from '@/components/queues/queue-picker';
import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import type { FailedFilter } from '@/lib/queries/failed';
import { failedHref } from '@/lib/routes';

const TEXT_FIELDS = [
  { name: 'name', label: 'Job name contains' },
  { name: 'error', label: 'Error contains' },
] as const;

/**
 * The filter lives in the URL (`/failed?queue=…&name=…&error=…`), so a search
 * can be shared and survives a reload. The queue is picked among the
 * registered queues (`queues`), as on the reservations page.
 */
export function FailedFilterForm({ filter, queues }: { filter: FailedFilter; queues: readonly string[] }) {
  return (
    <UrlFilterForm label="Filter failed jobs" submitLabel="Search" filtered={Boolean(filter.queue || filter.name || filter.error)} path={failedHref}>
      <QueuePickerField queues={queues} queue={filter.queue ?? null} />
      {TEXT_FIELDS.map(({ name, label }) => (
        <FilterField key={name} label={label}>
          {(id) => <input id={id} name={name} defaultValue={filter[name] ?? ''} key={filter[name] ?? ''} maxLength={1000} className={`${FILTER_INPUT} w-48`} />}
        </FilterField>
      ))}
    </UrlFilterForm>
  );
}
