'use client';

import { FILTER_INPUT, FilterField, UrlFilterForm } from '@/components/ui/url-filter-form';
import { reservationsHref } from '@/lib/routes';

/**
 * The queue filter, a picker of the registered queues, in the URL
 * (`/reservations?queue=…`); choosing another starts again at the first page.
 * A queue in the URL that is not registered is offered too, so the picker
 * always says what is shown.
 */
export function ReservationsFilter({ queues, queue }: { queues: readonly string[]; queue: string | null }) {
  const choices = queue !== null && !queues.includes(queue) ? [queue, ...queues] : queues;
  return (
    <UrlFilterForm label="Filter reservations" submitLabel="Show" filtered={queue !== null} path={reservationsHref}>
      <FilterField label="Queue">
        {(id) => (
          <select id={id} name="queue" defaultValue={queue ?? ''} key={queue ?? ''} className={`${FILTER_INPUT} max-w-72`}>
            <option value="">All queues</option>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </FilterField>
    </UrlFilterForm>
  );
}
