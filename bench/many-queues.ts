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
 * - the other list pages (issue 26, point 4), PAGE_REQUESTS sequential
 *   requests each: the failed list filtered by a queue, the reservations,
 *   every queue's and one queue's: latency and size.
 * Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { parseInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { spreadOf } from './measure';
import { inParallel } from './parallel';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { ensureProductionBuild, nextBin, startServedApp } from './served-app';

const POLL_MS = 2_000;
const WINDOW_MS = 20_000;
const VIEWER_COUNTS = [0, 1, 50] as const;
/** A call slower than this is one the target (no call over 2 ms) cares about. */
const SLOW_MICROS = 1_000;
const PUSH_BATCH = 2_000;
/** Queues with a failed job and a held reservation, so the failed list and the reservations have rows. */
const TROUBLED_QUEUES = 100;
const PAGE_REQUESTS = 10;
const PREFIX = 'queuelens-bench:';
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
  const slow = (await admin.slowlog('GET', 10_000)) as [number, number, number][];
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
  };
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
    const redis = await startPrivateRedis(workDir);
    cleanups.push(() => redis.stop());
    const admin = redis.connect(0, { connectionName: 'bench-admin' });
    cleanups.push(() => admin.quit());
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, database: 0, prefix: PREFIX, group: 'workers' }));
    cleanups.push(() => queue.close());
    const names = Array.from({ length: queueCount }, (_, n) => `tenant-${String(n).padStart(5, '0')}`);
    const jobs = queueCount * jobsPerQueue;
    await inParallel(Math.ceil(jobs / PUSH_BATCH), 4, async (batch) => {
      const start = batch * PUSH_BATCH;
      await queue.pushMany(
        Array.from({ length: Math.min(PUSH_BATCH, jobs - start) }, (_, offset) => {
          const n = start + offset;
          return { queue: names[n % queueCount]!, name: 'SyncInventory', payload: { n }, options: n % 5 === 0 ? { delaySeconds: 3_600 } : {} };
        }),
      );
    });
    for (const name of names.slice(0, TROUBLED_QUEUES)) {
      const failing = await queue.reserve([name], 'bench-worker', 3_600);
      if (failing) await queue.fail(failing, 'Failed on purpose by the benchmark');
      await queue.reserve([name], 'bench-worker', 3_600);
    }
    console.log(`  seeded ${formatCount(jobs)} jobs; ${TROUBLED_QUEUES} queues with a failed job and a held reservation`);

    const secret = randomBytes(32).toString('hex');
    const auth = { authorization: `Bearer ${secret}` };
    const appPort = await freeBenchPort(new Set([redis.port]));
    const app = await startServedApp('next start', process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(appPort)], {
      cwd: root,
      env: {
        ...process.env,
        HOSTNAME: '127.0.0.1',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        REDIS_URL: redis.url(0),
        QUEUE_PREFIX: PREFIX,
        QUEUE_GROUP: 'workers',
        QUEUELENS_PREFIX: DASHBOARD_PREFIX,
        QUEUELENS_SECRET: secret,
      },
      port: appPort,
      logFile: join(workDir, 'next.log'),
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
    for (const viewers of VIEWER_COUNTS) {
      const result = await watchedBy(url, poll, viewers, admin);
      console.log(`  ${viewers} viewers: ${JSON.stringify(result)}; load ${loads()}`);
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
    const pages = [`/failed?queue=${names[42]}`, `/api/failed/search?queue=${names[42]}`, '/reservations', `/reservations?queue=${names[42]}`];
    const pageRows: string[][] = [];
    for (const path of pages) {
      const latencies: number[] = [];
      let size = 0;
      let status = 0;
      for (let request = 0; request < PAGE_REQUESTS + 1; request++) {
        const started = performance.now();
        const response = await fetch(`${app.baseUrl}${path}`, { headers: auth });
        size = (await response.arrayBuffer()).byteLength;
        status = response.status;
        // The first request loads the route's code.
        if (request > 0) latencies.push(performance.now() - started);
      }
      const spread = spreadOf(latencies);
      pageRows.push([`\`${path}\``, String(status), `${spread.medianMs.toFixed(0)} / ${spread.p95Ms.toFixed(0)}`, `${formatCount(size / 1024)} KB`, loads()]);
    }
    console.log(`\n## The overview with ${formatCount(queueCount)} queues\n`);
    console.log(
      `${describeMachine()}; ${WINDOW_MS / 1000} s per row, each viewer polls every ${POLL_MS / 1000} s; the server's sampler runs at its default tick.\n`,
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
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
