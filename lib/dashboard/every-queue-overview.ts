import { isAbsent, type CountsOptions, type LayoutCounts, type QueueCounts, type QueueLayout, type ThroughputSource } from '../layouts/adapter';
import type { QueueAttention } from '../shapes/queue-attention';
import { readServerInfo } from '../redis/server-info';
import type { Overview, OverviewAbsent, OverviewQueue } from '../queries/overview';
import { glanceOf, type ThroughputGaps } from '../queries/throughput';
import { crossedThresholds, thresholdsFor } from './alerts';
import type { Connection } from './connections';
import { dashboardKeys, throughputKeys } from './keys';
import { existingTickOf, latestTickOf, type LatestTick } from './latest-tick';
import { overviewHistoryOf } from './overview-history';
import type { QueuesOverviewPage } from './overview-page';

const NO_GLANCE = { processedPerSecond: [], waitSeconds: null };
/** The name of a connection's overview among its ticks. */
const OVERVIEW_TICK = 'overview';

/** The overview of every queue, before a viewer's page is taken from it (lib/dashboard/overview-page.ts). */
export type EveryQueueOverview = Omit<Overview, keyof QueuesOverviewPage | 'freshness'> & { queues: OverviewQueue[] };

/**
 * The overview's ticks on `connection`: made by the sampler's loop over its
 * own Redis connection (lib/dashboard/sampling.ts), or by the first request
 * over the pages' `layout` when the loop has not ticked yet; whichever comes
 * second shares it.
 */
export function overviewTickOf(connection: Connection, layout: QueueLayout, dashboardPrefix: string): LatestTick<EveryQueueOverview> {
  return latestTickOf(
    connection.name,
    OVERVIEW_TICK,
    () => readEveryQueueOverview(layout, connection, dashboardPrefix),
    (kept, names) => readTouchedQueues(kept, names, layout, connection),
  );
}

/** The figures `source`'s samples do not hold, each with the sentence a page shows instead. */
export function gapsOf(source: ThroughputSource): ThroughputGaps {
  return {
    ...(isAbsent(source.failedJobs) ? { failed: source.failedJobs.absent } : {}),
    ...(isAbsent(source.meaning.pushed) ? { pushed: source.meaning.pushed.absent } : {}),
    ...(source.waitUnsampled === null ? {} : { wait: source.waitUnsampled }),
  };
}

/**
 * Every queue of `layout`, empty ones included (StaticPHP's stats() leaves
 * those out, as the PHP driver does; the overview's rows must not come and
 * go), each judged against its connection's alert thresholds and, where the
 * layout can tell, marked where it needs attention, with its throughput at a
 * glance from the history under `dashboardPrefix`. What the layout cannot
 * tell is said, not shown as zeros. Read once per sampler tick for every
 * viewer (lib/dashboard/latest-tick.ts), never per request.
 */
export async function readEveryQueueOverview(layout: QueueLayout, connection: Connection, dashboardPrefix: string): Promise<EveryQueueOverview> {
  const { attention: marking, throughput: sampled } = layout;
  const [{ queues: counts, failed, attention }, server, now] = await Promise.all([
    countedAndJudged(layout, { everyQueue: true }, connection),
    readServerInfo(layout.connection),
    layout.connection.attempt(async () => Number((await layout.connection.redis.time())[0])),
  ]);
  const names = counts.map((row) => row.queue);
  const throughput = isAbsent(sampled) ? null : await readThroughputGlance(sampled, connection, dashboardPrefix, names);
  const absent: OverviewAbsent = {
    ...(isAbsent(layout.failedJobs) ? { failedJobs: layout.failedJobs.absent } : {}),
    ...(isAbsent(marking) ? { attention: marking.absent } : {}),
    ...(isAbsent(sampled) ? { throughput: sampled.absent } : { throughputGaps: gapsOf(sampled) }),
  };
  const queues = judgedRows(layout, connection, counts, attention, (index) => throughput?.queues[index] ?? NO_GLANCE);
  return { layout: layout.description, absent, queues, failed, server, throughput: throughput?.total ?? [], now };
}

/** The overview of every queue kept from `connection`'s latest read, without reading Redis or opening its layout; null before any read. */
export function keptOverviewOf(connection: string): EveryQueueOverview | null {
  return existingTickOf<EveryQueueOverview>(connection, OVERVIEW_TICK)?.settled.latest?.value ?? null;
}

/**
 * The queues `overview` counts recent failures in: the only rows a forget of
 * failed jobs can change (it takes failures away and adds no job).
 */
export function queuesFailingRecentlyIn(overview: EveryQueueOverview): string[] {
  return overview.queues.filter((row) => (row.failedRecently?.count ?? 0) > 0).map((row) => row.queue);
}

/**
 * `kept` with the rows of `names` read again (counts, marks, thresholds
 * crossed) and the failed count, which is over every queue: what a change
 * made through the dashboard touched, read before its answer leaves, at a
 * cost that does not grow with the number of queues. A row's throughput
 * glance and the server's facts stay as the tick read them (a change does
 * not move the sampled history). Null when a name is not among `kept`'s rows
 * (a queue new to the overview): its place is found by reading every queue.
 */
export async function readTouchedQueues(
  kept: EveryQueueOverview,
  names: readonly string[],
  layout: QueueLayout,
  connection: Connection,
): Promise<EveryQueueOverview | null> {
  const keptRows = new Map(kept.queues.map((row) => [row.queue, row]));
  const touched = [...new Set(names)];
  if (touched.some((name) => !keptRows.has(name))) return null;
  const { queues: counts, failed, attention } = await countedAndJudged(layout, { only: touched }, connection);
  // A layout that knows a fixed set of queues leaves out a name it does not know.
  const read = new Set(counts.map((row) => row.queue));
  if (!touched.every((name) => read.has(name))) return null;
  const rows = new Map(
    judgedRows(layout, connection, counts, attention, (index) => {
      const { processedPerSecond, waitSeconds } = keptRows.get(counts[index]!.queue)!;
      return { processedPerSecond, waitSeconds };
    }).map((row) => [row.queue, row]),
  );
  // A new array: the pages' order, totals and attention are worked out again from it (lib/dashboard/overview-page.ts).
  return { ...kept, queues: kept.queues.map((row) => rows.get(row.queue) ?? row), failed };
}

/** The counts of the queues `options` names, with their marks where the layout judges them (null where it does not). */
async function countedAndJudged(
  layout: QueueLayout,
  options: CountsOptions,
  connection: Connection,
): Promise<LayoutCounts & { attention: QueueAttention[] | null }> {
  const marking = layout.attention;
  if (isAbsent(marking)) return { ...(await layout.counts(options)), attention: null };
  return marking.read(options, connection.marks);
}

/**
 * The overview's rows of `counts`, in order: each with its throughput glance
 * (`glanceOf` its index), judged against the connection's alert thresholds,
 * with its marks where the layout judged them.
 */
function judgedRows(
  layout: QueueLayout,
  connection: Connection,
  counts: readonly QueueCounts[],
  attention: readonly QueueAttention[] | null,
  glanceOf: (index: number) => Pick<OverviewQueue, 'processedPerSecond' | 'waitSeconds'>,
): OverviewQueue[] {
  // A layout that keeps no failed jobs (Laravel's are in the application's database) counts none: its 0 is not "none failed".
  const keepsFailures = !isAbsent(layout.failedJobs);
  return counts.map((row, index) => {
    const glance = glanceOf(index);
    const judged = attention?.[index];
    const { marks, error } = judged ?? { marks: [], error: undefined };
    const failedRecently = keepsFailures ? (judged?.failedRecently ?? null) : null;
    const unread = row.error ?? error;
    // A queue whose keys could not be read has no figures to judge.
    const crossed =
      unread === undefined ? crossedThresholds(thresholdsFor(connection.alerts, row.queue), { backlog: row.total, waitSeconds: glance.waitSeconds }) : [];
    const { queue, pending, delayed, reserved, total } = row;
    // Written out, not spread: V8 makes a spread's copy a dictionary, several times the size, and a tick makes one row per queue.
    return {
      queue,
      pending,
      delayed,
      reserved,
      total,
      processedPerSecond: glance.processedPerSecond,
      waitSeconds: glance.waitSeconds,
      error: unread,
      crossed,
      marks,
      failedRecently,
    };
  });
}

/** The overview's throughput: every queue together over the last 15 minutes, and the glance of each of `names`, in their order. */
async function readThroughputGlance(source: ThroughputSource, connection: Connection, dashboardPrefix: string, names: readonly string[]) {
  const keys = throughputKeys(dashboardKeys(dashboardPrefix), source.historyScope);
  // Only the queues a sample covers have a history: at 10,000 queues StaticPHP samples 500, and reading the others' would be 9,500 empty reads a tick.
  const sampled = await source.connection.attempt(() => source.coveredAmong(names));
  const [total, ...perQueue] = await source.connection.attempt(() =>
    overviewHistoryOf(connection.name).read(source.connection.redis, keys, [null, ...sampled]),
  );
  const glances = new Map(sampled.map((name, index) => [name, glanceOf(perQueue[index]!)]));
  return { total: total!, queues: names.map((name) => glances.get(name) ?? NO_GLANCE) };
}
