'use client';

import { useQueryClient, type QueryCache } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { sameConnection, summarizeConnection, WAITING, type Connection, type LiveQueryState } from '@/lib/queries/connection';
import type { LiveSnapshot } from '@/lib/queries/live';

function connectionStore(cache: QueryCache) {
  let current = WAITING;
  return {
    subscribe: (listener: () => void) => cache.subscribe(listener),
    // useSyncExternalStore needs the same object back while nothing changed.
    getSnapshot: (): Connection => {
      const next = summarizeConnection(
        cache
          .getAll()
          // Live queries of the page on screen: those of pages left behind have no observer.
          .filter((query) => query.meta?.live === true && query.getObserversCount() > 0)
          .map((query): LiveQueryState => ({ data: query.state.data as LiveSnapshot<unknown> | undefined, error: query.state.error })),
      );
      if (!sameConnection(current, next)) current = next;
      return current;
    },
  };
}

/**
 * How the live data on this page is doing, from the answers its live queries
 * already got: no request of its own.
 */
export function useConnection(): Connection {
  const cache = useQueryClient().getQueryCache();
  const store = useMemo(() => connectionStore(cache), [cache]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => WAITING);
}
