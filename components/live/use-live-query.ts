'use client';

import { useQuery } from '@tanstack/react-query';
import type { LiveQueryOptions } from '@/lib/queries/live';
import { usePollInterval } from './use-poll-interval';

/** A live resource as a page renders it. */
export interface LiveQueryView<T> {
  /** the last data read; kept while later reads fail */
  data: T | undefined;
  /** why the latest read gave nothing new, fit to show; null when it did */
  error: string | null;
  /** when `data` was read, ms since the epoch */
  readAt: number | null;
  /** no data and no answer yet: the one moment a page may show a placeholder */
  isLoading: boolean;
}

/**
 * Reads a live query (see lib/queries/live.ts) and polls it at the
 * operator's interval, paused while the tab is hidden. Only reads: toasts,
 * confirmations and actions belong to the components that use it.
 */
export function useLiveQuery<T>(options: LiveQueryOptions<T>): LiveQueryView<T> {
  const refetchInterval = usePollInterval();
  // "Off" freezes the page for reading: no refresh on focus or reconnect either.
  const frozen = refetchInterval === false && { refetchOnWindowFocus: false, refetchOnReconnect: false };
  const query = useQuery({ ...options, ...frozen, refetchInterval });
  return {
    data: query.data?.data,
    // query.error: the request got no answer at all (lib/queries/api.ts).
    error: query.error?.message ?? query.data?.error ?? null,
    readAt: query.data?.readAt ?? null,
    isLoading: query.isPending,
  };
}
