/** The toasts' wording for retry and forget outcomes. */

import { formatCount, plural } from '@/components/ui/format-count';

function wasOrWere(count: number): string {
  return plural(count, 'was', 'were');
}

/** "Retried 3 jobs, 1 was no longer failed"; `refused` is why each job still failed was not retried. */
export function describeRetry(requeued: number, notFailed: number, missing: number, refused: readonly string[] = []): string {
  const parts = [`Retried ${plural(requeued, 'job')}`];
  if (notFailed > 0) parts.push(`${wasOrWere(notFailed)} no longer failed`);
  if (missing > 0) parts.push(`${wasOrWere(missing)} gone and left the failed list`);
  if (refused.length > 0) parts.push(`${formatCount(refused.length)} not retried (${refused[0]}${refused.length > 1 ? ', …' : ''})`);
  return parts.join(', ');
}

/** "Forgot 3 jobs, 1 was no longer failed" */
export function describeForget(forgotten: number, notFailed: number): string {
  const parts = [`Forgot ${plural(forgotten, 'job')}`];
  if (notFailed > 0) parts.push(`${wasOrWere(notFailed)} no longer failed`);
  return parts.join(', ');
}

/** A summary with the listed jobs a search re-check left alone: "Retried 3 jobs, 1 no longer matched the search". */
export function withUnmatched(summary: string, unmatched: number): string {
  return unmatched > 0 ? `${summary}, ${formatCount(unmatched)} no longer matched the search` : summary;
}

/** "Stopped after retrying 400 of 1,000 jobs" */
export function describeStop(verb: string, handled: number, total: number): string {
  return `Stopped after ${verb} ${handled.toLocaleString('en')} of ${plural(total, 'job')}`;
}
