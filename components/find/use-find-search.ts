'use client';

import { useCallback, useEffect, useState } from 'react';
import { fetchApi } from '@/lib/queries/api';
import { findSearchParams } from '@/lib/routes';
import { FIND_MATCH_CAP, unseenMatches, type FindMatch, type FindQuery, type FindStep } from '@/lib/shapes/find';

export interface FindSearch {
  matches: FindMatch[];
  looked: number;
  about: number;
  running: boolean;
  stopped: boolean;
  capped: boolean;
  done: boolean;
  error: string | null;
}

const IDLE: FindSearch = { matches: [], looked: 0, about: 0, running: false, stopped: false, capped: false, done: false, error: null };

function stepPath(query: FindQuery, cursor: string | null): string {
  const params = findSearchParams(query);
  if (cursor !== null) params.set('cursor', cursor);
  return `/api/find?${params}`;
}

/**
 * Runs `query` (null: no search) one step per request, each with the cursor
 * the last returned, so the server holds nothing between steps: a closed
 * tab or Stop simply asks for no next step. `again` runs it anew from the
 * start.
 */
export function useFindSearch(query: FindQuery | null) {
  const [search, setSearch] = useState<FindSearch>(IDLE);
  const [controller, setController] = useState<AbortController | null>(null);
  const [runs, setRuns] = useState(0);
  const queryKey = query === null ? null : JSON.stringify(query);

  useEffect(() => {
    if (queryKey === null) {
      setSearch(IDLE);
      return;
    }
    const parsed = JSON.parse(queryKey) as FindQuery;
    const abort = new AbortController();
    setController(abort);
    setSearch({ ...IDLE, running: true });
    void (async () => {
      let cursor: string | null = null;
      const matches: FindMatch[] = [];
      const seen = new Set<string>();
      for (;;) {
        let step: FindStep;
        try {
          const result = await fetchApi<FindStep>(stepPath(parsed, cursor), abort.signal);
          if (!result.ok) return setSearch((current) => ({ ...current, running: false, error: result.error }));
          step = result.data;
        } catch (error) {
          if (abort.signal.aborted) return setSearch((current) => ({ ...current, running: false, stopped: true }));
          return setSearch((current) => ({ ...current, running: false, error: error instanceof Error ? error.message : String(error) }));
        }
        matches.push(...unseenMatches(seen, step.matches));
        cursor = step.cursor;
        const capped = matches.length >= FIND_MATCH_CAP;
        const done = cursor === null;
        const stopped = abort.signal.aborted;
        setSearch({
          matches: matches.slice(0, FIND_MATCH_CAP),
          looked: step.looked,
          about: step.about,
          running: !done && !capped && !stopped,
          stopped,
          capped,
          done,
          error: null,
        });
        if (done || capped || stopped) return;
      }
    })();
    return () => abort.abort();
  }, [queryKey, runs]);

  const stop = useCallback(() => controller?.abort(), [controller]);
  const again = useCallback(() => setRuns((count) => count + 1), []);
  return { search, stop, again };
}
