'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
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
 *
 * The result stays live without re-reading the whole set on every poll:
 * failures arrive at the newest end, so whenever `newestFailure` (the
 * newest failure a poll saw, as a key) changes after the search, the first
 * chunk (the newest 2,000) is searched again and the matches not listed yet
 * are counted in `arrived`, not inserted, so rows hold still under the
 * pointer and a selection until `showArrived` puts them on top.
 */
export function useFailedSearch(filter: FailedFilter | null, newestFailure: string | null) {
  const [search, setSearch] = useState<FailedSearch>(IDLE);
  const [arrivals, setArrivals] = useState<FailedRowView[]>([]);
  const [generation, setGeneration] = useState(0);
  const [controller, setController] = useState<AbortController | null>(null);
  const filterKey = filter === null ? null : JSON.stringify(filter);
  // The newest failure the search or the latest look at the newest end has covered; the newest poll, for when a search starts.
  const covered = useRef<string | null>(null);
  const latestNewest = useRef(newestFailure);
  const listed = useRef<readonly FailedRowView[]>([]);
  useEffect(() => {
    latestNewest.current = newestFailure;
    listed.current = [...search.matches, ...arrivals];
  });

  useEffect(() => {
    setArrivals([]);
    if (filterKey === null) {
      setSearch(IDLE);
      return;
    }
    const parsed = JSON.parse(filterKey) as FailedFilter;
    const abort = new AbortController();
    // A failure newer than this arrived after the search began, perhaps ahead of where it was reading.
    covered.current = latestNewest.current;
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

  const settled = filterKey !== null && !search.running && search.error === null && !search.cancelled && search.readAt > 0;
  useEffect(() => {
    if (!settled || filterKey === null || newestFailure === null || newestFailure === covered.current) return;
    covered.current = newestFailure;
    const abort = new AbortController();
    void (async () => {
      try {
        const result = await fetchApi<FailedSearchChunk>(failedSearchPath(JSON.parse(filterKey) as FailedFilter, 0), abort.signal);
        if (!result.ok) return;
        setArrivals((current) => {
          const known = new Set(listed.current.map((row) => row.id));
          const fresh = result.data.matches.filter((row) => !known.has(row.id));
          return fresh.length === 0 ? current : [...fresh, ...current];
        });
      } catch {
        // A look that got no answer is tried again at the next new failure; the search's own result still stands.
        if (!abort.signal.aborted) covered.current = null;
      }
    })();
    return () => abort.abort();
  }, [settled, filterKey, newestFailure]);

  const showArrived = useCallback(() => {
    setSearch((current) => ({ ...current, matches: [...arrivals, ...current.matches].slice(0, SEARCH_MATCH_CAP) }));
    setArrivals([]);
  }, [arrivals]);
  const cancel = useCallback(() => controller?.abort(), [controller]);
  const restart = useCallback(() => setGeneration((value) => value + 1), []);
  return { search, arrived: arrivals.length, showArrived, cancel, restart };
}
