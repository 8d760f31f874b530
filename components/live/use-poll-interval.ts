'use client';

import { useSyncExternalStore } from 'react';
import { DEFAULT_POLL_INTERVAL, parsePollInterval, readStoredPollInterval, storePollInterval, type PollInterval } from '@/lib/queries/poll-interval';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed it: every open dashboard follows the operator's choice.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/**
 * The polling interval every live query uses: the operator's choice from the
 * header, kept in localStorage, else the configured default. The server
 * renders with the default; the stored choice takes over once hydrated.
 */
export function usePollInterval(): PollInterval {
  const stored = useSyncExternalStore(subscribe, readStoredPollInterval, () => null);
  return parsePollInterval(stored) ?? DEFAULT_POLL_INTERVAL;
}

export function setPollInterval(interval: PollInterval): void {
  storePollInterval(interval);
  for (const listener of listeners) listener();
}
