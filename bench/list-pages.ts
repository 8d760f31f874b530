/**
 * The list pages beside the overview with many queues (issue 26, point 4):
 * the failed list filtered by a queue, the reservations (every queue's and
 * one queue's) and Find, whose forms each offer a queue picker. On a
 * redis-server of its own, BENCH_QUEUES queues (10,000 by default) of the
 * StaticPHP layout with BENCH_JOBS_PER_QUEUE jobs each (a fifth delayed),
 * TROUBLED_QUEUES of them with a failed job and a held reservation, served
 * by the production build. The sampler is slowed to one tick in ten minutes
 * (its first read at start), so the Redis commands counted around a page's
 * requests are the page's own. PAGE_REQUESTS sequential requests a page:
 * latency, HTML size, the queue picker's options, Redis commands per
 * request. Then, in this process, what a change made through the dashboard
 * costs the overview's read afterwards: every queue read again, as before
 * issue 26's point, against only the queue it touched
 * (lib/dashboard/every-queue-overview.ts readTouchedQueues). Prints
 * figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { spreadOf } from './measure';
import { seedTenantQueues, tenantNames } from './tenant-queues';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { ensureProductionBuild, startBenchDashboard } from './served-app';
import { NO_ALERTS } from '../lib/dashboard/alerts';
import type { Connection } from '../lib/dashboard/connections';
import { readEveryQueueOverview, readTouchedQueues } from '../lib/dashboard/every-queue-overview';
import { DEFAULT_MARKS } from '../lib/dashboard/marks';
import { openLayout } from '../lib/layouts/open-layout';

const TROUBLED_QUEUES = 100;
const PAGE_REQUESTS = 10;
const PREFIX = 'queuelens-bench:';
const DASHBOARD_PREFIX = 'queuelens-bench-dashboard:';
/** One tick in ten minutes: the pages' own Redis commands are what is counted. */
const SLOW_SAMPLE_MS = 600_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function wholeFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1`);
  return value;
}

async function redisCalls(admin: Redis): Promise<number> {
  return [...(await admin.info('commandstats')).matchAll(/^cmdstat_\S+?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

interface PageFigures {
  status: number;
  medianMs: number;
  p95Ms: number;
  bytes: number;
  options: number;
  commandsPerRequest: number;
}

/** PAGE_REQUESTS sequential GETs of `url` after one that loads its code. */
async function measure(url: string, headers: Record<string, string>, admin: Redis): Promise<PageFigures> {
  await (await fetch(url, { headers })).arrayBuffer();
  const latencies: number[] = [];
  let html = '';
  let status = 0;
  const before = await redisCalls(admin);
  for (let request = 0; request < PAGE_REQUESTS; request++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    html = await response.text();
    status = response.status;
    latencies.push(performance.now() - started);
  }
  // The INFO that reads the count is one call of its own.
  const commands = (await redisCalls(admin)) - before - 1;
  const spread = spreadOf(latencies);
  return {
    status,
    medianMs: spread.medianMs,
    p95Ms: spread.p95Ms,
    bytes: Buffer.byteLength(html),
    options: (html.match(/<option /g) ?? []).length,
    commandsPerRequest: commands / PAGE_REQUESTS,
  };
}

async function main(): Promise<void> {
  const queueCount = wholeFromEnv('BENCH_QUEUES', 10_000);
  const jobsPerQueue = wholeFromEnv('BENCH_JOBS_PER_QUEUE', 10);
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-list-pages-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    console.log(`\nList pages: ${formatCount(queueCount)} queues of ${jobsPerQueue} jobs, ${describeMachine()}; load ${loads()}`);
    console.log(ensureProductionBuild(root, join(workDir, 'next-build.log')) ? '  next build: built' : '  next build: .next is up to date');
    const redis = await startPrivateRedis(workDir);
    cleanups.push(() => redis.stop());
    const admin = redis.connect(0, { connectionName: 'bench-admin' });
    cleanups.push(() => admin.quit());
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, database: 0, prefix: PREFIX, group: 'workers' }));
    cleanups.push(() => queue.close());
    const names = tenantNames(queueCount);
    // Spread over the names, so some lie past the first thousand by name; one past a multiple of 5, whose jobs are not all delayed.
    const troubled = Array.from({ length: TROUBLED_QUEUES }, (_, n) => names[(Math.floor((n * queueCount) / TROUBLED_QUEUES) + 1) % queueCount]!);
    await seedTenantQueues(queue, names, jobsPerQueue, troubled);

    const secret = randomBytes(32).toString('hex');
    const auth = { authorization: `Bearer ${secret}` };
    process.env.QUEUELENS_SAMPLE_MS = String(SLOW_SAMPLE_MS);
    const app = await startBenchDashboard({
      root,
      workDir,
      port: await freeBenchPort(new Set([redis.port])),
      redisUrl: redis.url(0),
      prefix: PREFIX,
      group: 'workers',
      dashboardPrefix: DASHBOARD_PREFIX,
      secret,
      readyPath: '/api/failed?limit=0',
    });
    cleanups.push(() => app.stop());
    // The sampler's first read of every queue, before anything is counted.
    await (await fetch(`${app.baseUrl}/api/overview`, { headers: auth })).arrayBuffer();
    const last = troubled.at(-1)!;
    const pages = ['/failed', `/failed?queue=${last}`, '/reservations', `/reservations?queue=${last}`, '/find', `/api/reservations?queue=${last}`];
    const rows: string[][] = [];
    for (const path of pages) {
      const figures = await measure(`${app.baseUrl}${path}`, auth, admin);
      console.log(`  ${path}: ${JSON.stringify(figures)}; load ${loads()}`);
      rows.push([
        `\`${path}\``,
        String(figures.status),
        `${figures.medianMs.toFixed(0)} / ${figures.p95Ms.toFixed(0)}`,
        `${formatCount(figures.bytes / 1024)} KB`,
        formatCount(figures.options),
        formatCount(figures.commandsPerRequest),
        loads(),
      ]);
    }
    console.log(`\n## The list pages with ${formatCount(queueCount)} queues (${PAGE_REQUESTS} sequential requests each)\n`);
    console.log(`${describeMachine()}; the troubled queue filtered by is ${last}, past the first thousand by name.\n`);
    console.log(markdownTable(['page', 'status', 'median / p95 ms', 'size', 'picker options', 'Redis commands a request', 'load'], 'lrrrrrl', rows));
    console.log(`\nserver peak RSS ${formatCount(app.memory().peakBytes / 2 ** 20)} MiB; load ${loads()}`);

    const settings = readSettings({ hostname: '127.0.0.1', port: redis.port, database: 0, prefix: PREFIX, group: 'workers' });
    const connection: Connection = {
      name: 'bench',
      label: 'bench',
      settings,
      layout: { layout: 'staticphp' },
      readOnly: false,
      alerts: NO_ALERTS,
      marks: DEFAULT_MARKS,
    };
    const layout = await openLayout(settings, connection.layout);
    cleanups.push(() => layout.close());
    const timed = async <T>(body: () => Promise<T>) => {
      const before = await redisCalls(admin);
      const started = performance.now();
      const value = await body();
      return { value, ms: performance.now() - started, commands: (await redisCalls(admin)) - before - 1 };
    };
    const every = await timed(() => readEveryQueueOverview(layout, connection, DASHBOARD_PREFIX));
    const failedIds = await queue.redis.zrange(queue.keys.failed, '0', '0');
    const retried = await queue.retryFailed(failedIds.map(Number));
    const touched = await timed(() => readTouchedQueues(every.value, retried.queues, layout, connection));
    console.log(`\n## After a change on one queue of ${formatCount(queueCount)} (a retry of job ${failedIds[0]} of ${retried.queues.join(', ')})\n`);
    console.log(
      markdownTable(['read before the answer', 'Redis commands', 'ms', 'load'], 'lrrl', [
        ['every queue (the refresh before)', formatCount(every.commands), every.ms.toFixed(0), loads()],
        ['the queue it touched and the failed count', formatCount(touched.commands), touched.ms.toFixed(0), loads()],
      ]),
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
