/** The toasts' wording for retry and forget outcomes. */

import { plural } from '@/components/ui/format-count';

function wasOrWere(count: number): string {
  return plural(count, 'was', 'were');
}

/** "Retried 3 jobs, 1 was no longer failed" */
export function describeRetry(requeued: number, notFailed: number, missing: number): string {
  const parts = [`Retried ${plural(requeued, 'job')}`];
  if (notFailed > 0) parts.push(`${wasOrWere(notFailed)} no longer failed`);
  if (missing > 0) parts.push(`${wasOrWere(missing)} gone and left the failed list`);
  return parts.join(', ');
}

/** "Forgot 3 jobs, 1 was no longer failed" */
export function describeForget(forgotten: number, notFailed: number): string {
  const parts = [`Forgot ${plural(forgotten, 'job')}`];
  if (notFailed > 0) parts.push(`${wasOrWere(notFailed)} no longer failed`);
  return parts.join(', ');
}

/** "Stopped after retrying 400 of 1,000 jobs" */
export function describeStop(verb: string, handled: number, total: number): string {
  return `Stopped after ${verb} ${handled.toLocaleString('en')} of ${plural(total, 'job')}`;
}
