import { CENSUS_LIST_CAP, type CensusKey, type CensusStep } from '@/lib/queries/key-layout';

/** Keys SCAN looks at per step (CENSUS_SCAN_COUNT on the server), for the rough progress figure. */
const SCAN_COUNT_PER_STEP = 1000;

export interface Census {
  state: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  error: string | null;
  steps: number;
  /** keys under the prefix seen so far (SCAN may show a key twice) */
  keys: number;
  jobs: number;
  uniques: number;
  structural: number;
  /** the first CENSUS_LIST_CAP keys named like the spec's but of another type */
  wrongType: CensusKey[];
  wrongTypeCount: number;
  /** the first CENSUS_LIST_CAP keys the driver never creates */
  strangers: CensusKey[];
  strangerCount: number;
  /** DBSIZE at the latest step: the whole database, not only the prefix */
  dbSize: number;
  /** roughly how much of the database SCAN has walked, 0..1 */
  progress: number;
}

export const IDLE: Census = {
  state: 'idle', error: null, steps: 0, keys: 0, jobs: 0, uniques: 0, structural: 0,
  wrongType: [], wrongTypeCount: 0, strangers: [], strangerCount: 0, dbSize: 0, progress: 0,
};

/** The census after one more step: counts summed, lists kept to CENSUS_LIST_CAP, progress estimated. */
export function addStep(census: Census, step: CensusStep): Census {
  const steps = census.steps + 1;
  return {
    ...census,
    state: step.done ? 'done' : 'running',
    steps,
    keys: census.keys + step.keys,
    jobs: census.jobs + step.jobs,
    uniques: census.uniques + step.uniques,
    structural: census.structural + step.structural,
    wrongType: [...census.wrongType, ...step.wrongType].slice(0, CENSUS_LIST_CAP),
    wrongTypeCount: census.wrongTypeCount + step.wrongType.length,
    strangers: [...census.strangers, ...step.strangers].slice(0, CENSUS_LIST_CAP),
    strangerCount: census.strangerCount + step.strangerCount,
    dbSize: step.dbSize,
    // SCAN visits about COUNT slots a step whatever MATCH keeps; the table's
    // size is only near DBSIZE, so this never claims to be finished early.
    progress: step.done ? 1 : Math.min(0.99, (steps * SCAN_COUNT_PER_STEP) / Math.max(step.dbSize, 1)),
  };
}

