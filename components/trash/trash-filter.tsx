'use client';

import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import { trashHref } from '@/lib/routes';
import { isTrashFiltered, TRASHED_FROM, type TrashFilter } from '@/lib/shapes/trash';

/** The trash's filter, in the URL (`/trash?queue=…&from=…&who=…`): a filtered view can be pasted to a colleague. */
export function TrashFilterForm({ filter }: { filter: TrashFilter }) {
  return (
    <UrlFilterForm label="Filter the trash" submitLabel="Show" filtered={isTrashFiltered(filter)} path={trashHref}>
      <FilterField label="Queue name contains">
        {(id) => <input id={id} name="queue" type="search" defaultValue={filter.queue} className={FILTER_INPUT} />}
      </FilterField>
      <FilterField label="Taken from">
        {(id) => (
          <select id={id} name="from" defaultValue={filter.from} className={FILTER_INPUT}>
            <option value="">anywhere</option>
            {TRASHED_FROM.map((from) => (
              <option key={from} value={from}>
                {from === 'failed' ? 'failed jobs' : `${from} jobs`}
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <FilterField label="By (operator name contains)">
        {(id) => <input id={id} name="who" type="search" defaultValue={filter.who} className={FILTER_INPUT} />}
      </FilterField>
    </UrlFilterForm>
  );
}
