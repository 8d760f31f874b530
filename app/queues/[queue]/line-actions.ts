'use server';

import { z } from 'zod';
import { lineRepairOrThrow } from '@/lib/layouts/line-repairs';
import { inputQueue, queueAction } from '@/lib/server/action';
import { seenPlaceInput } from '@/lib/server/layout-pages';
import { dashboardTrashWrite, keptAs } from '@/lib/server/trash';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.
// The repairs of a layout whose driver QueueLens does not run (lib/layouts/pages.ts LineRepairs).

const job = z.object({
  queue: z.string().min(1).max(1000),
  id: z.string().regex(/^[\w-]{1,100}$/, 'a job id: digits, letters, - and _'),
  // Where the page saw the job, for a layout that searches its structures for one (SeenJob.near).
  near: seenPlaceInput.optional(),
});
const jobOn = ({ queue, id }: z.infer<typeof job>) => `job ${id} on ${queue}`;
const changedOrNot =
  (done: string, gone: string) =>
  ({ changed }: { changed: boolean }) =>
    changed ? done : gone;

/** Deletes a job wherever it is, into the trash where the layout keeps one (`keptAs`: the id an Undo restores); `changed` false when it was gone already. */
export const removeLineJob = queueAction(
  'lineRepairs',
  job,
  async ({ queue, id, near }, repairs, connection, access) => {
    const trash = dashboardTrashWrite(access);
    const changed = await lineRepairOrThrow(repairs, 'remove')(queue, id, trash, { near });
    return { changed, keptAs: changed ? await keptAs(connection, trash, queue, id) : null };
  },
  {
    action: 'remove a job',
    target: jobOn,
    outcome: changedOrNot('removed', 'already gone'),
  },
  inputQueue,
);

/** Puts a reservation whose time ran out back in line; refused while it is live. */
export const releaseExpiredJob = queueAction(
  'lineRepairs',
  job,
  async ({ queue, id, near }, repairs) => ({ changed: await lineRepairOrThrow(repairs, 'releaseExpired')(queue, id, { near }) }),
  {
    action: 'put an expired reservation back in line',
    target: jobOn,
    outcome: changedOrNot('back in line', 'no longer reserved'),
  },
  inputQueue,
);

/** Ends a live reservation, after the operator was told the job may run twice. */
export const reclaimLiveJob = queueAction(
  'lineRepairs',
  job,
  async ({ queue, id, near }, repairs) => ({ changed: await lineRepairOrThrow(repairs, 'reclaim')(queue, id, { near }) }),
  {
    action: 'end a live reservation',
    target: jobOn,
    outcome: changedOrNot('reservation ended', 'no longer reserved'),
  },
  inputQueue,
);

/** Makes a delayed job due now, or moves it into line where the layout's script does; `said` is what happened where the layout tells more. */
export const runDueJobNow = queueAction(
  'lineRepairs',
  job,
  async ({ queue, id, near }, repairs) => {
    const outcome = await lineRepairOrThrow(repairs, 'runDelayedNow')(queue, id, { near });
    return typeof outcome === 'boolean' ? { changed: outcome } : outcome;
  },
  {
    action: 'run a delayed job now',
    target: jobOn,
    outcome: ({ changed, said }: { changed: boolean; said?: string }) => said ?? (changed ? 'due now' : 'no longer delayed'),
  },
  inputQueue,
);

/** One bounded batch of due delayed jobs into the line; the client repeats it while `stillDue` > 0. */
export const moveDueJobsNow = queueAction(
  'lineRepairs',
  z.object({ queue: job.shape.queue }),
  ({ queue }, repairs) => lineRepairOrThrow(repairs, 'moveDueJobs')(queue),
  {
    action: 'promote due jobs (one step)',
    target: ({ queue }) => `due jobs of ${queue}`,
    outcome: ({ moved, gone, stillDue }) => `moved ${moved}${gone ? `, ${gone} gone` : ''}, ${stillDue} still due`,
  },
  inputQueue,
);
