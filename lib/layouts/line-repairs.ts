import { QueueError } from '../redis/errors';
import { inFlight } from '../redis/in-flight';
import { furthestPlaceFirst } from '../shapes/job-location';
import type { TrashWrite } from '../shapes/trash';
import { isAbsent, type Absent } from './adapter';
import type { LineRepairName, LineRepairOffer, LineRepairs, SeenJob } from './pages';

const LINE_REPAIR_NAMES: readonly LineRepairName[] = ['remove', 'releaseExpired', 'reclaim', 'runDelayedNow', 'moveDueJobs'];

/** What of `repairs` a page may offer (all of it absent when the layout repairs nothing; a repair left out of a partial table is offered). */
export function lineRepairOffer(repairs: Partial<LineRepairs> | Absent): LineRepairOffer {
  const whyNot = (name: LineRepairName) => {
    const repair: object | undefined = isAbsent(repairs) ? repairs : repairs[name];
    return repair !== undefined && isAbsent(repair) ? repair.absent : null;
  };
  return Object.fromEntries(LINE_REPAIR_NAMES.map((name) => [name, whyNot(name)])) as LineRepairOffer;
}

/** The repair `name` of `repairs`; a QueueError saying why when the layout leaves it out. */
export function lineRepairOrThrow<Name extends LineRepairName>(repairs: LineRepairs, name: Name): Exclude<LineRepairs[Name], Absent> {
  const repair: LineRepairs[Name] = repairs[name];
  if (isAbsent(repair)) throw new QueueError(`${repair.absent}.`);
  return repair as Exclude<LineRepairs[Name], Absent>;
}

/**
 * Elements of a ready list a removal looks at from each end for the job
 * (lua/includes/list-removal.lua: Laravel's payload bytes, marko's and
 * yii2's id). Its worst case, a Laravel payload this far from the head of a
 * list of a million (a walk from the tail that misses, one from the head,
 * then the LREM), took 0.41–0.48 ms a call in the median, 1.8 ms at the
 * longest under load (bench/list-removal.ts), where the drivers' own LREM
 * walks of that list take 20–50 ms.
 */
export const READY_REMOVAL_REACH = 5000;

const REACH = READY_REMOVAL_REACH.toLocaleString('en-US');
const BEYOND_REMOVAL_REACH = `a removal looks for a job among the ${REACH} nearest either end of its list, since walking further in a list this long would hold Redis for milliseconds: a job this deep can be removed once the workers bring it within ${REACH} of the front`;

/**
 * Why a removal would refuse the job at `index` of a ready list of `length`
 * (from either end: it looks as far from each), as a row's or a job page's
 * `unremovable`, which pages say in place of a Remove the script refuses;
 * nothing where a removal reaches the job.
 */
export function unremovableAt(index: number, length: number): { unremovable?: string } {
  return index < READY_REMOVAL_REACH || length - 1 - index < READY_REMOVAL_REACH ? {} : { unremovable: BEYOND_REMOVAL_REACH };
}

/** What a removal did to one job: removed, no longer where it was seen (moved on), or refused, saying why (a phrase). */
export type RemovalOutcome = 'removed' | 'moved on' | { refused: string };

/**
 * Removals of one batch kept in flight on the connection: a batch costs a
 * few round trips, not one a job. Another client's command may wait behind
 * as many scripts: 16 removals of 0.02–0.5 ms each (bench/list-removal.ts).
 * A Laravel job that a removal first looks up near where a page saw it is
 * found while fewer than 25 pushes and removals nearer the tail land
 * between two steps of its look-up (NEAR_SHIFT in
 * lua/laravel/find-job-3.lua): started furthest seen place first, the
 * removals alongside it move it 15 at most.
 */
export const REMOVALS_IN_FLIGHT = 16;

/**
 * `remove` of each of `jobs`, REMOVALS_IN_FLIGHT at once, furthest seen
 * place first (`furthestPlaceFirst`: no removal moves the place a later one
 * is looked up at), their outcomes in the jobs' order. Each is still its
 * own script that re-checks its job. A job the layout refused (a key of
 * the wrong type, a Laravel job too deep in a long list, a yii2 lock kept)
 * is refused on its own and the rest go on; a Redis that cannot be reached
 * ends the batch.
 */
export async function removeEach(
  remove: Exclude<LineRepairs['remove'], Absent>,
  jobs: readonly { queue: string; id: string; seen?: SeenJob }[],
  trash: TrashWrite | undefined,
): Promise<RemovalOutcome[]> {
  const order = furthestPlaceFirst(jobs.map((job, index) => ({ index, near: job.seen?.near })));
  const outcomes = await inFlight(order.length, REMOVALS_IN_FLIGHT, async (turn): Promise<RemovalOutcome> => {
    const { queue, id, seen } = jobs[order[turn]!.index]!;
    try {
      return (await remove(queue, id, trash, seen)) ? 'removed' : 'moved on';
    } catch (error) {
      // As the other refusals' whys read: a phrase a summary puts in brackets.
      if (error instanceof QueueError && !error.unreachable)
        return { refused: error.message.replace(/^\w/, (first) => first.toLowerCase()).replace(/\.$/, '') };
      throw error;
    }
  });
  const outcomeOf = new Map(order.map(({ index }, turn) => [index, outcomes[turn]!]));
  return jobs.map((_, index) => outcomeOf.get(index)!);
}
