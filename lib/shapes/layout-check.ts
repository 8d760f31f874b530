import type { Severity } from './doctor-kinds';

// What the doctor page of a layout-neutral doctor shows and sends back, as
// plain data the browser may hold: a finding as it is shown, named by an id,
// never the repair itself (lib/dashboard/layout-doctor-runs.ts keeps that).

/** Finding ids one repair call names at most; "repair all" sends them in batches of this. */
export const LAYOUT_REPAIRS_PER_CALL = 200;

/** A check's id, and a finding's id within it: base64url, so a forged one is refused before Redis is asked. */
export const CHECK_RUN_ID = /^[\w-]{24}$/;
export const SHOWN_FINDING_ID = /^[\w-]{22}$/;

/** A finding as the page lists it. */
export interface ShownFinding {
  /** names the finding in its check: what the browser sends to repair it */
  id: string;
  kind: string;
  /** the kind's title, shared by every finding of the kind */
  title: string;
  severity: Severity;
  subject: string;
  /** the job the finding is named by, where the layout's doctor names findings by their job (LayoutDoctor.namesJobs): the page calls it "job N" and links the job */
  job?: number;
  explanation: string;
  /** what the repair would change, or why there is none */
  repairDescription: string;
  repairable: boolean;
}

/** One step of a check as the page receives it: the findings this step kept, to add to the earlier steps'. */
export interface LayoutCheckStep {
  run: string;
  progress: string;
  findings: ShownFinding[];
  /** findings this step found beyond what a check keeps: counted, not listed */
  notKept: number;
  done: boolean;
}

/**
 * What became of one finding a repair call named: its script changed
 * something, found the condition gone (a worker or another repair got there
 * first), the finding has no repair, or the check no longer knows the id
 * (expired, repaired already, or never one of its findings).
 */
export type RepairOutcome = 'repaired' | 'gone' | 'not-repairable' | 'unknown';

export interface LayoutRepairResult {
  outcomes: { id: string; outcome: RepairOutcome }[];
}
