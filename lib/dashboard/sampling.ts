import { isAbsent, type QueueLayout } from '../layouts/adapter';
import { openLayout } from '../layouts/open-layout';
import type { LogLevel } from '../log-event';
import { AlertSender, type AlertSenderOptions } from './alert-sender';
import type { Connection } from './connections';
import { overviewTickOf, type EveryQueueOverview } from './every-queue-overview';
import { ThroughputSampler } from './history';
import { dashboardKeys, throughputKeys } from './keys';

/**
 * `connection`'s layout over a Redis connection of its own, for a loop that
 * runs beside the pages (so a slow read never queues behind a page's), with
 * the pages' command timeout.
 */
export function openOwnLayout(connection: Connection): Promise<QueueLayout> {
  return openLayout(connection.settings, connection.layout, { commandTimeoutMs: connection.settings.timeout * 2500 });
}

export const DEFAULT_SAMPLE_MS = 5_000;
/** Faster than this, sampling would cost Redis more than it tells. */
const MIN_SAMPLE_MS = 250;
/** The lock outlives a few missed ticks, and a dead instance is replaced within as many. */
const LOCK_TICKS = 3;
/** A connection that keeps failing is tried less and less often, at least once a minute. */
const MAX_BACKOFF_MS = 60_000;

/** The sampling interval from `QUEUELENS_SAMPLE_MS`, or 5 s; anything unreadable or too small falls back to the default. */
export function sampleMsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const ms = Number(env.QUEUELENS_SAMPLE_MS);
  return Number.isSafeInteger(ms) && ms >= MIN_SAMPLE_MS ? ms : DEFAULT_SAMPLE_MS;
}

export interface SamplingOptions {
  connections: readonly Connection[];
  /** QueueLens's own prefix, where history and the lock go */
  dashboardPrefix: string;
  intervalMs: number;
  log: (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;
  /** how alerts word a mark and link to its page; without it, no connection's alerts are sent */
  alerts?: Pick<AlertSenderOptions, 'describe' | 'publicUrl'>;
}

export interface Sampling {
  /** Stops sampling and closes the connections it opened; a tick under way finishes first. */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, for every connection, each on a Redis connection of
 * its own (so a slow tick never queues behind a page's reads): samples the
 * throughput where the layout has it (its ThroughputSource), then reads the
 * overview of every queue that every viewer is answered from until the next
 * tick (lib/dashboard/every-queue-overview.ts; the first one at once, so
 * the first viewer seldom waits for it). A failure is logged once and the
 * connection is tried again with a backoff (doubling, at most a minute),
 * reconnecting when it must; nothing here throws into the server. Ticks
 * never overlap: the next one is scheduled when the last has finished.
 */
export function startSampling({ connections, dashboardPrefix, intervalMs, log, alerts }: SamplingOptions): Sampling {
  const keys = dashboardKeys(dashboardPrefix);
  const opened = new Map<string, Promise<{ layout: QueueLayout; sampler: ThroughputSampler | null }>>();
  // Per failing connection: failures in a row and when to try again.
  const failing = new Map<string, { failures: number; retryAt: number }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const senders = new Map<string, AlertSender>();
  const alertsFailing = new Set<string>();
  // Per connection, the alerts being sent: a slow webhook (up to its timeout) never delays sampling, and a tick whose alerts are still going out starts no second send.
  const sending = new Map<string, Promise<void>>();

  const senderOf = (connection: Connection): AlertSender | null => {
    if (!alerts || !connection.notify) return null;
    let sender = senders.get(connection.name);
    if (!sender) {
      const { notify } = connection;
      sender = new AlertSender({ ...alerts, connection: { name: connection.name, notify }, dashboardPrefix, leaseMs: intervalMs * LOCK_TICKS, log });
      senders.set(connection.name, sender);
    }
    return sender;
  };

  /** Sends the marks this tick judged; a failure is logged once until sending works again, and never stops the sampling. */
  const sendAlerts = async (connection: Connection, layout: QueueLayout, judged: EveryQueueOverview) => {
    const sender = senderOf(connection);
    if (!sender) return;
    try {
      await sender.tick(layout.connection, judged);
      if (alertsFailing.delete(connection.name)) log('info', 'sending alerts works again', { connection: connection.name });
    } catch (error) {
      if (!alertsFailing.has(connection.name)) log('error', 'sending alerts failed; trying again next tick', { connection: connection.name, error });
      alertsFailing.add(connection.name);
    }
  };

  const samplerOf = (connection: Connection) => {
    let open = opened.get(connection.name);
    if (!open) {
      open = openOwnLayout(connection).then((layout) => {
        const source = layout.throughput;
        if (isAbsent(source)) return { layout, sampler: null };
        return { layout, sampler: new ThroughputSampler(source, throughputKeys(keys, source.historyScope), { lockMs: intervalMs * LOCK_TICKS }) };
      });
      opened.set(connection.name, open);
      open.catch(() => opened.delete(connection.name));
    }
    return open;
  };

  const tickOne = async (connection: Connection) => {
    const outage = failing.get(connection.name);
    if (outage && Date.now() < outage.retryAt) return;
    try {
      const { layout, sampler } = await samplerOf(connection);
      await sampler?.tick();
      // After the sample, so that the overview's throughput has its newest point.
      const overview = overviewTickOf(connection, layout, dashboardPrefix);
      await overview.refresh();
      if (overview.settled.failure) throw overview.settled.failure.error;
      // The marks just judged for the page, so alerts cost no read of their own; not awaited, so a slow webhook never delays sampling.
      const judged = overview.settled.latest;
      if (judged && !sending.has(connection.name)) {
        sending.set(
          connection.name,
          sendAlerts(connection, layout, judged.value).finally(() => sending.delete(connection.name)),
        );
      }
      if (failing.delete(connection.name)) log('info', 'sampling works again', { connection: connection.name });
    } catch (error) {
      // Said once per outage, not every few seconds.
      if (!outage) log('error', 'sampling failed; retrying with backoff', { connection: connection.name, error });
      // Backing off spares a server whose Redis is down a connection attempt every interval.
      const failures = (outage?.failures ?? 0) + 1;
      failing.set(connection.name, { failures, retryAt: Date.now() + Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** failures) });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = Promise.all(connections.map(tickOne)).then(schedule);
    }, intervalMs);
    // Sampling alone never keeps the process alive.
    timer.unref();
  };
  for (const connection of connections) {
    samplerOf(connection)
      .then(({ layout }) => overviewTickOf(connection, layout, dashboardPrefix).refresh())
      .catch(() => undefined);
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all(sending.values());
      const open = [...opened.values()];
      opened.clear();
      await Promise.allSettled(open.map(async (opening) => (await opening).layout.close()));
    },
  };
}
