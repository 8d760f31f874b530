/** The guard on a bulk retry: a confirmation past a size, and a warning when the jobs failed alike. */

import { formatCount } from '@/components/ui/format-count';

/** A retry of more jobs than this asks first: a mistaken retry of thousands floods the queues and their workers. */
export const RETRY_CONFIRM_THRESHOLD = 100;

const QUOTED_ERROR_LIMIT = 80;

/**
 * What to say when most of `errors` (each job's first line of error) are one
 * and the same: a deterministic failure that a retry will likely meet again.
 * Null when no error is shared by more than half of them.
 */
export function sameErrorWarning(errors: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  let [shared, sharedBy] = ['', 0];
  for (const [error, count] of counts) if (count > sharedBy) [shared, sharedBy] = [error, count];
  if (shared.trim() === '' || sharedBy * 2 <= errors.length) return null;
  const quoted = shared.length > QUOTED_ERROR_LIMIT ? `${shared.slice(0, QUOTED_ERROR_LIMIT - 1)}…` : shared;
  const who = sharedBy === errors.length ? `all ${formatCount(sharedBy)}` : `${formatCount(sharedBy)} of ${formatCount(errors.length)}`;
  return `${who} failed with '${quoted}': a retry will likely fail again`;
}
