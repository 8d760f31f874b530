import 'server-only';
import { readHistory, RecentHistory, resolutionFor, type HistoryPoint, type HistoryRange } from '@/lib/dashboard/history';
import { dashboardKeys, dashboardPrefixFromEnv, throughputKeys, type ThroughputKeys } from '@/lib/dashboard/keys';
import { glanceOf, type QueueHistory, type ThroughputGlance } from '@/lib/queries/throughput';
import type { Connection } from '@/lib/dashboard/connections';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { readQueue, type ReadResult } from './queue';

/** The throughput keys of the layout `queue` reads, under QUEUELENS_PREFIX. */
export function throughputKeysOf(queue: RedisQueue): ThroughputKeys {
  return throughputKeys(dashboardKeys(dashboardPrefixFromEnv()), queue.keys.prefix);
}

/** One queue's history over `range`, for GET /api/queues/{queue}/history and the page's prefetch. */
export function readQueueHistory(name: string, range: HistoryRange): Promise<ReadResult<QueueHistory>> {
  return readQueue(async (queue) => ({
    queue: name,
    range,
    resolution: resolutionFor(range),
    points: await queue.attempt(() => readHistory(queue.redis, throughputKeysOf(queue), name, range)),
  }), ['history', name, range]);
}

const cache = globalThis as typeof globalThis & { queuelensRecentHistories?: Map<string, RecentHistory> };

/** The overview's 15 minutes of history per connection, kept between polls (see RecentHistory). */
function recentHistoryOf(connection: Connection): RecentHistory {
  const histories = (cache.queuelensRecentHistories ??= new Map());
  let history = histories.get(connection.name);
  if (!history) histories.set(connection.name, (history = new RecentHistory('15m')));
  return history;
}

/** The overview's throughput: every queue together over the last 15 minutes, and the glance of each of `names`, in their order. */
export async function readThroughputGlance(queue: RedisQueue, connection: Connection, names: readonly string[]): Promise<{ total: HistoryPoint[]; queues: ThroughputGlance[] }> {
  const [total, ...perQueue] = await queue.attempt(() => recentHistoryOf(connection).read(queue.redis, throughputKeysOf(queue), [null, ...names]));
  return { total: total!, queues: perQueue.map(glanceOf) };
}
