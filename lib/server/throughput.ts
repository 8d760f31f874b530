import 'server-only';
import { readHistory, resolutionFor, type HistoryPoint, type HistoryRange } from '@/lib/dashboard/history';
import { overviewHistoryOf } from '@/lib/dashboard/overview-history';
import { dashboardKeys, dashboardPrefixFromEnv, throughputKeys, type ThroughputKeys } from '@/lib/dashboard/keys';
import { isAbsent, type ThroughputSource } from '@/lib/layouts/adapter';
import { glanceOf, type QueueHistory, type ThroughputGaps, type ThroughputGlance } from '@/lib/queries/throughput';
import type { Connection } from '@/lib/dashboard/connections';
import { readCapability, type ReadResult } from './queue';

/** The history keys of `source`, under QUEUELENS_PREFIX. */
export function throughputKeysOf(source: ThroughputSource): ThroughputKeys {
  return throughputKeys(dashboardKeys(dashboardPrefixFromEnv()), source.historyScope);
}

/** The figures `source`'s samples do not hold, each with the sentence a page shows instead. */
export function gapsOf(source: ThroughputSource): ThroughputGaps {
  return {
    ...(isAbsent(source.failedJobs) ? { failed: source.failedJobs.absent } : {}),
    ...(source.waitUnsampled === null ? {} : { wait: source.waitUnsampled }),
  };
}

/** One queue's history over `range`, for GET /api/queues/{queue}/history and the page's prefetch. */
export function readQueueHistory(name: string, range: HistoryRange): Promise<ReadResult<QueueHistory>> {
  return readCapability(
    'throughput',
    async (source) => ({
      queue: name,
      range,
      resolution: resolutionFor(range),
      points: await source.connection.attempt(() => readHistory(source.connection.redis, throughputKeysOf(source), name, range)),
      gaps: gapsOf(source),
    }),
    ['history', name, range],
  );
}

/** The overview's throughput: every queue together over the last 15 minutes, and the glance of each of `names`, in their order. */
export async function readThroughputGlance(
  source: ThroughputSource,
  connection: Connection,
  names: readonly string[],
): Promise<{ total: HistoryPoint[]; queues: ThroughputGlance[] }> {
  const [total, ...perQueue] = await source.connection.attempt(() =>
    overviewHistoryOf(connection.name).read(source.connection.redis, throughputKeysOf(source), [null, ...names]),
  );
  return { total: total!, queues: perQueue.map(glanceOf) };
}
