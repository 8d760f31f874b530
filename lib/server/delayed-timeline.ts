import 'server-only';
import { readDelayedTimeline, type DelayedTimeline } from '@/lib/inspect/delayed-timeline';
import { readCapability, type ReadResult } from './queue';

/** Rows of "next due": enough to see what is coming, few enough to poll every second or two. */
const NEXT_LIMIT = 20;

/** One queue's delayed timeline, for GET /api/queues/{queue}/delayed and the pages' prefetch. */
export function readDelayedTimelinePage(name: string): Promise<ReadResult<DelayedTimeline>> {
  return readCapability('delayedTimeline', (queue) => readDelayedTimeline(queue, name, { limit: NEXT_LIMIT }), ['delayed', name]);
}
