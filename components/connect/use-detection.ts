'use client';

import { useCallback, useRef, useState } from 'react';
import { runDetectStep } from '@/app/connect/actions';
import type { RedisLocation } from '@/lib/shapes/detect-entry';
import { emptyTally, mergeTallies, readDetection, type Detection } from '@/lib/shapes/detect-tally';
import { getTabConnection } from '@/lib/queries/tab-connection';

export interface DetectionRun {
  detection: Detection;
  location: RedisLocation | null;
  running: boolean;
  /** the walk went through the whole keyspace the pattern selects */
  done: boolean;
  stopped: boolean;
  error: string | null;
}

const IDLE: DetectionRun = { detection: readDetection(emptyTally()), location: null, running: false, done: false, stopped: false, error: null };

/**
 * Walks the tab's connection's Redis as a sequence of server actions, one
 * bounded SCAN step each, merging the steps' tallies here, so the page shows
 * what was found so far between steps. `stop` ends the walk before its next
 * step; what was found stays on screen.
 */
export function useDetection() {
  const [run, setRun] = useState<DetectionRun>(IDLE);
  const generation = useRef(0);

  const start = useCallback(async (match: string) => {
    const mine = ++generation.current;
    let tally = emptyTally();
    let cursor = '0';
    setRun({ ...IDLE, running: true });
    do {
      const result: Awaited<ReturnType<typeof runDetectStep>> = await runDetectStep({ cursor, match }, getTabConnection()).catch((error: unknown) => ({
        ok: false as const,
        error: error instanceof Error ? error.message : String(error),
      }));
      if (generation.current !== mine) return;
      if (!result.ok) {
        setRun((current) => ({ ...current, running: false, error: result.error }));
        return;
      }
      tally = mergeTallies(tally, result.tally);
      cursor = result.cursor;
      const detection = readDetection(tally);
      setRun((current) => ({ ...current, detection, location: result.location, running: cursor !== '0', done: cursor === '0' }));
    } while (cursor !== '0');
  }, []);

  const stop = useCallback(() => {
    generation.current += 1;
    setRun((current) => ({ ...current, running: false, stopped: current.running }));
  }, []);

  return { run, start, stop };
}
