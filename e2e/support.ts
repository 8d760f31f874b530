import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLocalHost, settingsFromEnv } from '@/lib/redis/config';
import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';

// QUEUELENS_E2E_PORT_BASE and QUEUELENS_E2E_REDIS_PORT move every port, so
// two runs (two working copies) can share a machine.
const PORT_BASE = Number(process.env.QUEUELENS_E2E_PORT_BASE ?? 3107);

/** The production server under test, on the Redis the tests seed. */
export const APP_PORT = PORT_BASE;
/** A second server pointed at a port nothing listens on, for the unreachable-Redis page. */
export const UNREACHABLE_APP_PORT = PORT_BASE + 1;
export const UNREACHABLE_REDIS_URL = 'redis://127.0.0.1:1';
/** A third server on a Redis the tests stop and start themselves, to watch the dashboard lose Redis and recover. */
export const RESTARTABLE_APP_PORT = PORT_BASE + 2;
export const RESTARTABLE_REDIS_PORT = Number(process.env.QUEUELENS_E2E_REDIS_PORT ?? 6397);

/**
 * The redis-server behind RESTARTABLE_REDIS_PORT, which specs start and stop
 * to see the dashboard lose and find Redis: a server of its own, without
 * saving, so what a test loads into it goes when it is stopped (by its PID).
 */
export function restartableRedis(): { start: () => void; stop: () => Promise<void> } {
  let server: ChildProcess | undefined;
  return {
    start: () => {
      server = spawn('redis-server', ['--port', String(RESTARTABLE_REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
    },
    stop: async () => {
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A pattern for text holding a moment as the dashboard writes it. `{moment}`
 * stands for the time, which also carries its date when it falls on another
 * UTC day than the server's now, so a run near midnight still matches.
 */
export function withUtcMoment(pattern: string): RegExp {
  return new RegExp(pattern.replace('{moment}', String.raw`(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d UTC`));
}

/**
 * The overview's address at `origin` (any local one when left out), as a
 * sign-in lands on it: before the page has named the connection it shows in
 * the address, and after (NameConnectionInAddress).
 */
export function overviewAddress(origin = 'http://127.0.0.1:\\d+'): RegExp {
  return new RegExp(`^${origin.replaceAll('.', '\\.')}/(\\?connection=[^&]+)?$`);
}

/** The tests write and delete keys: refuse any Redis but a local one. */
export function assertLocalRedis(): void {
  const { hostname } = settingsFromEnv();
  if (!isLocalHost(hostname)) {
    throw new Error(`The e2e tests write to Redis and only run against a local server, not ${hostname}`);
  }
}

/**
 * The run's key prefix. playwright.config.ts is evaluated in the runner and
 * again in every worker; workers inherit the runner's environment, so the
 * prefix chosen first is the one the server, the seeding and the cleanup share.
 */
export function e2ePrefix(): string {
  process.env.QUEUELENS_E2E_PREFIX ??= `e2e:${randomBytes(6).toString('hex')}:`;
  const prefix = process.env.QUEUELENS_E2E_PREFIX;
  // Cleanup deletes everything under the prefix; this keeps it off real queues.
  if (!/^e2e:[\w:-]+:$/.test(prefix)) throw new Error(`QUEUELENS_E2E_PREFIX must look like e2e:<name>:, got "${prefix}"`);
  return prefix;
}

/**
 * The run's secrets, chosen once like the prefix: every server under test
 * gets them, and the sign-in setup and the access tests use them.
 */
export function e2eSecrets(): { operator: string; viewer: string } {
  process.env.QUEUELENS_E2E_SECRET ??= randomBytes(32).toString('base64url');
  process.env.QUEUELENS_E2E_VIEWER_SECRET ??= randomBytes(32).toString('base64url');
  return { operator: process.env.QUEUELENS_E2E_SECRET, viewer: process.env.QUEUELENS_E2E_VIEWER_SECRET };
}

/** Where the sign-in setup leaves the operator's session cookie for the other specs. */
export const OPERATOR_STATE = 'test-results/.auth/operator.json';

/**
 * The run's QUEUELENS_PREFIX, for QueueLens's own keys (the audit log):
 * under the run's prefix, so that whatever deletes the run's keys deletes
 * these too, and the same rule keeps it off real data.
 */
export function e2eDashboardPrefix(): string {
  return `${e2ePrefix()}ql:`;
}

/** The main server's connections file, written by playwright.config.ts outside test-results/ (which Playwright empties after reading the config). */
export function e2eConnectionsFile(): string {
  return join(tmpdir(), `queuelens-${e2ePrefix().replace(/\W/g, '-')}connections.json`);
}

/** The main server's second connection: read-only, under a prefix of its own inside the run's. */
export const ARCHIVE_CONNECTION = {
  name: 'archive',
  label: 'Archive',
  prefix: () => `${e2ePrefix()}archive:`,
};

/** The main server's yii2 connections: a redis-ng channel and a stock yii2-queue channel, under the run's prefix (yii2 keys are `<channel>.<suffix>`). */
export const YII2_CONNECTIONS = {
  ng: { name: 'yii2-ng', label: 'yii2-ng channel', layout: 'yii2-ng', channel: () => `${e2ePrefix()}ng` },
  stock: { name: 'yii2-stock', label: 'yii2 channel', layout: 'yii2', channel: () => `${e2ePrefix()}stock` },
} as const;

/** The main server's redis-ng connection of two channels (each counts its own job ids), for "Go to job" and yii2 throughput: channels no fixture is loaded into. */
export const YII2_PAIR_CONNECTION = {
  name: 'yii2-pair',
  label: 'two yii2-ng channels',
  layout: 'yii2-ng',
  channels: () => [`${e2ePrefix()}pair-a`, `${e2ePrefix()}pair-b`] as const,
} as const;

/** The main server's marko/queue-redis connection, under a prefix of its own inside the run's. */
export const MARKO_CONNECTION = { name: 'marko', label: 'marko queues', layout: 'marko', prefix: () => `${e2ePrefix()}marko:` } as const;

/** The main server's Laravel connection: the real RedisQueue's keys under a prefix of its own inside the run's, its queues found by SCAN, and Horizon's failed jobs beside them. */
export const LARAVEL_CONNECTION = {
  name: 'laravel',
  label: 'Laravel queues',
  layout: 'laravel',
  prefix: () => `${e2ePrefix()}laravel_database_`,
  horizonPrefix: () => `${e2ePrefix()}laravel_horizon:`,
} as const;

/**
 * The main server's yii2 and marko connections on the Redis of
 * RESTARTABLE_REDIS_PORT, which is down unless a spec starts it
 * (layouts-redis-down.spec.ts): their pages must be their own layout's
 * while it cannot be reached.
 */
export const REDIS_DOWN_CONNECTIONS = {
  yii2: { name: 'yii2-down', label: 'yii2 channel on a stopped Redis', layout: 'yii2', queue: () => `${e2ePrefix()}down` },
  marko: { name: 'marko-down', label: 'marko queues on a stopped Redis', layout: 'marko', prefix: () => `${e2ePrefix()}marko-down:`, queue: () => 'mail' },
} as const;

/**
 * The queues alerts.spec.ts seeds, by the names the main server's default
 * connection gives alert thresholds (its connections file is written before
 * any spec runs): one kept waiting, one holding too many jobs, one under both.
 */
export const ALERT_QUEUES = { late: 'alerts-late', full: 'alerts-full', calm: 'alerts-calm' } as const;

export const E2E_ALERTS = {
  [ALERT_QUEUES.late]: { waitSeconds: 60 },
  [ALERT_QUEUES.full]: { backlog: 3 },
  [ALERT_QUEUES.calm]: { waitSeconds: 3600, backlog: 100 },
};

export function connectE2eQueue(): Promise<RedisQueue> {
  return RedisQueue.connect({ ...settingsFromEnv(), prefix: e2ePrefix() });
}
