import { isAbsent, type QueueLayout } from '../layouts/adapter';
import type { LogLevel } from '../log-event';
import type { Connection } from './connections';
import { RecentHistory } from './history';
import { dashboardKeys, throughputKeys } from './keys';
import { openOwnLayout } from './sampling';

// On globalThis: the server's start-up (instrumentation) and its routes are
// bundled apart, and `next dev` re-evaluates modules, but all of them run in
// one process and must see the same histories.
const cache = globalThis as typeof globalThis & { queuelensRecentHistories?: Map<string, RecentHistory> };

/** The overview's 15 minutes of history on `connection` (its name), kept between polls (see RecentHistory). */
export function overviewHistoryOf(connection: string): RecentHistory {
  const histories = (cache.queuelensRecentHistories ??= new Map());
  let history = histories.get(connection);
  if (!history) histories.set(connection, (history = new RecentHistory('15m')));
  return history;
}

/**
 * Reads the overview's 15 minutes of every queue, and of all of them
 * together, into its RecentHistory: at start-up, so that the first
 * person to open the overview does not wait for thousands of stream entries
 * to be decoded (about 200–400 ms at 50 queues). Each connection whose
 * layout has throughput is read on a Redis connection of its own, closed
 * afterwards. Never throws: a connection that cannot be read is logged, and
 * its overview reads cold as before.
 */
export async function warmOverviewHistories({
  connections,
  dashboardPrefix,
  log,
}: {
  connections: readonly Connection[];
  dashboardPrefix: string;
  log: (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;
}): Promise<void> {
  const keys = dashboardKeys(dashboardPrefix);
  await Promise.all(
    connections.map(async (connection) => {
      let layout: QueueLayout | undefined;
      try {
        layout = await openOwnLayout(connection);
        const source = layout.throughput;
        if (isAbsent(source)) return;
        const names = await source.queueNames();
        await source.connection.attempt(() =>
          overviewHistoryOf(connection.name).read(source.connection.redis, throughputKeys(keys, source.historyScope), [null, ...names]),
        );
      } catch (error) {
        log('warn', 'could not read the overview’s history at start-up; the first overview reads it', { connection: connection.name, error });
      } finally {
        await layout?.close();
      }
    }),
  );
}
