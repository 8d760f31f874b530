import { CENSUS_LIST_CAP } from '@/lib/queries/key-layout';

/** Keys SCAN looks at per step (TABLE_CENSUS_SCAN_KEYS on the server), for the rough progress figure. */
const SCAN_COUNT_PER_STEP = 1000;

/** A key the census lists: its name as text, and `raw` (base64url) where the name is not UTF-8 and can be opened. */
export interface ListedKey {
  key: string;
  raw?: string | null;
  type: string;
}

/** One census step in the shape every layout's census shares: keys counted by what they are to the layout. */
export interface TallyStep {
  done: boolean;
  keys: number;
  /** keys that belong to the layout, by what they are, in the order a page shows them */
  tallies: Record<string, number>;
  wrongType: ListedKey[];
  strangerCount: number;
  strangers: ListedKey[];
  dbSize: number;
  /** SCAN walks of the database the census makes in all (one per pattern); 1 when left out */
  walks?: number;
}

export interface Census {
  state: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  error: string | null;
  steps: number;
  /** keys under the patterns seen so far (SCAN may show a key twice) */
  keys: number;
  tallies: Record<string, number>;
  /** the first CENSUS_LIST_CAP keys named like the layout's but of another type */
  wrongType: ListedKey[];
  wrongTypeCount: number;
  /** the first CENSUS_LIST_CAP keys the driver never creates */
  strangers: ListedKey[];
  strangerCount: number;
  /** DBSIZE at the latest step: the whole database, not only the prefix */
  dbSize: number;
  /** roughly how much of the census is done, 0..1 */
  progress: number;
}

export const IDLE: Census = {
  state: 'idle',
  error: null,
  steps: 0,
  keys: 0,
  tallies: {},
  wrongType: [],
  wrongTypeCount: 0,
  strangers: [],
  strangerCount: 0,
  dbSize: 0,
  progress: 0,
};

/** The census after one more step: counts summed, lists kept to CENSUS_LIST_CAP, progress estimated. */
export function addStep(census: Census, step: TallyStep): Census {
  const steps = census.steps + 1;
  const tallies = { ...census.tallies };
  for (const [label, count] of Object.entries(step.tallies)) tallies[label] = (tallies[label] ?? 0) + count;
  const walked = Math.max(step.dbSize, 1) * (step.walks ?? 1);
  return {
    ...census,
    state: step.done ? 'done' : 'running',
    steps,
    keys: census.keys + step.keys,
    tallies,
    wrongType: [...census.wrongType, ...step.wrongType].slice(0, CENSUS_LIST_CAP),
    wrongTypeCount: census.wrongTypeCount + step.wrongType.length,
    strangers: [...census.strangers, ...step.strangers].slice(0, CENSUS_LIST_CAP),
    strangerCount: census.strangerCount + step.strangerCount,
    dbSize: step.dbSize,
    // SCAN visits about COUNT slots a step whatever MATCH keeps; the table's
    // size is only near DBSIZE, so this never claims to be finished early.
    progress: step.done ? 1 : Math.min(0.99, (steps * SCAN_COUNT_PER_STEP) / walked),
  };
}
