'use server';

import { z } from 'zod';
import { promoteDueStep, runDelayedJobNow } from '@/lib/queue/delayed-repairs';
import { queueAction } from '@/lib/server/action';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const queueName = z.string().min(1).max(1000);

/** One bounded step of "promote due jobs now" (at most PROMOTE_LIMIT); the client repeats it while `remainingDue` > 0. */
export const promoteDueJobs = queueAction('delayedTimeline', z.object({ queue: queueName }), ({ queue: name }, queue) => promoteDueStep(queue, name), {
  action: 'promote due jobs (one step)',
  target: ({ queue }) => `due jobs of ${queue}`,
  outcome: ({ promoted, vanished, remainingDue }) => `promoted ${promoted.length}, ${vanished.length} gone, ${remainingDue} still due`,
});

/** Moves one delayed job into its stream now; a job no longer in the delayed set answers `not-delayed`. */
export const runDelayedNow = queueAction('delayedTimeline', z.object({ queue: queueName, id: z.number().int().positive() }), ({ queue: name, id }, queue) => runDelayedJobNow(queue, name, id), {
  action: 'run a delayed job now',
  target: ({ queue, id }) => `job ${id} on ${queue}`,
  outcome: (result) => result.outcome,
});
