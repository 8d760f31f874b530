import 'server-only';
import { readAlertState, readRecentNotices, runningSilences, silenceMark, type RecentNotice } from '@/lib/dashboard/alert-sender';
import { overviewTickOf } from '@/lib/dashboard/every-queue-overview';
import { alertKeys, dashboardKeys, dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import type { QueueMark } from '@/lib/dashboard/marks';
import { publicUrlFromEnv, redactedWebhook, type MarkKind } from '@/lib/dashboard/notices';
import { sampleMsFromEnv } from '@/lib/dashboard/sampling';
import type { Connection } from '@/lib/dashboard/connections';
import { getLayout, readLayout, type ReadResult } from './queue';

/** How many of the latest notices the alerts page lists. */
export const RECENT_NOTICES_SHOWN = 50;

export interface AlertsPage {
  connection: string;
  /** the webhooks, each by its host only; empty when the connection sends no alerts */
  webhooks: ReturnType<typeof redactedWebhook>[];
  repeatMinutes: number | null;
  publicUrlSet: boolean;
  /** the queues the latest tick marked, with their marks */
  marked: { queue: string; marks: QueueMark[] }[];
  silences: { queue: string; kind: MarkKind; until: number }[];
  recent: RecentNotice[];
  /** the Redis server's clock, unix seconds */
  now: number;
}

function keysOf(connection: Connection) {
  return alertKeys(dashboardKeys(dashboardPrefixFromEnv()), connection.name);
}

/** The alerts page of the tab's connection: its marks from the latest sampler tick (no read per queue), its silences, its latest notices. */
export function readAlertsPage(): Promise<ReadResult<AlertsPage>> {
  return readLayout(async (layout, connection) => {
    const keys = keysOf(connection);
    const [tick, [, silences], recent] = await Promise.all([
      overviewTickOf(connection, layout, dashboardPrefixFromEnv()).current(sampleMsFromEnv() * 2),
      layout.connection.attempt(() => readAlertState(layout.connection, keys)),
      layout.connection.attempt(() => readRecentNotices(layout.connection, keys, RECENT_NOTICES_SHOWN)),
    ]);
    if (tick.latest === null) throw tick.failure?.error ?? new Error('the overview was never read');
    const { queues, now } = tick.latest.value;
    return {
      connection: connection.label,
      webhooks: (connection.notify?.webhooks ?? []).map(redactedWebhook),
      repeatMinutes: connection.notify?.repeatMinutes ?? null,
      publicUrlSet: publicUrlFromEnv() !== null,
      marked: queues.filter((row) => row.marks.length > 0).map((row) => ({ queue: row.queue, marks: row.marks })),
      silences: runningSilences(silences, now),
      recent,
      now,
    };
  });
}

/** Silences `kind` on `queue` of `connection` for `minutes` from the Redis server's now (0 lifts it); when it ends, unix seconds. */
export async function silenceFor(connection: Connection, queue: string, kind: MarkKind, minutes: number): Promise<{ until: number }> {
  const redis = (await getLayout(connection)).connection;
  return redis.attempt(async () => {
    const [seconds] = await redis.redis.time();
    const until = minutes === 0 ? 0 : Number(seconds) + minutes * 60;
    await silenceMark(redis, keysOf(connection), queue, kind, until);
    return { until };
  });
}
