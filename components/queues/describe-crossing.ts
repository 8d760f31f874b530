import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import type { ThresholdCrossing } from '@/lib/dashboard/alerts';

/** Which threshold a queue is over, its figure and the limit, in the dashboard's units: `wait 3 min over 1 min`, `backlog 1,200 over 1,000`. */
export function describeCrossing({ threshold, value, limit }: ThresholdCrossing): string {
  return threshold === 'waitSeconds'
    ? `wait ${formatDuration(value)} over ${formatDuration(limit)}`
    : `backlog ${formatCount(value)} over ${formatCount(limit)}`;
}

/** How many queues are over their thresholds, as the overview's summary says it. */
export function describeQueuesOver(count: number): string {
  return count === 1 ? '1 queue over its alert thresholds' : `${formatCount(count)} queues over their alert thresholds`;
}
