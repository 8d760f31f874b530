import 'server-only';
import { crossedThresholds, thresholdsFor } from '@/lib/dashboard/alerts';
import { readQueueAttention } from '@/lib/dashboard/attention';
import { readServerInfo } from '@/lib/inspect/server-info';
import type { Overview } from '@/lib/queries/overview';
import { readQueue, type ReadResult } from './queue';
import { readThroughputGlance } from './throughput';

/**
 * The overview, for GET /api/overview and the page's prefetch: every
 * registered queue, empty ones included (stats() leaves those out, as the
 * PHP driver does; the overview's rows must not come and go), each judged
 * against its connection's alert thresholds and marked where it needs
 * attention.
 */
export function readOverview(): Promise<ReadResult<Overview>> {
  return readQueue(async (queue, connection) => {
    const names = await queue.queueNames();
    const [counts, failed, server] = await Promise.all([queue.countsOf(names), queue.failedCount(), readServerInfo(queue)]);
    const [attention, throughput] = await Promise.all([readQueueAttention(queue, counts, failed, connection.marks), readThroughputGlance(queue, connection, names)]);
    const queues = counts.map((row, index) => {
      const glance = throughput.queues[index]!;
      const { marks, failedRecently, error } = attention.queues[index]!;
      const unread = row.error ?? error;
      // A queue whose keys could not be read has no figures to judge.
      const crossed = unread === undefined ? crossedThresholds(thresholdsFor(connection.alerts, row.queue), { backlog: row.total, waitSeconds: glance.waitSeconds }) : [];
      return { ...row, ...glance, error: unread, crossed, marks, failedRecently };
    });
    return { queues, failed, server, throughput: throughput.total, now: attention.now };
  }, ['overview']);
}
