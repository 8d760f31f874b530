import 'server-only';
import { readHistory, resolutionFor, type HistoryPoint, type HistoryRange } from '@/lib/dashboard/history';
import { overviewHistoryOf } from '@/lib/dashboard/overview-history';
import { dashboardKeys, dashboardPrefixFromEnv, throughputKeys, type ThroughputKeys } from '@/lib/dashboard/keys';
import { glanceOf, type QueueHistory, type ThroughputGlance } from '@/lib/queries/throughput';
import type { Connection } from '@/lib/dashboard/connections';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { readCapability, type ReadResult } from './queue';

/** The throughput keys of the layout `queue` reads, under QUEUELENS_PREFIX. */
export function throughputKeysOf(queue: RedisQueue): ThroughputKeys {
  return throughputKeys(dashboardKeys(dashboardPrefixFromEnv()), queue.keys.prefix);
}

/** One queue's history over `range`, for GET /api/queues/{queue}/history and the page's prefetch. */
export function readQueueHistory(name: string, range: HistoryRange): Promise<ReadResult<QueueHistory>> {
  return readCapability('throughput', async (queue) => ({
    queue: name,
    range,
    resolution: resolutionFor(range),
    points: await queue.attempt(() => readHistory(queue.redis, throughputKeysOf(queue), name, range)),
  }), ['history', name, range]);
}

/** The overview's throughput: every queue together over the last 15 minutes, and the glance of each of `names`, in their order. */
export async function readThroughputGlance(queue: RedisQueue, connection: Connection, names: readonly string[]): Promise<{ total: HistoryPoint[]; queues: ThroughputGlance[] }> {
  const [total, ...perQueue] = await queue.attempt(() => overviewHistoryOf(connection.name).read(queue.redis, throughputKeysOf(queue), [null, ...names]));
  return { total: total!, queues: perQueue.map(glanceOf) };
}
