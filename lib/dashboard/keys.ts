import { hashTagOf } from '@/lib/redis/hash-slot';

/**
 * QueueLens's own keys: what the dashboard itself keeps in Redis (the audit
 * log, the throughput history), under a prefix of its own. They are
 * kept apart from the driver's prefix (`QUEUE_PREFIX`) so that the driver's
 * layout stays exactly the PHP driver's: the census and the doctor walk
 * that prefix and would otherwise meet keys the driver never creates.
 */

export const DEFAULT_DASHBOARD_PREFIX = 'queuelens:';

export interface DashboardKeys {
  readonly prefix: string;
  /** stream: one entry per mutation made through QueueLens, capped (lib/dashboard/audit-log.ts) */
  readonly audit: string;
  /** hash: session id → the open session's role, name and expiry (lib/auth/session-store.ts) */
  readonly sessions: string;
  /** hash: one layout doctor check of one connection, its state and the findings it kept, with an expiry (lib/dashboard/layout-doctor-runs.ts) */
  layoutDoctorRun(connection: string, id: string): string;
}

export function dashboardKeys(prefix: string): DashboardKeys {
  return {
    prefix,
    audit: `${prefix}audit`,
    sessions: `${prefix}sessions`,
    layoutDoctorRun: (connection, id) => `${prefix}layout-doctor:${connection}:${id}`,
  };
}

/** The resolutions throughput history is kept at (lib/dashboard/history.ts). */
export type HistoryResolution = '5s' | '1m';

/** QueueLens's throughput keys for one driver prefix: each layout watched has a sampler and a history of its own. */
export interface ThroughputKeys {
  /** string: the token of the dashboard instance that samples, with an expiry */
  readonly sampler: string;
  /** hash: per queue, the failures the sampler has counted, for /api/metrics' counter */
  readonly failedTotals: string;
  /** stream: one point per sample (5s) or per minute (1m), of one queue, or of every queue together when `queue` is null */
  series(resolution: HistoryResolution, queue: string | null): string;
}

/**
 * Keyed by the driver's prefix, not the connection's name, so that
 * dashboards naming one Redis differently still share one sampler and one
 * history. The driver prefix sits in a hash tag so that, in a cluster,
 * every throughput key of a layout is in one slot and a pipeline of them
 * goes to one node (a prefix holding braces itself ends the tag early, at
 * the same place in every one of these keys).
 */
export function throughputKeys(keys: DashboardKeys, driverPrefix: string): ThroughputKeys {
  const base = `${keys.prefix}throughput:{${driverPrefix}}:`;
  return {
    sampler: `${base}sampler`,
    failedTotals: `${base}failed-total`,
    series: (resolution, queue) => (queue === null ? `${base}${resolution}:all` : `${base}${resolution}:q:${queue}`),
  };
}

/** QueueLens's trash for one driver prefix (lua/includes/trash.lua): what a forget took out, kept to restore. */
export interface TrashKeys {
  /** what the scripts build the per-job keys from: `j:{id}` (the job's hash, renamed there whole) and `w:{id}` (where it was, who took it) */
  readonly prefix: string;
  /** sorted set: trashed job ids scored by the unix millisecond they were trashed */
  readonly index: string;
  /** hash: per trashed id, the bytes its keys took when kept; and string: their total, which the byte bound holds down */
  readonly sizes: string;
  readonly bytes: string;
  job(id: string): string;
  where(id: string): string;
}

/**
 * Keyed by the driver's prefix, so that every dashboard over the same queues
 * sees one trash, and in the driver's own slot: a forget moves a job's hash
 * into the trash in one script, which a Redis Cluster allows only within one
 * slot. A prefix with a hash tag (as a cluster requires) is written as it
 * is, so its tag is the key's first; one without is put in braces, so the
 * trash of one layout is still in one slot.
 */
export function trashKeys(keys: DashboardKeys, driverPrefix: string): TrashKeys {
  const inDriverSlot = hashTagOf(driverPrefix) === null ? `{${driverPrefix}}` : driverPrefix;
  const base = `${keys.prefix}trash:${inDriverSlot}:`;
  return {
    prefix: base,
    index: `${base}index`,
    // lua/includes/trash.lua builds these from the prefix as well
    sizes: `${base}sizes`,
    bytes: `${base}bytes`,
    job: (id) => `${base}j:${id}`,
    where: (id) => `${base}w:${id}`,
  };
}

/**
 * The prefix from `QUEUELENS_PREFIX`, or `queuelens:`. An empty value counts
 * as unset: it would put QueueLens's keys at the top of the database, where
 * `audit` could be anybody's key.
 */
export function dashboardPrefixFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.QUEUELENS_PREFIX || DEFAULT_DASHBOARD_PREFIX;
}

/** QueueLens's alert keys of one connection (lib/dashboard/alert-sender.ts), in one hash slot. */
export interface AlertKeys {
  /** string: the token of the dashboard instance that sends this connection's alerts, with an expiry */
  readonly lease: string;
  /** hash: per mark of a queue (notices.ts' markField), what was last sent for it, JSON */
  readonly sent: string;
  /** hash: per mark of a queue, until when it is silenced, unix seconds */
  readonly silences: string;
  /** stream: the latest notices sent, capped */
  readonly recent: string;
}

/**
 * Keyed by the connection's name, as the operator configures its webhooks
 * and silences it; the name sits in a hash tag (names hold no braces) so
 * that in a cluster one pipeline reaches them all.
 */
export function alertKeys(keys: DashboardKeys, connection: string): AlertKeys {
  const base = `${keys.prefix}alerts:{${connection}}:`;
  return { lease: `${base}lease`, sent: `${base}sent`, silences: `${base}silences`, recent: `${base}recent` };
}
