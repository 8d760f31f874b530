import type { Finding } from '../inspect/doctor-kinds';

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

/** A layout's consistency check and its repairs, each repair an atomic script that re-checks first. */
export interface LayoutDoctor {
  /** the whole check in bounded steps; `onProgress` gets a line after each */
  check(onProgress?: (progress: string) => void): Promise<LayoutFinding[]>;
  /** the whole check, then every repair its findings propose */
  checkAndRepair(onProgress?: (progress: string) => void): Promise<RepairReport>;
}

/**
 * A LayoutDoctor from a layout's own check and repair functions, which keep
 * their own finding and repair types: a repair only ever goes back to the
 * layout whose check proposed it.
 */
export function layoutDoctor<F extends LayoutFinding>(
  check: (onProgress?: (progress: string) => void) => Promise<F[]>,
  apply: (repairs: NonNullable<F['repair']>[]) => Promise<boolean[]>,
): LayoutDoctor {
  return {
    check,
    async checkAndRepair(onProgress) {
      const findings = await check(onProgress);
      const repairable = findings.flatMap((finding) => (finding.repair === null || finding.repair === undefined ? [] : [{ finding, repair: finding.repair }]));
      const outcomes = await apply(repairable.map(({ repair }) => repair));
      return {
        repaired: repairable.filter((_, i) => outcomes[i]).map(({ finding }) => finding),
        unchanged: repairable.filter((_, i) => !outcomes[i]).map(({ finding }) => finding),
        notRepaired: findings.filter((finding) => finding.repair === null),
      };
    },
  };
}
