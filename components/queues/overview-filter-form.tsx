'use client';

import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import type { OverviewRequest, OverviewSort } from '@/lib/queries/overview';
import { overviewHref } from '@/lib/routes';

/** The orders an operator can pick; by name is the default, so its value is empty and the address stays bare. */
const SORT_CHOICES: readonly { value: OverviewSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'pending', label: 'Most pending' },
  { value: 'delayed', label: 'Most delayed' },
  { value: 'reserved', label: 'Most reserved' },
  { value: 'total', label: 'Most jobs' },
];

/**
 * Finds queues by name among every queue (not only the page shown) and
 * orders the rows after the ones that need attention, which always come
 * first. The choice lives in the URL (`/?q=…&sort=…`), so it can be shared.
 */
export function OverviewFilterForm({ request }: { request: OverviewRequest }) {
  return (
    <UrlFilterForm label="Find queues" submitLabel="Find" filtered={request.filter !== '' || request.sort !== 'name'} path={overviewHref}>
      <FilterField label="Queue name contains">
        {(id) => (
          <input id={id} name="q" type="search" defaultValue={request.filter} key={request.filter} maxLength={1000} className={`${FILTER_INPUT} w-56`} />
        )}
      </FilterField>
      <FilterField label="Then order by">
        {(id) => (
          <select id={id} name="sort" defaultValue={request.sort === 'name' ? '' : request.sort} key={request.sort} className={FILTER_INPUT}>
            {SORT_CHOICES.map(({ value, label }) => (
              <option key={value} value={value === 'name' ? '' : value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FilterField>
    </UrlFilterForm>
  );
}
