'use client';

import { FILTER_INPUT, FilterField } from '@/components/ui/url-filter-form';
import { QUEUE_PICKER_OPTIONS } from '@/lib/shapes/queue-picker';

/**
 * A filter form's Queue field, sent as `queue`: a picker of the registered
 * queues. With more than QUEUE_PICKER_OPTIONS of them it is a text field
 * any queue's name can be typed in, the first names suggested
 * (lib/shapes/queue-picker.ts). A queue in the address that is not
 * registered (a link to a queue that went away) is offered too, so the
 * picker always says what is shown.
 */
export function QueuePickerField({ queues, queue }: { queues: readonly string[]; queue: string | null }) {
  if (queues.length > QUEUE_PICKER_OPTIONS) return <QueueNameField suggested={queues.slice(0, QUEUE_PICKER_OPTIONS)} queue={queue} />;
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

/** The Queue field for thousands of queues: a name typed (empty for all queues), with the first names suggested. */
function QueueNameField({ suggested, queue }: { suggested: readonly string[]; queue: string | null }) {
  return (
    <FilterField label="Queue">
      {(id) => (
        <>
          <input
            id={id}
            name="queue"
            type="text"
            list={`${id}-names`}
            defaultValue={queue ?? ''}
            key={queue ?? ''}
            placeholder="All queues: type a name"
            autoComplete="off"
            spellCheck={false}
            className={`${FILTER_INPUT} w-72 max-w-full`}
          />
          <datalist id={`${id}-names`}>
            {suggested.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </>
      )}
    </FilterField>
  );
}
