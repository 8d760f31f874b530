import 'server-only';
import { gapsOf } from '@/lib/dashboard/every-queue-overview';
import { readHistory, resolutionFor, type HistoryRange } from '@/lib/dashboard/history';
import { dashboardKeys, dashboardPrefixFromEnv, throughputKeys, type ThroughputKeys } from '@/lib/dashboard/keys';
import type { ThroughputSource } from '@/lib/layouts/adapter';
import type { QueueHistory } from '@/lib/queries/throughput';
import { readCapability, type ReadResult } from './queue';

/** The history keys of `source`, under QUEUELENS_PREFIX. */
export function throughputKeysOf(source: ThroughputSource): ThroughputKeys {
  return throughputKeys(dashboardKeys(dashboardPrefixFromEnv()), source.historyScope);
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
