import { formatDuration } from '@/components/ui/format-duration';
import { formatRelative, formatUtc } from '@/components/ui/format-moment';
import type { JobLocation } from '@/lib/shapes/job-location';

/** The finer states an operator tells apart, each with its own look. */
export type LocationKind = 'ready' | 'reserved' | 'overdue' | 'delayed' | 'due' | 'parked' | 'failed' | 'stray';

export interface LocationWords {
  kind: LocationKind;
  /** one sentence: where the job is and until when */
  headline: string;
  /** what follows from it, for the operator deciding what to do */
  detail: string;
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

function holder(reservedBy: string): string {
  return reservedBy === '' ? 'an unnamed worker' : reservedBy;
}

/**
 * Where a job is, in plain words, measured against the Redis server's `now`
 * (unix seconds) from the same read. The rules are the spec's: a claim that
 * ran out stays with its holder until a reserve reclaims it, and a delayed
 * job runs only after a worker reserving from its queue promotes it.
 */
export function describeLocation(location: JobLocation, now: number): LocationWords {
  switch (location.state) {
    case 'ready':
      return {
        kind: 'ready',
        headline: `Ready at priority ${location.level}: waiting for a worker`,
        detail: `In its level (entry ${location.entry}). Workers take higher levels first, then each level oldest first.`,
      };
    case 'reserved': {
      const { reservedBy, reservedUntil, deliveries } = location;
      const delivered = `Handed out ${times(deliveries)}, last ${formatDuration(location.idleMs / 1000)} ago.`;
      if (!location.overdue) {
        return {
          kind: 'reserved',
          headline: `Reserved by ${holder(reservedBy)} until ${formatUtc(reservedUntil, now)} (${formatRelative(reservedUntil, now)})`,
          detail: `${delivered} Only this worker can complete, release or fail it while the claim lasts.`,
        };
      }
      const ranOut =
        reservedUntil <= 0
          ? 'its claim has no deadline'
          : `claim ran out at ${formatUtc(reservedUntil, now)} (${now - reservedUntil < 1 ? 'just now' : formatRelative(reservedUntil, now)})`;
      return {
        kind: 'overdue',
        headline: `Held by ${holder(reservedBy)}, ${ranOut}`,
        detail: `${delivered} The holder most likely stopped. The job counts as reserved until the next worker that takes a job from this queue takes it back and runs it again.`,
      };
    }
    case 'delayed': {
      const { until } = location;
      if (location.parked) {
        return {
          kind: 'parked',
          headline: `Parked until ${formatUtc(until, now)}, ${formatRelative(until, now)} (a worker tried to take it back before the holder's deadline)`,
          detail: 'It waits for the deadline of the worker that held it instead of running twice at once; parking is not an attempt.',
        };
      }
      if (until <= now) {
        return {
          kind: 'due',
          headline: `Due since ${formatUtc(until, now)} (${formatRelative(until, now)}), waiting for a worker to move it into its level`,
          detail: 'Only a worker taking a job from this queue moves a due job into its level; none has since it became due.',
        };
      }
      return {
        kind: 'delayed',
        headline: `Delayed until ${formatUtc(until, now)} (${formatRelative(until, now)})`,
        detail: 'Once it is due, the next worker taking a job from this queue moves it to the back of its level.',
      };
    }
    case 'failed':
      return {
        kind: 'failed',
        headline: `Failed at ${formatUtc(location.failedAt, now)} (${formatRelative(location.failedAt, now)})`,
        detail: 'It stays in the failed list until it is retried, which puts it back on its own queue with 0 attempts, or forgotten.',
      };
    case 'stray':
      return {
        kind: 'stray',
        headline: 'Stray: in no level, not delayed and not failed',
        detail:
          'The job is stored, but no worker will find it: it may be half-written, or left by a script that did not finish. The doctor can put it back in its level.',
      };
  }
}
