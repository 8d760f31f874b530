import type { RedisQueue } from './redis-queue';
import * as scripts from './scripts';
import type { CheckedRepairReply } from './scripts';
import type { ChangedReason, ClaimRepairOutcome, SeenReservation, SeenTombstone } from '../../shapes/claim-repairs';

const CHANGED_MESSAGES: Record<ChangedReason, string> = {
  'not-pending':
    'changed meanwhile: the entry is no longer pending (a worker completed, released or failed the job, or it was cleaned up). Nothing was changed.',
  'claim-changed':
    'changed meanwhile: the job is no longer held as shown (a worker reclaimed it, or it was parked, released or requeued). Nothing was changed.',
  'entry-changed': 'changed meanwhile: the stream entry no longer names the job shown. Nothing was changed.',
  'job-exists': 'changed meanwhile: the job hash exists, so this is not a tombstone. Nothing was changed.',
};

/** The sentence an operator reads for a repair that changed nothing. */
export function changedMessage(reason: ChangedReason): string {
  return CHANGED_MESSAGES[reason];
}

function outcomeOf({ done, detail }: CheckedRepairReply): ClaimRepairOutcome {
  if (done) return detail === undefined ? { done: true } : { done: true, entry: detail };
  const reason = (detail ?? 'not-pending') as ChangedReason;
  return { done: false, reason, message: changedMessage(reason) };
}

/** The claim as the operator saw it, which both scripts re-check before they change anything. */
function claimSeen(queue: RedisQueue, seen: SeenReservation) {
  const { entry, reservedBy, reservedUntil, attempts } = seen;
  return { group: queue.settings.group, id: seen.jobId, entry, reservedBy, reservedUntil, attempts };
}

/**
 * Hands a held job back now: its entry is acknowledged and deleted and the
 * job rejoins the back of its level's stream, ready, with attempts as they
 * were. One script; changes nothing if the reservation changed meanwhile.
 */
export function releaseReservation(queue: RedisQueue, seen: SeenReservation): Promise<ClaimRepairOutcome> {
  const k = queue.keys;
  return queue.attempt(async () =>
    outcomeOf(
      await scripts.releaseReservation.run(queue.redis, {
        stream: k.stream(seen.queue, seen.level),
        levels: k.levels(seen.queue),
        job: k.job(seen.jobId),
        ...claimSeen(queue, seen),
        level: seen.level,
        prefix: k.prefix,
      }),
    ),
  );
}

/**
 * Fails a held job for good with `reason` as its error, on fail()'s terms
 * (error cut at 60000 bytes, failed_at, unique key freed, queue:failed).
 * One script; changes nothing if the reservation changed meanwhile.
 */
export function failReservation(queue: RedisQueue, seen: SeenReservation, reason: string): Promise<ClaimRepairOutcome> {
  const k = queue.keys;
  return queue.attempt(async () =>
    outcomeOf(
      await scripts.failReservation.run(queue.redis, {
        stream: k.stream(seen.queue, seen.level),
        delayed: k.delayed(seen.queue),
        failed: k.failed,
        job: k.job(seen.jobId),
        prefix: k.prefix,
        ...claimSeen(queue, seen),
        error: reason,
      }),
    ),
  );
}

/**
 * Acknowledges and deletes a pending entry whose job hash is gone, as a
 * reserve reclaiming it would. One script; changes nothing if the job exists
 * or the entry is no longer pending.
 */
export function cleanTombstone(queue: RedisQueue, seen: SeenTombstone): Promise<ClaimRepairOutcome> {
  return queue.attempt(async () =>
    outcomeOf(
      await scripts.cleanTombstone.run(queue.redis, {
        stream: queue.keys.stream(seen.queue, seen.level),
        prefix: queue.keys.prefix,
        group: queue.settings.group,
        entry: seen.entry,
        id: seen.jobId === null ? '' : seen.jobId,
      }),
    ),
  );
}
