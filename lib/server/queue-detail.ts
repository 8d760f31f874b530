import 'server-only';
import { readQueueDetail } from '@/lib/inspect/queue-detail';
import type { QueueDetail } from '@/lib/queries/queue-detail';
import { readCapability, type ReadResult } from './queue';

/** Rows per list on the queue page: enough to see what comes next, few enough to poll every second or two. */
const LIST_LIMIT = 20;

/** One queue's page, for GET /api/queues/{queue} and the page's prefetch. */
export function readQueuePage(name: string): Promise<ReadResult<QueueDetail>> {
  return readCapability('queueDetail', (queue) => readQueueDetail(queue, name, { limit: LIST_LIMIT }), ['queue', name]);
}
