'use server';

import { z } from 'zod';
import { isAbsent, type FailedJobs, type FailedRetries } from '@/lib/layouts/adapter';
import { QueueError } from '@/lib/redis/errors';
import { BATCH_SIZE, EDITABLE_PAYLOAD_BYTES, type RetryOutcome } from '@/lib/shapes/failed-jobs';
import type { Connection } from '@/lib/dashboard/connections';
import { describeFoundBy, describeFoundOutcome, foundBy, stillMatching } from '@/lib/server/find';
import { describeJobs, queueAction, queueReadAction, queuesFailingRecently } from '@/lib/server/action';
import { dashboardTrashWrite, keepsTrash } from '@/lib/server/trash';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** Failed job ids as the failed page has them: text (StaticPHP's decimal, marko's and Horizon's UUIDs); each layout checks its own. */
const jobIds = z.array(z.string().min(1).max(200)).min(1).max(BATCH_SIZE);
const maxAttempts = z.number().int().min(1).max(1000).optional();
/** Y-m-d or Y-m-d H:i:s in UTC; the driver checks the date itself. */
const utcDate = z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'expected Y-m-d or Y-m-d H:i:s (UTC)');

function describeRetry({ requeued, notFailed, missing, refused }: RetryOutcome): string {
  return `requeued ${requeued.length}, ${notFailed.length} no longer failed, ${missing.length} gone${refused.length === 0 ? '' : `, ${refused.length} refused (${refused[0]!.why})`}`;
}

/** The layout's retry where QueueLens retries its failed jobs; refused, with the command that does, where it does not. */
function retriedHere(failed: FailedJobs): FailedRetries {
  const retry = failed.retryFailed;
  if (!isAbsent(retry)) return retry;
  throw new QueueError(`${retry.absent}. Run ${retry.commandsFor(null).join('; ')} (or one id) where the application runs`);
}

/** A part of the layout's retry it may lack, or its sentence as a refused request. */
function presentOrRefused<T extends object>(part: T): Exclude<T, { absent: string }> {
  if (isAbsent(part)) throw new QueueError(`Not on this connection: ${part.absent}`, { invalidRequest: true });
  return part as Exclude<T, { absent: string }>;
}

/**
 * Failed jobs by id, as the failed list or a search listed them; `search`:
 * the search that did, whose text each must still hold (a job retried and
 * failed again with another error does not), counted `unmatched` if not.
 */
const listedIds = z.object({ ids: jobIds, search: foundBy.optional() });

/** The listed ids still to act on: every one, or those that still match the search that listed them; `unmatchedIds` the others. */
async function stillListed(
  { ids, search }: z.output<typeof listedIds>,
  connection: Connection,
): Promise<{ acting: string[]; unmatched: number; unmatchedIds: string[] }> {
  const acting = search === undefined ? ids : await stillMatching(connection, search, 'failed', ids);
  const unmatchedIds = ids.filter((id) => !acting.includes(id));
  return { acting, unmatched: unmatchedIds.length, unmatchedIds };
}

const describeListed = ({ ids, search }: z.output<typeof listedIds>) => `${describeJobs(ids)}${search === undefined ? '' : ` ${describeFoundBy(search)}`}`;

/** A retry of no id: every listed one no longer matched its search. */
const NOTHING_RETRIED: RetryOutcome = { requeued: [], notFailed: [], missing: [], refused: [], queues: [] };

/** Requeues these failed jobs; ids no longer failed (or matching) are reported, not requeued. */
export const retryJobs = queueAction(
  'failedJobs',
  listedIds.extend({ maxAttempts }),
  async (input, failed, connection) => {
    const retry = retriedHere(failed);
    const { acting, unmatched } = await stillListed(input, connection);
    const outcome = acting.length === 0 ? NOTHING_RETRIED : await retry.ids(acting, { maxAttempts: input.maxAttempts });
    return { ...outcome, unmatched };
  },
  {
    action: 'retry failed jobs',
    target: describeListed,
    outcome: (outcome) => describeFoundOutcome(describeRetry(outcome), outcome.unmatched),
  },
  (_input, outcome) => outcome?.queues ?? null,
);

/**
 * Replaces a failed job's payload with the operator's edit and retries it,
 * only while the job is still failed with the payload they edited (`seen`);
 * the job as it was is kept in the trash (`kept`), to restore once the
 * retried job is gone. Refused where the layout's retry does not edit.
 */
export const editAndRetryJob = queueAction(
  'failedJobs',
  z.object({
    id: z.string().min(1).max(200),
    // Never empty: a StaticPHP payload is a JSON object or array, and '' would skip the script's re-check.
    seen: z.string().min(2).max(EDITABLE_PAYLOAD_BYTES),
    edited: z.string().min(1).max(EDITABLE_PAYLOAD_BYTES),
    maxAttempts,
  }),
  ({ id, seen, edited, maxAttempts }, failed, _connection, access) =>
    presentOrRefused(retriedHere(failed).editAndRetry)(id, seen, edited, { maxAttempts, trash: dashboardTrashWrite(access) }),
  {
    action: "edit a failed job's payload and retry it",
    target: ({ id }) => `job ${id}`,
    outcome: ({ outcome, kept }) => `${outcome}${kept ? ', the original kept in the trash' : ''}`,
  },
  // One not retried changed no queue (a hash found gone only left the failed set, whose count is read anyway).
  (_input, done) => (done === null ? null : done.queue === null ? [] : [done.queue]),
);

/**
 * Forgets these failed jobs; ids no longer failed (or matching) are left alone. `kept`
 * says the layout moved them into its trash, where an Undo finds them.
 */
export const forgetJobs = queueAction(
  'failedJobs',
  listedIds,
  async (input, failed, connection, access) => {
    const trash = dashboardTrashWrite(access);
    const { acting, unmatched, unmatchedIds } = await stillListed(input, connection);
    const forgotten = acting.length === 0 ? 0 : await failed.forgetFailedIds(acting, trash);
    return { forgotten, notFailed: acting.length - forgotten, unmatched, unmatchedIds, kept: await keepsTrash(connection, trash) };
  },
  {
    action: 'forget failed jobs',
    target: describeListed,
    outcome: ({ forgotten, notFailed, unmatched }) => describeFoundOutcome(`forgot ${forgotten}, ${notFailed} no longer failed`, unmatched),
  },
  queuesFailingRecently,
);

/** One bounded step of "retry every failed job"; the client repeats it from `next` while `remaining` > 0. */
export const retryOldestStep = queueAction(
  'failedJobs',
  // `from`: where the step before said to go on (Horizon keeps retried jobs on its list).
  z.object({
    maxAttempts,
    from: z
      .string()
      .regex(/^\d{1,15}$/)
      .nullable()
      .optional(),
  }),
  ({ maxAttempts, from }, failed) => presentOrRefused(retriedHere(failed).oldest)({ maxAttempts, from }),
  {
    action: 'retry all failed jobs (one step)',
    target: () => 'the oldest failed jobs',
    outcome: (step) => `${describeRetry(step)}; ${step.remaining} left to look at`,
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
  queuesFailingRecently,
);

/** How many failed jobs a forget would touch, for the confirmation. */
export const previewForget = queueReadAction('failedJobs', z.object({ before: utcDate.nullable() }), async ({ before }, failed) => ({
  count: await failed.countFailedBefore(before),
}));
