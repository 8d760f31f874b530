import { QueueError } from '../redis/errors';
import { EVERY_MATCH_STATES, isRanged, type EveryMatchAction, type EveryMatchStep, type FindMatch, type FindQuery } from '../shapes/find';
import type { TrashWrite } from '../shapes/trash';
import { isAbsent, type LayoutCounts, type QueueLayout } from './adapter';
import { FIND_CHUNK, statesOf, type FoundMatch } from './find-steps';
import { removeEach } from './line-repairs';

/**
 * Acting on every match of a search, however many there are: each step
 * runs the layout's own find steps (JobFinder.step) over the states the
 * action acts on alone, and hands what they found straight to the scripts
 * the failed list and the queue pages use (a retry, a forget, a remove), each
 * of which re-checks the job where it was found. So a job is acted on only
 * if it matched a moment before and is still where it matched; one that
 * moved on between the two is counted, not changed. A job acted on leaves
 * the states walked, so no later step meets it again; a list read by
 * offset is told how many left it (`taken`), so none is skipped.
 */

/** Find steps one step takes at most (each a chunk's worth of jobs, lib/layouts/find-steps.ts), so that a sparse search is not one server call (and one audit entry) per 200 jobs looked at. */
const FIND_STEPS_PER_STEP = 10;

/**
 * About the most jobs one step acts on: it stops after the chunk that brings
 * its matches to FIND_CHUNK, and a chunk finds FIND_CHUNK or, from a SCAN
 * (whose COUNT is a hint), a few more. A margin over that, not a bound.
 */
export const EVERY_MATCH_STEP_MAX = 3 * FIND_CHUNK;

/** What one call of an action did to a chunk's matches. */
interface Acted {
  acted: number;
  movedOn: number;
  refused: number;
  why: string | null;
  queues: readonly string[];
}

type Act = (matches: readonly FoundMatch[]) => Promise<Acted>;

/** Why a match is found but never acted on: the layout could not open it by its id either (a Laravel payload that names none). */
function unusable(matches: readonly FindMatch[]): { usable: FindMatch[]; refused: number; why: string | null } {
  const usable = matches.filter((match) => match.idNote === undefined);
  const first = matches.find((match) => match.idNote !== undefined);
  return { usable, refused: matches.length - usable.length, why: first?.idNote ?? null };
}

const queuesOf = (matches: readonly FindMatch[]) => [...new Set(matches.map((match) => match.queue).filter((queue) => queue !== ''))];

/** The layout's way of doing `action` to a chunk's matches; refused, saying why, where the layout cannot, before anything is read. */
function actionOrThrow(layout: Pick<QueueLayout, 'failedJobs' | 'lineRepairs'>, action: EveryMatchAction, trash: TrashWrite | undefined): Act {
  const failed = layout.failedJobs;
  if (action === 'retry' || action === 'forget') {
    if (isAbsent(failed)) throw new QueueError(`${failed.absent}.`);
    if (action === 'forget')
      return async (matches) => {
        const ids = matches.map((match) => match.id);
        const forgotten = ids.length === 0 ? 0 : await failed.forgetFailedIds(ids, trash);
        return { acted: forgotten, movedOn: ids.length - forgotten, refused: 0, why: null, queues: queuesOf(matches) };
      };
    const retry = failed.retryFailed;
    if (isAbsent(retry)) throw new QueueError(`${retry.absent}.`);
    return async (matches) => {
      if (matches.length === 0) return { acted: 0, movedOn: 0, refused: 0, why: null, queues: [] };
      const outcome = await retry.ids(matches.map((match) => match.id));
      return {
        acted: outcome.requeued.length,
        movedOn: outcome.notFailed.length + outcome.missing.length,
        refused: outcome.refused.length,
        why: outcome.refused[0]?.why ?? null,
        queues: outcome.queues,
      };
    };
  }
  const repairs = layout.lineRepairs;
  if (isAbsent(repairs)) throw new QueueError(`${repairs.absent}.`);
  const remove = repairs.remove;
  if (isAbsent(remove)) throw new QueueError(`${remove.absent}.`);
  return async (matches) => {
    // Each with the bytes its step read (a Laravel payload up to 64 KiB) or its id: nothing to look up first.
    const outcomes = await removeEach(
      remove,
      matches.map(({ queue, id, bytes, near }) => ({ queue, id, seen: { bytes, near } })),
      trash,
    );
    const refusals = outcomes.filter((outcome) => typeof outcome === 'object');
    return {
      acted: outcomes.filter((outcome) => outcome === 'removed').length,
      movedOn: outcomes.filter((outcome) => outcome === 'moved on').length,
      refused: refusals.length,
      why: refusals[0]?.refused ?? null,
      queues: queuesOf(matches.filter((_, index) => outcomes[index] === 'removed')),
    };
  };
}

/**
 * One step of doing `action` to every job `query` finds in the states the
 * action acts on, from `from.cursor` (null: the start, which tells "about M"
 * from `from.counts` where the caller holds them) and `from.taken` (the
 * step before's): up to FIND_STEPS_PER_STEP find steps, or fewer once a chunk's
 * worth of jobs was acted on. The caller repeats it with the cursor and
 * `taken` it returns until the cursor is null.
 */
export async function everyMatchStep(
  layout: Pick<QueueLayout, 'finder' | 'failedJobs' | 'lineRepairs'>,
  action: EveryMatchAction,
  query: FindQuery,
  from: { cursor: string | null; taken: number; counts?: LayoutCounts },
  trash?: TrashWrite,
): Promise<EveryMatchStep> {
  const finder = layout.finder;
  if (isAbsent(finder)) throw new QueueError(`${finder.absent}.`);
  const act = actionOrThrow(layout, action, trash);
  // The states it acts on that the search names (every one of them when it names none) and the layout has; under a range, those that record a time.
  const states = statesOf(query, EVERY_MATCH_STATES[action], finder.times).filter((state) => finder.states.includes(state));
  if (states.length === 0)
    throw new QueueError(
      `This search looks in no state a ${action} acts on (${EVERY_MATCH_STATES[action].join(', ')})${isRanged(query.range) ? ' whose time this layout records' : ''}.`,
      { invalidRequest: true },
    );
  const scoped: FindQuery = { ...query, states };
  const total: EveryMatchStep = {
    cursor: from.cursor,
    taken: from.taken,
    looked: 0,
    about: 0,
    matched: 0,
    acted: 0,
    movedOn: 0,
    refused: 0,
    why: null,
    queues: [],
  };
  const queues = new Set<string>();
  for (let findSteps = 0; findSteps < FIND_STEPS_PER_STEP; findSteps++) {
    // The matches' bytes, where the layout keeps a job as one value: a removal takes them as the step read them.
    const step = await finder.step(scoped, total.cursor, total.taken, { bytes: action === 'remove', counts: from.counts });
    // A step finds only the states asked for; checked again, as a job in another state is never this action's.
    const wanted = step.matches.filter((match) => states.includes(match.state));
    const { usable, refused, why } = unusable(wanted);
    const done = await act(usable);
    Object.assign(total, {
      cursor: step.cursor,
      // What was acted on left where it was found; nothing else of this chunk did, as far as this step knows.
      taken: done.acted,
      looked: step.looked,
      about: step.about,
      matched: total.matched + wanted.length,
      acted: total.acted + done.acted,
      movedOn: total.movedOn + done.movedOn,
      refused: total.refused + refused + done.refused,
      why: total.why ?? why ?? done.why,
    });
    for (const queue of done.queues) queues.add(queue);
    if (step.cursor === null || total.matched >= FIND_CHUNK) break;
  }
  return { ...total, queues: [...queues].sort() };
}
