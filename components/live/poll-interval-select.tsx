'use client';

import { useId } from 'react';
import { DEFAULT_POLL_INTERVAL, formatPollInterval, parsePollInterval, pollChoices, serializePollInterval } from '@/lib/queries/poll-interval';
import { setPollInterval, usePollInterval } from './use-poll-interval';

/** The operator's choice of how often live data refreshes, for every page and tab. */
export function PollIntervalSelect() {
  const id = useId();
  const interval = usePollInterval();
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-zinc-600 dark:text-zinc-400">
        Refresh
      </label>
      <select
        id={id}
        value={serializePollInterval(interval)}
        onChange={(event) => setPollInterval(parsePollInterval(event.target.value) ?? DEFAULT_POLL_INTERVAL)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {pollChoices(DEFAULT_POLL_INTERVAL, interval).map((choice) => (
          <option key={String(choice)} value={serializePollInterval(choice)}>
            {choice === false ? 'Off' : `Every ${formatPollInterval(choice)}`}
            {choice === DEFAULT_POLL_INTERVAL ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
