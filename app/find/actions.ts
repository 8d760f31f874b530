'use server';

import { z } from 'zod';
import { lineRepairOrThrow, removeEach } from '@/lib/layouts/line-repairs';
import { describeJobs, queueAction } from '@/lib/server/action';
import {
  describeEveryMatchSearch,
  describeEveryMatchStep,
  describeFoundBy,
  describeFoundOutcome,
  everyMatchInput,
  foundBy,
  runEveryMatchStep,
  stillMatching,
} from '@/lib/server/find';
import { seenPlaceInput } from '@/lib/server/layout-pages';
import { dashboardTrashWrite, keptAs } from '@/lib/server/trash';
import { BATCH_SIZE } from '@/lib/shapes/failed-jobs';
import type { EveryMatchAction } from '@/lib/shapes/find';
import type { AuditedAction } from '@/lib/dashboard/audit-entry';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const foundJobs = foundBy.extend({
  jobs: z
    .array(
      z.object({
        queue: z.string().min(1).max(1000),
        id: z.string().regex(/^[\w-]{1,100}$/, 'a job id: digits, letters, - and _'),
        near: seenPlaceInput.optional(),
      }),
    )
    .min(1)
    .max(BATCH_SIZE),
});

/**
 * Removes a batch of the live jobs a search found (at most BATCH_SIZE):
 * those that still match it, each through the layout's remove, which
 * re-checks it where it was found (`removeEach`). One that no
 * longer matches or moved on meanwhile is counted, not changed, and one the
 * layout refused is counted with the first refusal's why. One audit entry
 * names the search and the counts; `kept` are the ids an Undo restores,
 * `outcomes` what it did to each job, in the order given.
 */
export const removeFoundJobs = queueAction(
  'lineRepairs',
  foundJobs,
  async ({ jobs, ...search }, repairs, connection, access) => {
    const trash = dashboardTrashWrite(access);
    const matching = new Set(await stillMatching(connection, search, 'live', [...new Set(jobs.map((job) => job.id))]));
    const reached = jobs.filter((job) => matching.has(job.id));
    const removals = await removeEach(
      lineRepairOrThrow(repairs, 'remove'),
      reached.map(({ queue, id, near }) => ({ queue, id, seen: { near } })),
      trash,
    );
    const removalOf = new Map(reached.map((job, index) => [job, removals[index]!]));
    const outcomes = jobs.map((job) => {
      const removal = removalOf.get(job);
      return removal === undefined ? 'no longer matched' : typeof removal === 'object' ? 'not removed' : removal;
    });
    const kept: string[] = [];
    for (const job of reached.filter((_, index) => removals[index] === 'removed')) {
      const as = await keptAs(connection, trash, job.queue, job.id);
      if (as !== null) kept.push(as);
    }
    const count = (outcome: (typeof outcomes)[number]) => outcomes.filter((each) => each === outcome).length;
    const why = removals.find((removal) => typeof removal === 'object')?.refused ?? null;
    return { removed: count('removed'), unmatched: count('no longer matched'), movedOn: count('moved on'), refused: count('not removed'), why, kept, outcomes };
  },
  {
    action: 'remove jobs found by a search',
    target: ({ jobs, ...search }) => `${describeJobs(jobs.map((job) => job.id))} ${describeFoundBy(search)}`,
    outcome: ({ removed, unmatched, movedOn, refused, why }) =>
      describeFoundOutcome(`${removed} removed${refused > 0 ? `, ${refused} not removed (${why})` : ''}`, unmatched, movedOn),
  },
  ({ jobs }) => jobs.map((job) => job.queue),
);

/*
 * One step of acting on every match of a search, beyond the matches the page
 * lists: the search runs again from the start over the states the action
 * acts on, a few bounded find chunks a step, and each match goes straight
 * to the script the failed list or the queue page uses (lib/layouts/every-match.ts).
 * The page repeats a step with the cursor and `taken` it returns, and
 * Cancel asks for no next one. One audit entry a step, as a batch of the
 * failed list's, naming the search and the counts.
 */

/** The action that runs `action`'s steps, audited as `audited`, its outcome told with `done` ("retried 3 of 4 found…"). */
function everyMatchAction(action: EveryMatchAction, audited: AuditedAction, done: string) {
  return queueAction(
    'finder',
    everyMatchInput,
    (input, _finder, connection, access) => runEveryMatchStep(action, input, connection, access),
    { action: audited, target: describeEveryMatchSearch, outcome: (step) => describeEveryMatchStep(done, step) },
    (_input, step) => step?.queues ?? null,
  );
}

/** Retries every failed job the search finds, a step at a time, each only while it is still failed. */
export const retryEveryMatchStep = everyMatchAction('retry', 'retry every failed match of a search (one step)', 'retried');

/** Forgets every failed job the search finds, a step at a time, each only while it is still failed; kept in the trash where the layout keeps one. */
export const forgetEveryMatchStep = everyMatchAction('forget', 'forget every failed match of a search (one step)', 'forgot');

/** Removes every ready, delayed or reserved job the search finds, a step at a time, each only while it is still where it was found. */
export const removeEveryMatchStep = everyMatchAction('remove', 'remove every live match of a search (one step)', 'removed');
