import type { DelayedTimeline } from '../inspect/delayed-timeline';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { DelayedTimeline };

/** GET /api/queues/{queue}/delayed: one queue's delayed set over time. */
export function delayedTimelinePath(queue: string): string {
  return `/api/queues/${encodeURIComponent(queue)}/delayed`;
}

export function delayedTimelineQuery(queue: string) {
  return liveQueryOptions<DelayedTimeline>(queryKeys.queues.delayed(queue), delayedTimelinePath(queue));
}
