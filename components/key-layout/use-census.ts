'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchApi } from '@/lib/queries/api';
import { addStep, IDLE, type Census, type TallyStep } from './census-tally';

export type { Census };

/** Where a census's steps come from: the API path of the step from `cursor`, and the step as tallies. */
export interface CensusSource<Step extends { cursor: string; done: boolean }> {
  path(cursor: string): string;
  tally(step: Step): TallyStep;
}

/**
 * A census of the layout's keys, run on demand: one bounded SCAN step per
 * request, the cursor carried from each answer to the next request, so
 * Redis is never held for long and the page shows progress. `cancel` stops
 * before the next step.
 */
export function useCensus<Step extends { cursor: string; done: boolean }>(source: CensusSource<Step>) {
  const [census, setCensus] = useState<Census>(IDLE);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(() => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setCensus({ ...IDLE, state: 'running' });
    void (async () => {
      let cursor = '0';
      for (;;) {
        try {
          const result = await fetchApi<Step>(source.path(cursor), abort.signal);
          if (abort.signal.aborted) return;
          if (!result.ok) return setCensus((current) => ({ ...current, state: 'failed', error: result.error }));
          const step = result.data;
          setCensus((current) => addStep(current, source.tally(step)));
          if (step.done) return;
          cursor = step.cursor;
        } catch (error) {
          if (abort.signal.aborted) return;
          return setCensus((current) => ({ ...current, state: 'failed', error: error instanceof Error ? error.message : String(error) }));
        }
      }
    })();
  }, [source]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setCensus((current) => (current.state === 'running' ? { ...current, state: 'cancelled' } : current));
  }, []);

  return { census, start, cancel };
}
