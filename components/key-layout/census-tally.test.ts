import { describe, expect, it } from 'vitest';
import { addStep, IDLE, type Census, type TallyStep } from './census-tally';

/** A step of StaticPHP's census, its three kinds of keys as tallies. */
function step({
  jobs = 0,
  uniques = 0,
  structural = 0,
  ...overrides
}: Partial<TallyStep> & { jobs?: number; uniques?: number; structural?: number }): TallyStep {
  return {
    done: false,
    keys: 0,
    wrongType: [],
    strangerCount: 0,
    strangers: [],
    dbSize: 10_000,
    tallies: { 'Job hashes': jobs, 'Unique keys': uniques, 'Queue structures': structural },
    ...overrides,
  };
}

const stranger = (index: number) => ({ key: `p:odd:${index}`, raw: null, type: 'string' });

describe('addStep', () => {
  it('sums the counts and keeps at most 200 strangers while counting them all', () => {
    let census: Census = { ...IDLE, state: 'running' };
    census = addStep(
      census,
      step({ keys: 150, jobs: 120, uniques: 5, structural: 5, strangerCount: 150, strangers: Array.from({ length: 150 }, (_, i) => stranger(i)) }),
    );
    census = addStep(census, step({ keys: 100, jobs: 10, strangerCount: 300, strangers: Array.from({ length: 200 }, (_, i) => stranger(1000 + i)) }));
    expect(census).toMatchObject({
      state: 'running',
      steps: 2,
      keys: 250,
      tallies: { 'Job hashes': 130, 'Unique keys': 5, 'Queue structures': 5 },
      strangerCount: 450,
    });
    expect(census.strangers).toHaveLength(200);
    expect(census.strangers[0]).toEqual(stranger(0));
    expect(census.strangers[199]).toEqual(stranger(1049));
  });

  it('estimates progress from SCAN steps against DBSIZE, never reaching the end before SCAN does', () => {
    const once = addStep(IDLE, step({}));
    expect(once.progress).toBeCloseTo(0.1);
    let census = once;
    for (let i = 0; i < 20; i++) census = addStep(census, step({}));
    expect(census.progress).toBe(0.99);
    expect(addStep(census, step({ done: true }))).toMatchObject({ state: 'done', progress: 1 });
  });

  it('counts a census of several patterns as that many walks of the database, and sums a layout’s own tallies', () => {
    const channels: TallyStep = {
      done: false,
      keys: 3,
      tallies: { 'Channel keys': 3 },
      wrongType: [],
      strangerCount: 0,
      strangers: [],
      dbSize: 10_000,
      walks: 2,
    };
    const census = addStep(addStep(IDLE, channels), channels);
    expect(census.progress).toBeCloseTo(0.1);
    expect(census.tallies).toEqual({ 'Channel keys': 6 });
  });
});
