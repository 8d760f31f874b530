import { QueueError } from '../redis/errors';
import { inFlight } from '../redis/in-flight';
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

/** What a removal did to one job: removed, no longer where it was seen (moved on), or refused, saying why (a phrase). */
export type RemovalOutcome = 'removed' | 'moved on' | { refused: string };

/**
 * Removals of one batch kept in flight on the connection, where each job
 * comes with what its removal needs (its bytes, or an id): a batch costs a
 * few round trips, not one a job. Another client's command may wait behind
 * as many scripts: 16 removals of 0.02–0.5 ms each (bench/list-removal.ts).
 * Jobs a removal must first look up near where a page saw them go one at a
 * time: Laravel's look-up walks a list in steps by place, and a removal
 * beside the job between two steps moves it past a step's edge.
 */
export const REMOVALS_IN_FLIGHT = 16;

/**
 * `remove` of each of `jobs`, `limit` in flight at once, their outcomes in
 * the jobs' order. Each is still its own script that re-checks its job. A
 * job the layout refused (a key of the wrong type, a Laravel job too deep in
 * a long list, a yii2 lock kept) is refused on its own and the rest go on;
 * a Redis that cannot be reached ends the batch.
 */
export function removeEach(
  remove: Exclude<LineRepairs['remove'], Absent>,
  jobs: readonly { queue: string; id: string; seen?: SeenJob }[],
  trash: TrashWrite | undefined,
  limit: number,
): Promise<RemovalOutcome[]> {
  return inFlight(jobs.length, limit, async (index): Promise<RemovalOutcome> => {
    const { queue, id, seen } = jobs[index]!;
    try {
      return (await remove(queue, id, trash, seen)) ? 'removed' : 'moved on';
    } catch (error) {
      // As the other refusals' whys read: a phrase a summary puts in brackets.
      if (error instanceof QueueError && !error.unreachable)
        return { refused: error.message.replace(/^\w/, (first) => first.toLowerCase()).replace(/\.$/, '') };
      throw error;
    }
  });
}
