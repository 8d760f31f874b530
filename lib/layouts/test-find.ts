import { expect } from 'vitest';
import type { EveryMatchAction, EveryMatchStep, FindMatch, FindQuery, FindRange, FindState } from '../shapes/find';
import type { QueueLayout } from './adapter';
import { everyMatchStep } from './every-match';
import type { FindStepOptions } from './find-steps';
import type { JobFinder } from './pages';

/** A query of the text in payloads, case-sensitive, every queue and state unless given. */
export function payloadQuery(text: string, scope: Partial<FindQuery> = {}): FindQuery {
  return { text, field: 'payload', queue: null, states: [], ignoreCase: false, ...scope };
}

/** Counts a caller holds, naming no queue: given to a search's first step, as a served app gives its sampler's, the step reads none of its own. */
export const NO_COUNTS = { queues: [], failed: null };

/** Every step of `query` to the end, the first given `firstOptions`: the matches, the steps taken, and the last step's progress. */
export async function findAll(
  finder: JobFinder,
  query: FindQuery,
  firstOptions: FindStepOptions = {},
): Promise<{ matches: FindMatch[]; steps: number; looked: number; about: number }> {
  const matches: FindMatch[] = [];
  let cursor: string | null = null;
  for (let steps = 1; ; steps++) {
    const step = await finder.step(query, cursor, 0, cursor === null ? firstOptions : {});
    matches.push(...step.matches);
    if (step.cursor === null) return { matches, steps, looked: step.looked, about: step.about };
    if (steps > 10_000) throw new Error('the search does not end');
    cursor = step.cursor;
  }
}

/** Each match's state by its id. */
export function statesById(matches: readonly FindMatch[]): Record<string, string> {
  return Object.fromEntries(matches.map((match) => [match.id, match.state]));
}

/**
 * What every finder does when told to ignore case, `push` putting a ready
 * job whose payload holds `text` and answering its id: ASCII letters match
 * in either case and only then; Lua's pattern characters are matched as
 * themselves; a UTF-8 letter matches only as it is (É is not é). The
 * highlight is the job's own bytes.
 */
export async function expectIgnoreCaseRules(finder: JobFinder, push: (text: string) => Promise<string>): Promise<void> {
  const order = await push('Order ACME-42');
  const magic = await push('rate 50% (X).*[Y] off');
  // What `50% (x).*[y]` would match were it read as a Lua pattern rather than as text.
  await push('50 x then y');
  const accented = await push('CAFÉ crème');
  const ignoringCase = (text: string) => payloadQuery(text, { ignoreCase: true });
  const found = async (query: FindQuery) => (await findAll(finder, query)).matches.map(({ id, snippet }) => ({ id, match: snippet.match }));

  expect(await found(ignoringCase('acme-42'))).toEqual([{ id: order, match: 'ACME-42' }]);
  expect(await found(payloadQuery('acme-42'))).toEqual([]);
  expect(await found(ignoringCase('50% (x).*[y]'))).toEqual([{ id: magic, match: '50% (X).*[Y]' }]);
  expect(await found(ignoringCase('café CRÈME'))).toEqual([]);
  expect(await found(ignoringCase('cafÉ CRèME'))).toEqual([{ id: accented, match: 'CAFÉ crème' }]);
}

/** Noon of a day in the past, Unix ms: jobs placed at set times around it make a range's tests deterministic. */
export const NOON = Date.parse('2026-03-10T12:00:00Z');
export const HOUR = 3_600_000;

/** A job a test placed: its id as a match names it, its state, and the time its state's index records (null: a state that records none). */
export interface PlacedJob {
  id: string;
  state: FindState;
  ms: number | null;
}

/**
 * What every finder does with a time range, over jobs the caller placed
 * (each holding `text` in its payload) at known times, an hour either side
 * of NOON in each state that records one and once in each that does not:
 * a range finds the timed jobs inside it and no other, open on either side;
 * a state that records no time is left out of a ranged search (and named so
 * by finder.times), found by the same search without a range; a cursor from
 * one range is refused under another.
 */
export async function expectRangeRules(finder: JobFinder, text: string, placed: readonly PlacedJob[]): Promise<void> {
  const timed = [...new Set(placed.filter((job) => job.ms !== null).map((job) => job.state))].sort();
  expect(Object.keys(finder.times).sort()).toEqual(timed);
  const ranged = async (range: FindRange) => statesById((await findAll(finder, payloadQuery(text, { range }))).matches);
  const inside = (range: FindRange) =>
    Object.fromEntries(
      placed
        .filter((job) => job.ms !== null && (range.from === null || job.ms >= range.from) && (range.until === null || job.ms < range.until))
        .map((job) => [job.id, job.state]),
    );
  const ranges: FindRange[] = [
    { from: NOON, until: null },
    { from: null, until: NOON },
    { from: NOON - 2 * HOUR, until: NOON + 2 * HOUR },
    { from: NOON - HOUR / 2, until: NOON + HOUR / 2 },
    // half-open: a job at `until` is out, one at `from` in
    { from: NOON - HOUR, until: NOON + HOUR },
  ];
  for (const range of ranges) expect({ range, found: await ranged(range) }).toEqual({ range, found: inside(range) });
  // Every range above was worth asking: each finds some timed job and misses another, or finds none.
  expect(Object.keys(inside(ranges[0]!)).length).toBeGreaterThan(0);
  expect(Object.keys(inside(ranges[1]!)).length).toBeGreaterThan(0);
  // Without a range, every placed job is found, those with no time too.
  expect(statesById((await findAll(finder, payloadQuery(text))).matches)).toEqual(Object.fromEntries(placed.map((job) => [job.id, job.state])));
  // A cursor from one range means nothing under another.
  const first = await finder.step(payloadQuery(text, { range: ranges[0] }), null);
  if (first.cursor !== null) await expect(finder.step(payloadQuery(text, { range: ranges[1] }), first.cursor)).rejects.toThrow(/cursor/);
  await expect(finder.step(payloadQuery(text), (await finder.step(payloadQuery(text, { range: ranges[2] }), null)).cursor)).rejects.toThrow(/cursor/);
}

/** Every step of doing `action` to every match of `query`, as the page repeats them: the totals and how many steps it took. */
export async function actOnEveryMatch(
  layout: Pick<QueueLayout, 'finder' | 'failedJobs' | 'lineRepairs'>,
  action: EveryMatchAction,
  query: FindQuery,
): Promise<Pick<EveryMatchStep, 'looked' | 'matched' | 'acted' | 'movedOn' | 'refused' | 'why'> & { steps: number }> {
  const totals = { looked: 0, matched: 0, acted: 0, movedOn: 0, refused: 0, why: null as string | null, steps: 0 };
  let from: { cursor: string | null; taken: number } = { cursor: null, taken: 0 };
  for (;;) {
    const step = await everyMatchStep(layout, action, query, from);
    Object.assign(totals, {
      looked: step.looked,
      matched: totals.matched + step.matched,
      acted: totals.acted + step.acted,
      movedOn: totals.movedOn + step.movedOn,
      refused: totals.refused + step.refused,
      why: totals.why ?? step.why,
      steps: totals.steps + 1,
    });
    if (step.cursor === null) return totals;
    if (totals.steps > 10_000) throw new Error('acting on every match does not end');
    from = { cursor: step.cursor, taken: step.taken };
  }
}
