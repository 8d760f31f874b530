'use client';

import { useCallback, useRef, useState } from 'react';
import { runDoctorStep } from '@/app/doctor/actions';
import { describeProgress, findingId, startDoctor, type Finding } from '@/lib/inspect/doctor-kinds';
import { getTabConnection } from '@/lib/queries/tab-connection';

export interface DoctorCheck {
  findings: Finding[];
  running: boolean;
  /** a check ran to its end */
  done: boolean;
  cancelled: boolean;
  progress: string;
  error: string | null;
  /** findings taken off the list since the check ran (repaired, or no longer broken) */
  resolved: number;
}

const IDLE: DoctorCheck = { findings: [], running: false, done: false, cancelled: false, progress: '', error: null, resolved: 0 };

/**
 * Runs the doctor's check as a sequence of server actions, one bounded step
 * each, so that no request holds Redis or the server for long and the page
 * shows progress between steps. `cancel` stops before the next step;
 * `resolve` takes findings off the list once they were repaired.
 */
export function useDoctorCheck() {
  const [check, setCheck] = useState<DoctorCheck>(IDLE);
  const generation = useRef(0);

  const run = useCallback(async () => {
    const mine = ++generation.current;
    const found = new Map<string, Finding>();
    let run: string | null = null;
    setCheck({ ...IDLE, running: true, progress: describeProgress(startDoctor()) });
    for (;;) {
      const result: Awaited<ReturnType<typeof runDoctorStep>> = await runDoctorStep({ run }, getTabConnection()).catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }));
      if (generation.current !== mine) return;
      if (!result.ok) {
        setCheck((current) => ({ ...current, running: false, error: result.error }));
        return;
      }
      for (const finding of result.findings) found.set(findingId(finding), finding);
      run = result.run;
      setCheck((current) => ({ ...current, findings: [...found.values()], progress: result.progress, running: !result.done, done: result.done }));
      if (result.done) return;
    }
  }, []);

  const cancel = useCallback(() => {
    generation.current += 1;
    setCheck((current) => ({ ...current, running: false, cancelled: true }));
  }, []);

  const resolve = useCallback((ids: ReadonlySet<string>) => {
    setCheck((current) => {
      const findings = current.findings.filter((finding) => !ids.has(findingId(finding)));
      return { ...current, findings, resolved: current.resolved + current.findings.length - findings.length };
    });
  }, []);

  return { check, run, cancel, resolve };
}
