'use client';

import { useCallback, useEffect, useState } from 'react';
import { fetchApi } from '@/lib/queries/api';
import { failedSearchPath, SEARCH_MATCH_CAP, type FailedFilter, type FailedRowView, type FailedSearchChunk } from '@/lib/queries/failed';

export interface FailedSearch {
  matches: FailedRowView[];
  /** failed-set entries looked at so far */
  scanned: number;
  /** the failed set's size when last asked */
  total: number;
  running: boolean;
  /** stopped at SEARCH_MATCH_CAP matches */
  capped: boolean;
  cancelled: boolean;
  error: string | null;
  /** when the latest chunk arrived, ms since the epoch */
  readAt: number;
}

const IDLE: FailedSearch = { matches: [], scanned: 0, total: 0, running: false, capped: false, cancelled: false, error: null, readAt: 0 };

/**
 * Searches the failed set for `filter` (null: no search), a bounded chunk
 * per request so that every request is short and the page shows progress,
 * until the end of the set or SEARCH_MATCH_CAP matches. `restart` runs it
 * again (after a retry or a forget); `cancel` stops before the next chunk.
 */
export function useFailedSearch(filter: FailedFilter | null) {
  const [search, setSearch] = useState<FailedSearch>(IDLE);
  const [generation, setGeneration] = useState(0);
  const [controller, setController] = useState<AbortController | null>(null);
  const filterKey = filter === null ? null : JSON.stringify(filter);

  useEffect(() => {
    if (filterKey === null) {
      setSearch(IDLE);
      return;
    }
    const parsed = JSON.parse(filterKey) as FailedFilter;
    const abort = new AbortController();
    setController(abort);
    setSearch({ ...IDLE, running: true });
    void (async () => {
      let offset = 0;
      const matches: FailedRowView[] = [];
      for (;;) {
        let chunk: FailedSearchChunk;
        try {
          const result = await fetchApi<FailedSearchChunk>(failedSearchPath(parsed, offset), abort.signal);
          if (!result.ok) {
            setSearch((current) => ({ ...current, running: false, error: result.error }));
            return;
          }
          chunk = result.data;
        } catch (error) {
          if (abort.signal.aborted) return setSearch((current) => ({ ...current, running: false, cancelled: true }));
          setSearch((current) => ({ ...current, running: false, error: error instanceof Error ? error.message : String(error) }));
          return;
        }
        matches.push(...chunk.matches);
        offset = chunk.nextOffset;
        const capped = matches.length >= SEARCH_MATCH_CAP;
        const running = !chunk.done && !capped;
        setSearch((current) => ({
          ...current,
          matches: matches.slice(0, SEARCH_MATCH_CAP),
          scanned: current.scanned + chunk.scanned,
          total: chunk.total,
          capped,
          running,
          readAt: Date.now(),
        }));
        if (!running) return;
      }
    })();
    return () => abort.abort();
  }, [filterKey, generation]);

  const cancel = useCallback(() => controller?.abort(), [controller]);
  const restart = useCallback(() => setGeneration((value) => value + 1), []);
  return { search, cancel, restart };
}
