'use client';

import { useRouter } from 'next/navigation';
import { useId, useSyncExternalStore } from 'react';
import { QueuePickerField } from '@/components/queues/queue-picker';
import { FILTER_INPUT, FilterField } from '@/components/ui/url-filter-form';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { findSearchHref } from '@/lib/routes';
import {
  describeRangeScope,
  FIND_FIELDS,
  MAX_FIND_TEXT,
  rangeScope,
  type FindField,
  type FindQuery,
  type FindRange,
  type FindState,
  type FindTimes,
} from '@/lib/shapes/find';

const FIELD_LABELS: Readonly<Record<FindField, string>> = {
  any: 'Anywhere',
  id: 'Job id (exact)',
  name: 'Job name or class',
  payload: 'Payload',
  error: 'Error',
};

const noChange = () => () => {};

/** One end of the time range, in the browser's time zone; `ms` undefined or null leaves it empty. */
function RangeEndField({ label, name, ms }: { label: string; name: 'from' | 'until'; ms: number | null | undefined }) {
  return (
    <FilterField label={label}>
      {(id) => <input id={id} name={name} type="datetime-local" defaultValue={localInputValue(ms)} className={FILTER_INPUT} />}
    </FilterField>
  );
}

/** Any range at all: what a range would apply to whatever its ends, for the form's hint. */
const ANY_RANGE: FindRange = { from: 0, until: null };

/** Whether this render is the browser's: a range is shown in the browser's time zone, which the server does not know. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}

/** Unix ms as a datetime-local input's value, in the browser's time zone. */
function localInputValue(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  const seconds = date.getSeconds() === 0 ? '' : `:${pad(date.getSeconds())}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}${seconds}`;
}

/** A datetime-local input's value (the browser's time zone) as Unix ms; null when empty or no time. */
function msOfLocalInput(value: FormDataEntryValue | null): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** The search form: its fields become the page's address on submit, so a search can be pasted to a colleague and survives a reload. */
export function FindForm({
  query,
  queues,
  states,
  times,
}: {
  query: FindQuery | null;
  queues: readonly string[];
  states: readonly FindState[];
  times: FindTimes;
}) {
  const router = useRouter();
  const caseHelpId = useId();
  const rangeHelpId = useId();
  const inBrowser = useInBrowser();
  const zone = inBrowser ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const timed = states.filter((state) => times[state] !== undefined);
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
        const range: FindRange = { from: msOfLocalInput(form.get('from')), until: msOfLocalInput(form.get('until')) };
        router.push(
          findSearchHref({
            text,
            field: String(form.get('field') ?? 'any'),
            queue: queue === '' ? null : queue,
            states: form.getAll('states').map(String),
            ignoreCase: form.get('case') === 'ignore',
            range,
            connection: getTabConnection(),
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
      {timed.length > 0 && (
        <fieldset className="flex flex-col gap-1" aria-describedby={rangeHelpId}>
          <legend className="text-xs text-zinc-600 dark:text-zinc-400">Time range (either end may be empty)</legend>
          {/* Remounted once in the browser: the server cannot write a time in the browser's zone. */}
          <div key={String(inBrowser)} className="flex flex-wrap items-center gap-2 text-sm">
            <RangeEndField label="From" name="from" ms={inBrowser ? query?.range?.from : undefined} />
            <RangeEndField label="Until (not included)" name="until" ms={inBrowser ? query?.range?.until : undefined} />
          </div>
          <p id={rangeHelpId} className="max-w-md text-xs text-zinc-600 dark:text-zinc-400">
            In your browser’s time{zone === null ? '' : ` (${zone})`}. {describeRangeScope(rangeScope({ states: [], range: ANY_RANGE }, states, times))}
          </p>
        </fieldset>
      )}
      <button type="submit" className="button-primary">
        Find
      </button>
    </form>
  );
}
