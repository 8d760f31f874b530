'use server';

import { z } from 'zod';
import { BATCH_SIZE, type RetryOutcome } from '@/lib/queue/redis-queue';
import { describeJobs, queueAction, queueReadAction } from '@/lib/server/action';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const jobIds = z.array(z.number().int().positive()).min(1).max(BATCH_SIZE);
const maxAttempts = z.number().int().min(1).max(1000).optional();
/** Y-m-d or Y-m-d H:i:s in UTC; the driver checks the date itself. */
const utcDate = z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'expected Y-m-d or Y-m-d H:i:s (UTC)');

function describeRetry({ requeued, notFailed, missing }: RetryOutcome): string {
  return `requeued ${requeued.length}, ${notFailed.length} no longer failed, ${missing.length} gone`;
}

/** Requeues these failed jobs; ids no longer in the failed set are reported, not requeued. */
export const retryJobs = queueAction('failedList', z.object({ ids: jobIds, maxAttempts }), ({ ids, maxAttempts }, queue) => queue.retryFailed(ids, maxAttempts), {
  action: 'retry failed jobs',
  target: ({ ids }) => describeJobs(ids),
  outcome: describeRetry,
});

/** Forgets these failed jobs; ids no longer in the failed set are left alone. */
export const forgetJobs = queueAction(
  'failedList',
  z.object({ ids: jobIds }),
  async ({ ids }, queue) => {
    const forgotten = await queue.forgetFailedIds(ids);
    return { forgotten, notFailed: ids.length - forgotten };
  },
  { action: 'forget failed jobs', target: ({ ids }) => describeJobs(ids), outcome: ({ forgotten, notFailed }) => `forgot ${forgotten}, ${notFailed} no longer failed` },
);

/** One bounded step of "retry every failed job"; the client repeats it while `remaining` > 0. */
export const retryOldestStep = queueAction('failedList', z.object({ maxAttempts }), ({ maxAttempts }, queue) => queue.retryOldestFailed(maxAttempts), {
  action: 'retry all failed jobs (one step)',
  target: () => 'the oldest failed jobs',
  outcome: (step) => `${describeRetry(step)}; ${step.remaining} still failed`,
});

/** One bounded step of "forget every failed job" or "forget those failed before a date". */
export const forgetOldestStep = queueAction('failedList', z.object({ before: utcDate.nullable() }), ({ before }, queue) => queue.forgetOldestFailed(before), {
  action: 'forget all failed jobs (one step)',
  target: ({ before }) => (before === null ? 'every failed job' : `failed jobs that failed before ${before} UTC`),
  outcome: ({ forgotten, remaining }) => `forgot ${forgotten}; ${remaining} left to forget`,
});

/** How many failed jobs a forget would touch, for the confirmation. */
export const previewForget = queueReadAction('failedList', z.object({ before: utcDate.nullable() }), async ({ before }, queue) => ({
  count: await queue.countFailedBefore(before),
}));
