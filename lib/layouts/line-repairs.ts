import { QueueError } from '../redis/errors';
import { isAbsent, type Absent } from './adapter';
import type { LineRepairName, LineRepairOffer, LineRepairs } from './pages';

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
