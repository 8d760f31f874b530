'use server';

import { z } from 'zod';
import { retriesFailedJobs, type FailedJobs, type RetriedFailedJobs } from '@/lib/layouts/adapter';
import { QueueError } from '@/lib/redis/errors';
import { BATCH_SIZE, EDITABLE_PAYLOAD_BYTES, type RetryOutcome } from '@/lib/shapes/failed-jobs';
import { describeJobs, queueAction, queueReadAction } from '@/lib/server/action';
import { dashboardTrashWrite, keepsTrash } from '@/lib/server/trash';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** Failed job ids as the failed page has them: text (StaticPHP's decimal, marko's UUIDs); each layout checks them. */
const jobIds = z.array(z.string().min(1).max(200)).min(1).max(BATCH_SIZE);
const maxAttempts = z.number().int().min(1).max(1000).optional();
/** Y-m-d or Y-m-d H:i:s in UTC; the driver checks the date itself. */
const utcDate = z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'expected Y-m-d or Y-m-d H:i:s (UTC)');

function describeRetry({ requeued, notFailed, missing }: RetryOutcome): string {
  return `requeued ${requeued.length}, ${notFailed.length} no longer failed, ${missing.length} gone`;
}

/** The failed jobs where QueueLens retries them itself; refused, with the command that does, where it does not. */
function retriedHere(failed: FailedJobs): RetriedFailedJobs {
  if (retriesFailedJobs(failed)) return failed;
  throw new QueueError(`${failed.retryFailed.absent}. Run ${failed.retryFailed.commandsFor(null).join('; ')} (or one id) where the application runs`);
}

/** StaticPHP's failed ids are its jobs' whole-number ids. */
function wholeNumberIds(ids: readonly string[]): number[] {
  return ids.map((id) => {
    const value = Number(id);
    if (!/^[1-9]\d*$/.test(id) || !Number.isSafeInteger(value))
      throw new QueueError(`"${id.slice(0, 40)}" is no job id of this connection: its ids are whole numbers`, { invalidRequest: true });
    return value;
  });
}

/** Requeues these failed jobs; ids no longer in the failed set are reported, not requeued. */
export const retryJobs = queueAction(
  'failedJobs',
  z.object({ ids: jobIds, maxAttempts }),
  ({ ids, maxAttempts }, failed) => retriedHere(failed).retryFailed(wholeNumberIds(ids), maxAttempts),
  {
    action: 'retry failed jobs',
    target: ({ ids }) => describeJobs(ids),
    outcome: describeRetry,
  },
  (_input, outcome) => outcome?.queues ?? null,
);

/**
 * Replaces a failed job's payload with the operator's edit and retries it,
 * only while the job is still failed with the payload they edited (`seen`);
 * the job as it was is kept in the trash (`kept`), to restore once the
 * retried job is gone. Refused where QueueLens does not retry the layout's
 * failed jobs.
 */
export const editAndRetryJob = queueAction(
  'failedJobs',
  z.object({
    id: z.string().regex(/^[1-9]\d{0,18}$/, 'a job id: a whole number'),
    // Never empty: a StaticPHP payload is a JSON object or array, and '' would skip the script's re-check.
    seen: z.string().min(2).max(EDITABLE_PAYLOAD_BYTES),
    edited: z.string().min(1).max(EDITABLE_PAYLOAD_BYTES),
    maxAttempts,
  }),
  ({ id, seen, edited, maxAttempts }, failed, _connection, access) =>
    retriedHere(failed).editAndRetry(wholeNumberIds([id])[0]!, seen, edited, { maxAttempts, trash: dashboardTrashWrite(access) }),
  {
    action: "edit a failed job's payload and retry it",
    target: ({ id }) => `job ${id}`,
    outcome: ({ outcome, kept }) => `${outcome}${kept ? ', the original kept in the trash' : ''}`,
  },
  // One not retried changed no queue (a hash found gone only left the failed set, whose count is read anyway).
  (_input, done) => (done === null ? null : done.queue === null ? [] : [done.queue]),
);

/**
 * Forgets these failed jobs; ids no longer failed are left alone. `kept`
 * says the layout moved them into its trash, where an Undo finds them.
 */
export const forgetJobs = queueAction(
  'failedJobs',
  z.object({ ids: jobIds }),
  async ({ ids }, failed, connection, access) => {
    const trash = dashboardTrashWrite(access);
    const forgotten = retriesFailedJobs(failed) ? await failed.forgetFailedIds(wholeNumberIds(ids), trash) : await failed.forgetFailedIds(ids, trash);
    return { forgotten, notFailed: ids.length - forgotten, kept: await keepsTrash(connection, trash) };
  },
  {
    action: 'forget failed jobs',
    target: ({ ids }) => describeJobs(ids),
    outcome: ({ forgotten, notFailed }) => `forgot ${forgotten}, ${notFailed} no longer failed`,
  },
);

/** One bounded step of "retry every failed job"; the client repeats it while `remaining` > 0. */
export const retryOldestStep = queueAction(
  'failedJobs',
  z.object({ maxAttempts }),
  ({ maxAttempts }, failed) => retriedHere(failed).retryOldestFailed(maxAttempts),
  {
    action: 'retry all failed jobs (one step)',
    target: () => 'the oldest failed jobs',
    outcome: (step) => `${describeRetry(step)}; ${step.remaining} still failed`,
  },
  (_input, step) => step?.queues ?? null,
);

/** One bounded step of "forget every failed job" or "forget those failed before a date". */
export const forgetOldestStep = queueAction(
  'failedJobs',
  z.object({ before: utcDate.nullable() }),
  async ({ before }, failed, connection, access) => {
    const trash = dashboardTrashWrite(access);
    return { ...(await failed.forgetOldestFailed(before, trash)), kept: await keepsTrash(connection, trash) };
  },
  {
    action: 'forget all failed jobs (one step)',
    target: ({ before }) => (before === null ? 'every failed job' : `failed jobs that failed before ${before} UTC`),
    outcome: ({ forgotten, remaining }) => `forgot ${forgotten}; ${remaining} left to forget`,
  },
);

/** How many failed jobs a forget would touch, for the confirmation. */
export const previewForget = queueReadAction('failedJobs', z.object({ before: utcDate.nullable() }), async ({ before }, failed) => ({
  count: await failed.countFailedBefore(before),
}));
