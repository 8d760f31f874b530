/**
 * QueueLens's own keys: what the dashboard itself keeps in Redis (the audit
 * log; later the throughput history), under a prefix of its own. They are
 * kept apart from the driver's prefix (`QUEUE_PREFIX`) so that the driver's
 * layout stays exactly the PHP driver's: the census and the doctor walk
 * that prefix and would otherwise meet keys the driver never creates.
 */

export const DEFAULT_DASHBOARD_PREFIX = 'queuelens:';

export interface DashboardKeys {
  readonly prefix: string;
  /** stream: one entry per mutation made through QueueLens, capped (lib/dashboard/audit-log.ts) */
  readonly audit: string;
}

export function dashboardKeys(prefix: string): DashboardKeys {
  return { prefix, audit: `${prefix}audit` };
}

/**
 * The prefix from `QUEUELENS_PREFIX`, or `queuelens:`. An empty value counts
 * as unset: it would put QueueLens's keys at the top of the database, where
 * `audit` could be anybody's key.
 */
export function dashboardPrefixFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.QUEUELENS_PREFIX || DEFAULT_DASHBOARD_PREFIX;
}
