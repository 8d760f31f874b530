'use client';

import { useCallback, useRef, useState } from 'react';
import type { ActionResult } from '@/lib/server/action';

export interface DoctorCheck<F> {
  findings: F[];
  /** the check's id on the server, once its first step answered */
  run: string | null;
  running: boolean;
  /** a check ran to its end */
  done: boolean;
  cancelled: boolean;
  progress: string;
  error: string | null;
  /** findings taken off the list since the check ran (repaired, or no longer broken) */
  resolved: number;
  /** findings the server counted but did not keep to list */
  notKept: number;
}

/** What one step of a check answers: the findings it adds, and where to go on from. */
type StepResult<F> = ActionResult<{ run: string; progress: string; findings: F[]; done: boolean; notKept?: number }>;

function idle<F>(): DoctorCheck<F> {
  return { findings: [], run: null, running: false, done: false, cancelled: false, progress: '', error: null, resolved: 0, notKept: 0 };
}

/**
 * Runs a check as a sequence of server actions, one bounded step each, so
 * that no request holds Redis or the server for long and the page shows
 * progress between steps. `cancel` stops before the next step; `resolve`
 * takes findings off the list once they were repaired.
 */
export function useSteppedCheck<F>(step: (run: string | null) => Promise<StepResult<F>>, idOf: (finding: F) => string, firstProgress: string) {
  const [check, setCheck] = useState<DoctorCheck<F>>(idle);
  const generation = useRef(0);

  const run = useCallback(async () => {
    const mine = ++generation.current;
    const found = new Map<string, F>();
    let run: string | null = null;
    setCheck({ ...idle<F>(), running: true, progress: firstProgress });
    for (;;) {
      const result: StepResult<F> = await step(run).catch((error: unknown) => ({
        ok: false as const,
        error: error instanceof Error ? error.message : String(error),
      }));
      if (generation.current !== mine) return;
      if (!result.ok) {
        setCheck((current) => ({ ...current, running: false, error: result.error }));
        return;
      }
      for (const finding of result.findings) found.set(idOf(finding), finding);
      run = result.run;
      const notKept = result.notKept ?? 0;
      setCheck((current) => ({
        ...current,
        run: result.run,
        findings: [...found.values()],
        notKept: current.notKept + notKept,
        progress: result.progress,
        running: !result.done,
        done: result.done,
      }));
      if (result.done) return;
    }
  }, [step, idOf, firstProgress]);

  const cancel = useCallback(() => {
    generation.current += 1;
    setCheck((current) => ({ ...current, running: false, cancelled: true }));
  }, []);

  const resolve = useCallback(
    (ids: ReadonlySet<string>) => {
      setCheck((current) => {
        const findings = current.findings.filter((finding) => !ids.has(idOf(finding)));
        return { ...current, findings, resolved: current.resolved + current.findings.length - findings.length };
      });
    },
    [idOf],
  );

  return { check, run, cancel, resolve };
}
