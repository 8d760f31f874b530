'use client';

import { useCallback, useRef, useState } from 'react';

/** A bulk action while it runs: what it is doing and how far it got. */
export interface BulkProgress {
  label: string;
  done: number;
  /** the preview's count; the bar is done/total */
  total: number;
}

/** One bounded step's outcome: how many jobs it handled, and whether nothing is left. */
export type BulkStep = { ok: true; handled: number; finished: boolean } | { ok: false; error: string };

export interface BulkOutcome {
  handled: number;
  cancelled: boolean;
  error?: string;
}

/**
 * Runs a bulk action as a sequence of small server calls (each one atomic
 * script over a bounded batch), so that a hundred thousand jobs never hold
 * Redis for more than a few milliseconds at a time, progress shows between
 * steps, and Cancel stops before the next one.
 */
export function useBulkRun() {
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const cancelRequested = useRef(false);

  const run = useCallback(async (label: string, total: number, step: () => Promise<BulkStep>): Promise<BulkOutcome> => {
    cancelRequested.current = false;
    let handled = 0;
    setProgress({ label, done: 0, total });
    try {
      // Bounded too: a step that handles nothing, or jobs failing again
      // while it runs, cannot keep the loop going past the preview.
      for (let steps = 0; steps <= total; steps++) {
        if (cancelRequested.current) return { handled, cancelled: true };
        const outcome = await step();
        if (!outcome.ok) return { handled, cancelled: false, error: outcome.error };
        handled += outcome.handled;
        setProgress({ label, done: Math.min(handled, total), total });
        if (outcome.finished || outcome.handled === 0 || handled >= total) break;
      }
      return { handled, cancelled: false };
    } finally {
      setProgress(null);
    }
  }, []);

  const cancel = useCallback(() => {
    cancelRequested.current = true;
  }, []);

  return { progress, run, cancel };
}
