'use client';

import { FILTER_INPUT, FilterField } from '@/components/ui/url-filter-form';

/**
 * A filter form's Queue field: a picker of the registered queues, sent as
 * `queue`. A queue in the address that is not registered (a link to a
 * queue that went away) is offered too, so the picker always says what is
 * shown.
 */
export function QueuePickerField({ queues, queue }: { queues: readonly string[]; queue: string | null }) {
  const choices = queue !== null && !queues.includes(queue) ? [queue, ...queues] : queues;
  return (
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
  );
}
