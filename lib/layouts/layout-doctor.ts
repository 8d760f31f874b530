import { findingId, type Finding, type Severity } from '../shapes/doctor-kinds';

/** A finding of any layout's doctor: the shape they share, each with its own kinds and repairs. */
export type LayoutFinding = Finding<string, unknown>;

/** What a check and repair run did with each finding. */
export interface RepairReport<F extends LayoutFinding = LayoutFinding> {
  /** findings whose repair changed something */
  repaired: F[];
  /** findings whose repair found the condition gone (a worker or another repair got there first) */
  unchanged: F[];
  /** findings that can only be reported */
  notRepaired: F[];
}

/** One bounded step of a layout's check: the state to continue from, what it found, and a progress line. */
export interface CheckStep<State = unknown> {
  state: State;
  findings: LayoutFinding[];
  done: boolean;
  progress: string;
}

/** A layout's consistency check and its repairs, each repair an atomic script that re-checks first. */
export interface LayoutDoctor {
  /** each finding kind's severity and title, for grouping a page's findings */
  readonly kinds: Readonly<Record<string, { severity: Severity; title: string }>>;
  /**
   * A finding that concerns a job is named by it ("job 5") and links to the
   * job's page (StaticPHP's, whose subjects are the job's keys); left out
   * where a finding is named by its subject (yii2's "channel.messages 5").
   */
  readonly namesJobs?: true;
  /** the whole check in bounded steps; `onProgress` gets a line after each */
  check(onProgress?: (progress: string) => void): Promise<LayoutFinding[]>;
  /** the whole check, then every repair its findings propose */
  checkAndRepair(onProgress?: (progress: string) => void): Promise<RepairReport>;
  /**
   * The state a check starts from, plain JSON data. A page that runs one
   * step per request keeps it on the server between steps (it is never
   * taken back from a browser: a step trusts it).
   */
  start(): unknown;
  /** one bounded step of the check from a state `start` or an earlier step made */
  step(state: unknown): Promise<CheckStep>;
  /** the repairs that findings of this doctor's own check propose, each re-checked by its script */
  repair(findings: readonly LayoutFinding[]): Promise<RepairReport>;
}

/** What a layout gives layoutDoctor: its stepped check and its repairs, in its own finding, repair and state types. */
export interface LayoutCheck<F extends LayoutFinding, State> {
  kinds: Readonly<Record<F['kind'], { severity: Severity; title: string }>>;
  /** see LayoutDoctor.namesJobs */
  namesJobs?: true;
  start(): State;
  step(state: State): Promise<{ state: State; findings: F[]; done: boolean; progress: string }>;
  apply(repairs: NonNullable<F['repair']>[]): Promise<boolean[]>;
}

/**
 * A LayoutDoctor from a layout's own stepped check and repair function,
 * which keep their own finding and repair types: a repair only ever goes
 * back to the layout whose check proposed it. The whole check is the steps
 * run in turn, a finding found twice (SCAN may return a key twice) kept once,
 * as first found.
 */
export function layoutDoctor<F extends LayoutFinding, State>(layout: LayoutCheck<F, State>): LayoutDoctor {
  async function check(onProgress?: (progress: string) => void): Promise<F[]> {
    let state = layout.start();
    const findings = new Map<string, F>();
    for (;;) {
      const step = await layout.step(state);
      for (const item of step.findings) if (!findings.has(findingId(item))) findings.set(findingId(item), item);
      state = step.state;
      onProgress?.(step.progress);
      if (step.done) return [...findings.values()];
    }
  }
  async function repair(findings: readonly F[]): Promise<RepairReport<F>> {
    const repairable = findings.flatMap((finding) =>
      finding.repair === null || finding.repair === undefined ? [] : [{ finding, repair: finding.repair as NonNullable<F['repair']> }],
    );
    const outcomes = repairable.length > 0 ? await layout.apply(repairable.map(({ repair }) => repair)) : [];
    return {
      repaired: repairable.filter((_, i) => outcomes[i]).map(({ finding }) => finding),
      unchanged: repairable.filter((_, i) => !outcomes[i]).map(({ finding }) => finding),
      notRepaired: findings.filter((finding) => finding.repair === null || finding.repair === undefined),
    };
  }
  return {
    kinds: layout.kinds,
    ...(layout.namesJobs ? { namesJobs: true as const } : {}),
    check,
    async checkAndRepair(onProgress) {
      return repair(await check(onProgress));
    },
    start: () => layout.start(),
    // The state is the one start or a step made, kept by the caller: see LayoutDoctor.start.
    step: (state) => layout.step(state as State),
    repair: (findings) => repair(findings as readonly F[]),
  };
}
