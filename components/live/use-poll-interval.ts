'use client';

import { useSyncExternalStore } from 'react';
import { DEFAULT_POLL_INTERVAL, parsePollInterval, serializePollInterval, type PollInterval } from '@/lib/queries/poll-interval';

const STORAGE_KEY = 'queuelens.pollInterval';

const listeners = new Set<() => void>();
// Where the choice lives when the browser refuses storage (some private
// modes): it then lasts until the tab is reloaded.
let unstored: string | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed it: every open dashboard follows the operator's choice.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? unstored;
  } catch {
    return unstored;
  }
}

/**
 * The polling interval every live query uses: the operator's choice from the
 * header, kept in localStorage, else the configured default. The server
 * renders with the default; the stored choice takes over once hydrated.
 */
export function usePollInterval(): PollInterval {
  const stored = useSyncExternalStore(subscribe, readStored, () => null);
  return parsePollInterval(stored) ?? DEFAULT_POLL_INTERVAL;
}

export function setPollInterval(interval: PollInterval): void {
  const value = serializePollInterval(interval);
  try {
    window.localStorage.setItem(STORAGE_KEY, value);
  } catch {
    unstored = value;
  }
  for (const listener of listeners) listener();
}
