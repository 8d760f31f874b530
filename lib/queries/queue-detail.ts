import type { QueueDetail } from '../inspect/queue-detail';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { QueueDetail };

/** GET /api/queues/{queue}: one queue's counts, levels, next, delayed and latest failed jobs. */
export function queueDetailPath(queue: string): string {
  return `/api/queues/${encodeURIComponent(queue)}`;
}

export function queueDetailQuery(queue: string) {
  return liveQueryOptions<QueueDetail>(queryKeys.queues.detail(queue), queueDetailPath(queue));
}
