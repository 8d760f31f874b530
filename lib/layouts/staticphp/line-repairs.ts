import { QueueError } from '../../redis/errors';
import { promoteDueStep, runDelayedJobNow } from './delayed-repairs';
import type { RedisQueue } from './redis-queue';
import { absentMembers } from '../adapter';
import type { LineRepairs, RepairSaid } from '../pages';
import { STATICPHP_LINE_REPAIRS_ABSENT } from './absent';

/** A job id as the StaticPHP driver's scripts take it: a whole number a JS number holds exactly. */
function exactJobId(id: string): number {
  const value = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(value) || value < 1) throw new QueueError(`A job id is a whole number above 0, got ${id}`);
  return value;
}

/** `seconds` as the pages write a moment: 2026-12-03 23:41:30 UTC. */
function utc(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Runs one delayed job now with lua/staticphp/run-now-3.lua; what happened in words, and a refusal for a parked job whose holder's claim is live. */
async function runDelayedNow(queue: RedisQueue, name: string, id: string): Promise<RepairSaid> {
  const result = await runDelayedJobNow(queue, name, exactJobId(id));
  switch (result.outcome) {
    case 'promoted':
      return { changed: true, said: `Job ${id} is ready: it joined level ${result.level}` };
    case 'gone':
      return { changed: false, said: `Job ${id} is gone: it was deleted, so it was only removed from the delayed jobs` };
    case 'not-delayed':
      return { changed: false, said: `Job ${id} was no longer delayed: a worker moved it in meanwhile, or it already ran` };
    case 'held':
      throw new QueueError(
        `Job ${id} stays parked: ${result.holder === '' ? 'its holder' : result.holder} holds its claim until ${utc(result.until)}, and running it now would run it a second time beside that worker. It runs once the claim ends`,
      );
  }
}

/**
 * The repairs the line, reservations, delayed and job pages offer on a
 * StaticPHP connection: each one of the driver's own atomic scripts, which
 * re-check before they change anything.
 */
export function staticphpLineRepairs(queue: RedisQueue): LineRepairs {
  return {
    ...absentMembers(STATICPHP_LINE_REPAIRS_ABSENT),
    runDelayedNow: (name, id) => runDelayedNow(queue, name, id),
    // What a reserve would promote (lua/staticphp/promote-due-2.lua), without reserving.
    moveDueJobs: async (name) => {
      const step = await promoteDueStep(queue, name);
      return { moved: step.promoted.length, gone: step.vanished.length, stillDue: step.remainingDue };
    },
  };
}
