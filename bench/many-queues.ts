/**
 * What the overview costs Redis with many queues (issue 26, point 2). On a
 * redis-server of its own, BENCH_QUEUES queues (10,000 by default) of the
 * StaticPHP layout with BENCH_JOBS_PER_QUEUE jobs each (a fifth delayed),
 * served by the production build with its sampler at its default tick:
 * - nobody watching, then 1 and 50 viewers polling `GET /api/overview`
 *   every POLL_MS, each from its own moment: Redis' commands and main-thread
 *   CPU per second (INFO commandstats, INFO cpu), the poll's latency and size;
 * - meanwhile, the Redis calls slower than SLOW_MICROS (SLOWLOG) and the
 *   longest of them;
 * - the overview page `/` itself, PAGE_REQUESTS sequential loads: latency
 *   and HTML size; in Chromium, how long until its table is visible and
 *   how many DOM nodes the page holds; the server's peak RSS;
 * - the other list pages (issue 26, point 4), PAGE_REQUESTS sequential
 *   requests each: the failed list filtered by a queue, the reservations,
 *   every queue's and one queue's: latency and size;
 * - bull-board over the same queues in BullMQ (the same jobs a queue, a
 *   fifth delayed), its queue list `GET /api/queues` requested as often,
 *   side by side with the overview's poll and page.
 * With BENCH_REDIS_REALTIME=1, redis-server runs at real-time priority (as
 * root), so that SLOWLOG measures the calls themselves rather than the
 * moments the server waited for a CPU that the dashboard, the viewers,
 * Chromium or anything else on the machine held.
 * Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { parseInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { spreadOf } from './measure';
import { inFlight } from '../lib/redis/in-flight';
import { seedTenantQueues, tenantNames } from './tenant-queues';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { findChromium } from '../lib/test-prerequisites';
import { BULL_BOARD_BASE_PATH, ensureProductionBuild, startBenchDashboard, startBullBoard, type ServedApp } from './served-app';
import { BULL_PREFIX } from './seed-bullmq';

const POLL_MS = 2_000;
const WINDOW_MS = 20_000;
const VIEWER_COUNTS = [0, 1, 50] as const;
/** A call slower than this is one the target (no call over 2 ms) cares about. */
const SLOW_MICROS = 1_000;
/** Queues with a failed job and a held reservation, so the failed list and the reservations have rows. */
const TROUBLED_QUEUES = 100;
const PAGE_REQUESTS = 10;
const PREFIX = 'queuelens-bench:';
/** BullMQ's queues for bull-board live in a database of their own on the same server. */
const BULLMQ_DATABASE = 1;
/** BullMQ queues seeded at once. */
const BULL_SEED_IN_FLIGHT = 50;
const DASHBOARD_PREFIX = 'queuelens-bench-dashboard:';
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

async function redisCpuMs(admin: Redis): Promise<number> {
  const info = parseInfo(await admin.info('cpu'));
  return (
    (Number(info.get('used_cpu_sys_main_thread') ?? info.get('used_cpu_sys')) + Number(info.get('used_cpu_user_main_thread') ?? info.get('used_cpu_user'))) *
    1000
  );
}

async function redisCalls(admin: Redis): Promise<number> {
  return [...(await admin.info('commandstats')).matchAll(/^cmdstat_\S+?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

interface Window {
  viewers: number;
  cpuMsPerSecond: number;
  callsPerSecond: number;
  medianMs: number;
  p95Ms: number;
  bytes: number;
  failures: number;
  slowCalls: number;
  longestMicros: number;
  /** the slowest calls' commands and µs, slowest first */
  slowest: string[];
}

/** One SLOWLOG entry as Redis 7 gives it: id, unix time, µs, arguments. */
type SlowlogEntry = [number, number, number, string[]];

/** The dashboard's resident memory so far, for the log: where in the run its peak was reached. */
function memoryOf(app: ServedApp): string {
  const { rssBytes, peakBytes } = app.memory();
  return `dashboard RSS ${formatCount(rssBytes / 2 ** 20)} MiB (peak ${formatCount(peakBytes / 2 ** 20)} MiB)`;
}

/** `viewers` pollers of `url` for WINDOW_MS after an interval of settling; what Redis did meanwhile. */
async function watchedBy(url: string, headers: Record<string, string>, viewers: number, admin: Redis): Promise<Window> {
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  let measuring = false;
  let stopped = false;
  const poller = async (index: number) => {
    await new Promise((resolve) => setTimeout(resolve, (index * POLL_MS) / viewers));
    while (!stopped) {
      const started = performance.now();
      const answer = await fetch(url, { headers }).then(async (response) => ({ status: response.status, size: (await response.arrayBuffer()).byteLength }));
      const took = performance.now() - started;
      if (measuring) {
        latencies.push(took);
        bytes = Math.max(bytes, answer.size);
        if (answer.status !== 200) failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - took)));
    }
  };
  const running = Array.from({ length: viewers }, (_, index) => poller(index));
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  measuring = true;
  await admin.slowlog('RESET');
  const [cpuBefore, callsBefore] = [await redisCpuMs(admin), await redisCalls(admin)];
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const cpu = (await redisCpuMs(admin)) - cpuBefore;
  const calls = (await redisCalls(admin)) - callsBefore;
  const seconds = (performance.now() - started) / 1000;
  const slow = (await admin.slowlog('GET', 10_000)) as SlowlogEntry[];
  measuring = false;
  stopped = true;
  await Promise.all(running);
  const spread = spreadOf(latencies.length > 0 ? latencies : [0]);
  return {
    viewers,
    cpuMsPerSecond: cpu / seconds,
    callsPerSecond: calls / seconds,
    medianMs: spread.medianMs,
    p95Ms: spread.p95Ms,
    bytes,
    failures,
    slowCalls: slow.length,
    longestMicros: Math.max(0, ...slow.map(([, , micros]) => micros)),
    slowest: slow
      .toSorted((a, b) => b[2] - a[2])
      .slice(0, 5)
      .map(([, , micros, args]) => `${args.slice(0, args[0]?.toLowerCase() === 'evalsha' ? 2 : 1).join(' ')} ${micros} µs`),
  };
}

interface PageTiming {
  status: number;
  medianMs: number;
  p95Ms: number;
  bytes: number;
}

/** PAGE_REQUESTS sequential GETs of `url` after one that loads its code: latency and the last answer's size. */
async function timeRequests(url: string, headers: Record<string, string>): Promise<PageTiming> {
  const latencies: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let request = 0; request < PAGE_REQUESTS + 1; request++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    bytes = (await response.arrayBuffer()).byteLength;
    status = response.status;
    if (request > 0) latencies.push(performance.now() - started);
  }
  const spread = spreadOf(latencies);
  return { status, medianMs: spread.medianMs, p95Ms: spread.p95Ms, bytes };
}

/** The overview in Chromium, as a viewer opens it: ms from navigation until its table is visible, and the DOM nodes once it is (best of PAGE_REQUESTS / 2 loads, median reported). */
async function overviewInBrowser(app: ServedApp, headers: Record<string, string>): Promise<{ visibleMs: number; domNodes: number }> {
  const executablePath = findChromium(chromium.executablePath());
  if (executablePath === null) throw new Error('No Chromium for the browser measurement: install Debian’s chromium or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ extraHTTPHeaders: headers, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const visible: number[] = [];
    let domNodes = 0;
    for (let load = 0; load < PAGE_REQUESTS / 2 + 1; load++) {
      const started = performance.now();
      await page.goto(app.baseUrl, { waitUntil: 'commit' });
      await page.getByRole('table', { name: 'Jobs per queue' }).waitFor({ state: 'visible', timeout: 60_000 });
      // The first load compiles the page's scripts in the browser; not a viewer's usual cost.
      if (load > 0) visible.push(performance.now() - started);
      domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    }
    return { visibleMs: spreadOf(visible).medianMs, domNodes };
  } finally {
    await browser.close();
  }
}

/** The same queues in BullMQ on `connection`: `jobsPerQueue` jobs each, every fifth delayed by an hour, as the StaticPHP seed has them. */
async function seedBullQueues(connection: Redis, names: readonly string[], jobsPerQueue: number): Promise<void> {
  await inFlight(names.length, BULL_SEED_IN_FLIGHT, async (index) => {
    const queue = new Queue(names[index]!, { connection, prefix: BULL_PREFIX });
    try {
      await queue.addBulk(
        Array.from({ length: jobsPerQueue }, (_, n) => ({
          name: 'SyncInventory',
          data: { n },
          opts: (index * jobsPerQueue + n) % 5 === 0 ? { delay: 3_600_000 } : {},
        })),
      );
    } finally {
      await queue.close();
    }
  });
}

async function main(): Promise<void> {
  const queueCount = wholeFromEnv('BENCH_QUEUES', 10_000);
  const jobsPerQueue = wholeFromEnv('BENCH_JOBS_PER_QUEUE', 10);
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-many-queues-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    console.log(`\nMany queues: ${formatCount(queueCount)} queues of ${jobsPerQueue} jobs, ${describeMachine()}; load ${loads()}`);
    console.log(ensureProductionBuild(root, join(workDir, 'next-build.log')) ? '  next build: built' : '  next build: .next is up to date');
    const realtime = process.env.BENCH_REDIS_REALTIME === '1';
    const redis = await startPrivateRedis(workDir, { realtime });
    cleanups.push(() => redis.stop());
    const admin = redis.connect(0, { connectionName: 'bench-admin' });
    cleanups.push(() => admin.quit());
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, database: 0, prefix: PREFIX, group: 'workers' }));
    cleanups.push(() => queue.close());
    const names = tenantNames(queueCount);
    await seedTenantQueues(queue, names, jobsPerQueue, names.slice(0, TROUBLED_QUEUES));

    const secret = randomBytes(32).toString('hex');
    const auth = { authorization: `Bearer ${secret}` };
    const appPort = await freeBenchPort(new Set([redis.port]));
    const app = await startBenchDashboard({
      root,
      workDir,
      port: appPort,
      redisUrl: redis.url(0),
      prefix: PREFIX,
      group: 'workers',
      dashboardPrefix: DASHBOARD_PREFIX,
      secret,
      readyPath: '/api/failed?limit=0',
    });
    cleanups.push(() => app.stop());
    const url = `${app.baseUrl}/api/overview`;
    const poll = { ...auth, 'x-queuelens-poll-ms': String(POLL_MS) };
    // The first request loads the route; not a viewer's cost.
    await (await fetch(url, { headers: poll })).arrayBuffer();
    await admin.config('SET', 'slowlog-log-slower-than', String(SLOW_MICROS));
    await admin.config('SET', 'slowlog-max-len', '10000');
    const rows: string[][] = [];
    const windows: Window[] = [];
    for (const viewers of VIEWER_COUNTS) {
      const result = await watchedBy(url, poll, viewers, admin);
      windows.push(result);
      console.log(`  ${viewers} viewers: ${JSON.stringify(result)}; ${memoryOf(app)}; load ${loads()}`);
      rows.push([
        String(viewers),
        formatCount(result.callsPerSecond),
        result.cpuMsPerSecond.toFixed(1),
        viewers === 0 ? '—' : `${result.medianMs.toFixed(0)} / ${result.p95Ms.toFixed(0)}`,
        viewers === 0 ? '—' : `${formatCount(result.bytes / 1024)} KB`,
        `${result.slowCalls} (longest ${(result.longestMicros / 1000).toFixed(1)} ms)`,
        String(result.failures),
        loads(),
      ]);
    }
    const overviewPage = await timeRequests(`${app.baseUrl}/`, auth);
    console.log(`  overview page: ${JSON.stringify(overviewPage)}; ${memoryOf(app)}; load ${loads()}`);
    const browserLoad = await overviewInBrowser(app, auth);
    console.log(`  in Chromium: ${JSON.stringify(browserLoad)}; ${memoryOf(app)}; load ${loads()}`);
    const pages = [`/failed?queue=${names[42]}`, `/api/failed/search?queue=${names[42]}`, '/reservations', `/reservations?queue=${names[42]}`];
    const pageRows: string[][] = [];
    for (const path of pages) {
      const timing = await timeRequests(`${app.baseUrl}${path}`, auth);
      pageRows.push([
        `\`${path}\``,
        String(timing.status),
        `${timing.medianMs.toFixed(0)} / ${timing.p95Ms.toFixed(0)}`,
        `${formatCount(timing.bytes / 1024)} KB`,
        loads(),
      ]);
    }
    const serverMemory = app.memory();

    const bullConnection = redis.connect(BULLMQ_DATABASE, { connectionName: 'bench-bullmq-seed', maxRetriesPerRequest: null });
    cleanups.push(() => bullConnection.quit());
    await seedBullQueues(bullConnection, names, jobsPerQueue);
    console.log(`  seeded the same ${formatCount(queueCount * jobsPerQueue)} jobs in BullMQ; load ${loads()}`);
    const boardPort = await freeBenchPort(new Set([redis.port, appPort]));
    const queuesPath = `${BULL_BOARD_BASE_PATH}/api/queues`;
    const board = await startBullBoard({
      root,
      workDir,
      port: boardPort,
      redisUrl: redis.url(BULLMQ_DATABASE),
      queues: names,
      readyPath: `${BULL_BOARD_BASE_PATH}/no-such-route`,
    });
    cleanups.push(() => board.stop());
    const bullList = await timeRequests(`${board.baseUrl}${queuesPath}`, {});
    console.log(`  bull-board queue list: ${JSON.stringify(bullList)}; load ${loads()}`);
    const oneViewer = rows[1]!;
    const onePoll = windows[1]!;
    const versus = (ours: number) => `${(ours / bullList.p95Ms).toFixed(2)}×`;

    console.log(`\n## The overview with ${formatCount(queueCount)} queues\n`);
    console.log(
      `${describeMachine()}; ${realtime ? 'redis-server at real-time priority' : 'redis-server at normal priority'}; ${WINDOW_MS / 1000} s per row, each viewer polls every ${POLL_MS / 1000} s; the server's sampler runs at its default tick.\n`,
    );
    console.log(
      markdownTable(
        ['viewers', 'Redis commands/s', 'Redis CPU ms/s', 'poll median / p95 ms', 'poll size', `calls over ${SLOW_MICROS / 1000} ms`, 'failed polls', 'load'],
        'rrrrrrrl',
        rows,
      ),
    );
    console.log(`\n## The other list pages with ${formatCount(queueCount)} queues (${PAGE_REQUESTS} sequential requests each)\n`);
    console.log(markdownTable(['page', 'status', 'median / p95 ms', 'size', 'load'], 'lrrrl', pageRows));
    console.log(`\n## The overview page and bull-board's queue list with ${formatCount(queueCount)} queues\n`);
    console.log(
      markdownTable(['measure', 'QueueLens', 'bull-board', 'QueueLens ÷ bull-board (p95)'], 'lrrr', [
        ['`/` page load, median / p95 ms', `${overviewPage.medianMs.toFixed(0)} / ${overviewPage.p95Ms.toFixed(0)}`, '—', versus(overviewPage.p95Ms)],
        ['`/` HTML size', `${formatCount(overviewPage.bytes / 1024)} KB`, '—', '—'],
        [
          'queue list request (QueueLens: a poll at 1 viewer), median / p95 ms',
          oneViewer[3]!,
          `${bullList.medianMs.toFixed(0)} / ${bullList.p95Ms.toFixed(0)}`,
          versus(onePoll.p95Ms),
        ],
        ['queue list answer size', `${formatCount(onePoll.bytes / 1024)} KB`, `${formatCount(bullList.bytes / 1024)} KB`, '—'],
        ['Chromium: table visible after navigation (median ms)', browserLoad.visibleMs.toFixed(0), '—', '—'],
        ['Chromium: DOM nodes', formatCount(browserLoad.domNodes), '—', '—'],
        ['server peak RSS', `${formatCount(serverMemory.peakBytes / 2 ** 20)} MiB`, '—', '—'],
      ]),
    );
    console.log(`\nload ${loads()}`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
