'use server';

import { z } from 'zod';
import type { ClaimRepairOutcome } from '@/lib/shapes/claim-repairs';
import { inputQueue, queueAction } from '@/lib/server/action';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const where = {
  queue: z.string().min(1).max(1024),
  level: z.string().regex(/^-?\d{1,20}$/, 'expected a priority level'),
  entry: z.string().regex(/^\d{1,20}-\d{1,20}$/, 'expected a stream entry id'),
};
/** What the operator saw: the repair applies only while the job still says exactly this. */
const seenReservation = z.object({
  ...where,
  jobId: z.number().int().positive(),
  reservedBy: z.string().min(1).max(1024),
  reservedUntil: z.string().regex(/^\d{1,20}$/, 'expected unix seconds'),
  attempts: z.string().max(32),
});

function describeReservation({ jobId, queue, reservedBy }: { jobId: number; queue: string; reservedBy: string }): string {
  return `job ${jobId} on ${queue}, held by ${reservedBy}`;
}

function describeRepair(outcome: ClaimRepairOutcome): string {
  return outcome.done ? 'done' : outcome.message;
}

/** Releases a held job now: back to ready on its level, attempts untouched. */
export const releaseNow = queueAction(
  'claimRepairs',
  seenReservation,
  (seen, repairs) => repairs.release(seen),
  {
    action: 'release a reservation',
    target: describeReservation,
    outcome: describeRepair,
  },
  inputQueue,
);

/** Fails a held job with the operator's reason, as fail() would. */
export const failWithReason = queueAction(
  'claimRepairs',
  seenReservation.extend({ reason: z.string().trim().min(1, 'give a reason').max(60_000) }),
  ({ reason, ...seen }, repairs) => repairs.fail(seen, reason),
  { action: 'fail a reservation', target: (seen) => `${describeReservation(seen)}, reason: ${seen.reason}`, outcome: describeRepair },
  inputQueue,
);

/** Acknowledges and deletes a pending entry whose job is gone. */
export const cleanUpTombstone = queueAction(
  'claimRepairs',
  z.object({ ...where, jobId: z.number().int().positive().nullable() }),
  (seen, repairs) => repairs.cleanUp(seen),
  {
    action: 'clean up a tombstone',
    target: ({ queue, level, entry }) => `entry ${entry} of ${queue} level ${level}`,
    outcome: describeRepair,
  },
  inputQueue,
);
