'use client';

import { useRouter } from 'next/navigation';
import { useId } from 'react';
import { QueuePickerField } from '@/components/queues/queue-picker';
import { FILTER_INPUT, FilterField } from '@/components/ui/url-filter-form';
import { findSearchHref } from '@/lib/routes';
import { FIND_FIELDS, MAX_FIND_TEXT, type FindField, type FindQuery, type FindState } from '@/lib/shapes/find';

const FIELD_LABELS: Readonly<Record<FindField, string>> = {
  any: 'Anywhere',
  id: 'Job id (exact)',
  name: 'Job name or class',
  payload: 'Payload',
  error: 'Error',
};

/** The search form: its fields become the page's address on submit, so a search can be pasted to a colleague and survives a reload. */
export function FindForm({ query, queues, states }: { query: FindQuery | null; queues: readonly string[]; states: readonly FindState[] }) {
  const router = useRouter();
  const caseHelpId = useId();
  const key = JSON.stringify(query);
  return (
    <form
      role="search"
      aria-label="Find jobs"
      key={key}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const text = String(form.get('text') ?? '');
        if (text === '') return;
        const queue = String(form.get('queue') ?? '');
        router.push(
          findSearchHref({
            text,
            field: String(form.get('field') ?? 'any'),
            queue: queue === '' ? null : queue,
            states: form.getAll('states').map(String),
            ignoreCase: form.get('case') === 'ignore',
          }),
        );
      }}
    >
      <FilterField label="Text">
        {(id) => (
          <input id={id} name="text" type="search" required maxLength={MAX_FIND_TEXT} defaultValue={query?.text ?? ''} className={`${FILTER_INPUT} w-64`} />
        )}
      </FilterField>
      <div className="flex flex-col gap-1">
        <p id={caseHelpId} className="text-xs text-zinc-600 dark:text-zinc-400">
          A–Z match a–z; other letters (É, é) and ids stay exact
        </p>
        <label className="flex items-center gap-1 py-1 text-sm">
          <input type="checkbox" name="case" value="ignore" defaultChecked={query?.ignoreCase ?? false} aria-describedby={caseHelpId} />
          Ignore case
        </label>
      </div>
      <FilterField label="Look in">
        {(id) => (
          <select id={id} name="field" defaultValue={query?.field ?? 'any'} className={FILTER_INPUT}>
            {FIND_FIELDS.map((field) => (
              <option key={field} value={field}>
                {FIELD_LABELS[field]}
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <QueuePickerField queues={queues} queue={query?.queue ?? null} />
      <fieldset className="flex flex-col gap-1">
        <legend className="text-xs text-zinc-600 dark:text-zinc-400">States (none: every one)</legend>
        <div className="flex flex-wrap gap-3 py-1 text-sm">
          {states.map((state) => (
            <label key={state} className="flex items-center gap-1">
              <input type="checkbox" name="states" value={state} defaultChecked={query?.states.includes(state) ?? false} />
              {state}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="button-primary">
        Find
      </button>
    </form>
  );
}
