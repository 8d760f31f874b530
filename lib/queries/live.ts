import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { fetchApi, type ApiResult } from './api';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** set by liveQueryOptions: the header's connection status watches these queries */
      live?: boolean;
    };
  }
}

/**
 * What a live query keeps in the cache. A failed read is a value here, not a
 * thrown error: the last data stays next to the reason the latest read
 * failed, so a page keeps showing its figures during an outage, a page that
 * never had any shows the reason at once (a thrown error would flip back to
 * "pending" on every retry), and the server can prefetch a failure as
 * plain JSON.
 */
export interface LiveSnapshot<T> {
  /** the last data read successfully; kept through failed reads */
  data: T | undefined;
  /** why the latest read gave no data (a QueueError message naming the server); null when it did */
  error: string | null;
  /** when `data` was read, ms since the epoch; null before the first successful read */
  readAt: number | null;
}

/** The snapshot after one more read: fresh data, or the old data with the new failure. */
export function nextSnapshot<T>(previous: LiveSnapshot<T> | undefined, result: ApiResult<T>, now: number): LiveSnapshot<T> {
  return result.ok ? { data: result.data, error: null, readAt: now } : { data: previous?.data, error: result.error, readAt: previous?.readAt ?? null };
}

/**
 * The query options of a resource read from `path` (an `app/api` route) and
 * polled. The page's server component prefetches with these same options
 * (lib/server/live.ts `prefetchLiveQuery`, reading Redis directly instead of
 * over HTTP); the client reads them with `useLiveQuery`, which adds the
 * operator's polling interval.
 */
export function liveQueryOptions<T>(queryKey: QueryKey, path: string) {
  return queryOptions({
    queryKey,
    queryFn: async ({ client, signal }): Promise<LiveSnapshot<T>> =>
      nextSnapshot(client.getQueryData<LiveSnapshot<T>>(queryKey), await fetchApi<T>(path, signal), Date.now()),
    meta: { live: true },
    // The server prefetched this a moment ago: refetching on mount would
    // read Redis twice for every page load. Polling is not held back by it.
    staleTime: 1_000,
    // Only a request that got no answer at all throws (Redis failures are
    // values and the next poll is their retry): one quick retry rides out a
    // dropped request or a QueueLens restart before the page says so.
    retry: 1,
    retryDelay: 1_000,
    // Polling stops while the tab is hidden (refetchIntervalInBackground is
    // false); coming back to the tab refreshes at once instead of showing
    // figures up to one interval old.
    refetchOnWindowFocus: true,
    // A key that changes (the next page of a list) keeps the current rows on
    // screen until the new ones arrive, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

export type LiveQueryOptions<T> = ReturnType<typeof liveQueryOptions<T>>;
