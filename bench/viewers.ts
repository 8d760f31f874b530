/**
 * Many people watching at once (issue 14). On a redis-server of its own,
 * seeded with the same jobs in the StaticPHP layout and in BullMQ, against
 * the production build (`next start`) and bull-board on Express:
 * - viewers: 1, 10 and 50 pollers, each every POLL_MS with its own phase,
 *   of the overview, a queue's page and the reservations, and of bull-board's
 *   nearest routes; Redis' main-thread CPU per second from INFO cpu, and the
 *   answers' latency, median and p95;
 * - a job with a 20 MB payload opened by 100 at once: the server's memory
 *   before and after, the answers, and another page's latency meanwhile
 *   against before;
 * - /reservations with 5,000 reservations: its HTML, and 50 requests at once,
 *   after ten such rounds unmeasured (the first one's p95 printed beside),
 *   with the time the server's main thread spent a request.
 * Pages rendered many at once are set beside Next's floor (a route that
 * answers 400 before reading anything) asked as many times at once, so that
 * the machine's load, which moves them all alike, can be told from our cost.
 * Prints figures and ratios; asserts nothing (npm run bench).
 * BENCH_VIEWERS_JOBS sets the scale (100,000 by default); BENCH_VIEWERS_PARTS
 * picks parts (`viewers,big-job,reservations`, all by default).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { dashboardKeys, throughputKeys } from '../lib/dashboard/keys';
import { parseInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { durationOf, spreadOf, type Spread } from './measure';
import { inFlight } from '../lib/redis/in-flight';
import { schedulerTimes } from './proc';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { BULL_BOARD_BASE_PATH, ensureProductionBuild, startBenchDashboard, startBullBoard } from './served-app';
import { seedBullMQ } from './seed-bullmq';
import { seedHistory } from './seed-history';
import { seedPlan, type SeedStep } from './seed-plan';
import { seedQueueLens } from './seed-queuelens';

/** How often each viewer polls: the dashboard's default. */
const POLL_MS = 2_000;
const VIEWER_COUNTS = [1, 10, 50] as const;
/**
 * How long each viewer count is measured, after one interval of settling.
 * One viewer reads a dozen times in it, and the sampler ticks about five:
 * over 12 s, one read or tick more or less moved a row's ratio by 0.3.
 */
const WINDOW_MS = 24_000;
/** The overview's "stuck" and "no worker" thresholds (a minute by default), and a few seconds more. */
const MARKS_SETTLE_MS = 65_000;
const BIG_JOB_BYTES = 20 * 1024 * 1024;
const BIG_JOB_OPENS = 100;
const HELD_RESERVATIONS = 5_000;
const CONCURRENT_REQUESTS = 50;
const CONCURRENT_ROUNDS = 4;
/**
 * Rounds of a page asked CONCURRENT_REQUESTS at once before its measured
 * rounds. Measured on a fresh server (2026-12-02), /reservations cost the
 * server's process 23 ms of CPU a request over the first 100, 15–17 ms over
 * the next few hundred and 11–13 ms from about the 500th on (its main thread
 * 8–10 ms once warm): V8 optimizes Next's and React's rendering code only
 * as it runs again and again. The first round's p95 is printed beside the
 * warm figures, so a fresh start is not hidden.
 */
const WARM_UP_ROUNDS = 10;
/** Sequential requests of another page, to compare its latency with and without the 20 MB storm. */
const OTHER_PAGE_REQUESTS = 20;
const QUEUELENS_DATABASE = 0;
const BULLMQ_DATABASE = 1;
const PREFIX = 'queuelens-bench:';
const DASHBOARD_PREFIX = 'queuelens-bench-dashboard:';
const GROUP = 'workers';
const HELD_QUEUE = 'held-5000';
const root = fileURLToPath(new URL('..', import.meta.url));

/** How often another page is asked while the 20 MB job is opened, each request on its own. */
const OTHER_PAGE_EVERY_MS = 100;
const PARTS = ['viewers', 'big-job', 'reservations'] as const;
type Part = (typeof PARTS)[number];
const ms = (value: number) => value.toFixed(1);
const mib = (bytes: number) => `${formatCount(bytes / 2 ** 20)} MiB`;
const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function partsFromEnv(): Set<Part> {
  const text = process.env.BENCH_VIEWERS_PARTS ?? PARTS.join(',');
  const parts = text.split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`BENCH_VIEWERS_PARTS takes ${PARTS.join(', ')}; not ${unknown.join(', ')}`);
  return new Set(parts as Part[]);
}

function scaleFromEnv(): number {
  const text = process.env.BENCH_VIEWERS_JOBS ?? '100000';
  const jobs = Number(text);
  if (!Number.isSafeInteger(jobs) || jobs < 10_000) throw new Error(`BENCH_VIEWERS_JOBS must be a whole number of at least 10000, got "${text}"`);
  return jobs;
}

/** Milliseconds of CPU Redis' main thread has used, from INFO cpu (the issue's measure). */
async function redisCpuMs(admin: Redis): Promise<number> {
  const info = parseInfo(await admin.info('cpu'));
  const seconds =
    Number(info.get('used_cpu_sys_main_thread') ?? info.get('used_cpu_sys')) + Number(info.get('used_cpu_user_main_thread') ?? info.get('used_cpu_user'));
  return seconds * 1000;
}

/** Commands Redis has run since its start, those inside scripts included (INFO commandstats). */
async function redisCalls(admin: Redis): Promise<number> {
  return [...(await admin.info('commandstats')).matchAll(/^cmdstat_\S+?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

/** GETs `url`, reads the body; its status and size. */
async function fetchPage(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  return { status: response.status, bytes: body.byteLength };
}

interface Watch {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface WatchResult {
  viewers: number;
  cpuMsPerSecond: number;
  /** commands Redis ran per second, inside scripts too: how many reads, where the CPU also says how dear */
  callsPerSecond: number;
  latency: Spread;
  requests: number;
  failures: number;
}

/**
 * `viewers` pollers of `watch`, each every POLL_MS from its own moment in the
 * first interval (as tabs opened at different times), for WINDOW_MS after an
 * interval of settling; Redis' CPU over the window.
 */
async function watchedBy(watch: Watch, viewers: number, admin: Redis): Promise<WatchResult> {
  const latencies: number[] = [];
  let failures = 0;
  let measuring = false;
  let stopped = false;
  const poller = async (index: number) => {
    await new Promise((resolve) => setTimeout(resolve, (index * POLL_MS) / viewers));
    while (!stopped) {
      const started = performance.now();
      const { status } = await fetchPage(watch.url, watch.headers).catch(() => ({ status: 0 }));
      const took = performance.now() - started;
      if (measuring) {
        latencies.push(took);
        if (status !== 200) failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - took)));
    }
  };
  const running = Array.from({ length: viewers }, (_, index) => poller(index));
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  measuring = true;
  const [cpuBefore, callsBefore] = [await redisCpuMs(admin), await redisCalls(admin)];
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const cpu = (await redisCpuMs(admin)) - cpuBefore;
  const calls = (await redisCalls(admin)) - callsBefore;
  const seconds = (performance.now() - started) / 1000;
  measuring = false;
  stopped = true;
  await Promise.all(running);
  return { viewers, cpuMsPerSecond: cpu / seconds, callsPerSecond: calls / seconds, latency: spreadOf(latencies), requests: latencies.length, failures };
}

/** Redis' CPU per second while nobody watches: the QueueLens server's own sampler, and INFO. */
async function idleCpu(admin: Redis): Promise<number> {
  const before = await redisCpuMs(admin);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  return ((await redisCpuMs(admin)) - before) / ((performance.now() - started) / 1000);
}

/** `count` requests of `url` at once, `rounds` times; every answer's latency and status. */
async function concurrently(
  url: string,
  headers: Record<string, string>,
  count: number,
  rounds: number,
): Promise<{ latency: Spread; statuses: Map<number, number>; bytes: number }> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from({ length: count }, async () => {
        const started = performance.now();
        const answer = await fetchPage(url, headers).catch(() => ({ status: 0, bytes: 0 }));
        latencies.push(performance.now() - started);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        bytes = Math.max(bytes, answer.bytes);
      }),
    );
  }
  return { latency: spreadOf(latencies), statuses, bytes };
}

const describeStatuses = (statuses: ReadonlyMap<number, number>) => [...statuses].map(([status, count]) => `${count}× ${status || 'no answer'}`).join(', ');

async function main(): Promise<void> {
  const plan = seedPlan(scaleFromEnv());
  const parts = partsFromEnv();
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-viewers-'));
  let keepWorkDir = false;
  atExit(() => {
    if (keepWorkDir) console.error(`The servers' logs are kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    console.log(`\nViewers benchmark: ${formatCount(plan.jobs)} jobs over ${plan.queues.length} queues, ${describeMachine()}; load average ${loads()}\n`);
    const built = ensureProductionBuild(root, join(workDir, 'next-build.log'));
    console.log(built ? '  next build: built (the build was missing or stale)' : '  next build: .next is up to date');

    const redis = await startPrivateRedis(workDir);
    cleanups.push(() => redis.stop());
    const admin = redis.connect(QUEUELENS_DATABASE, { connectionName: 'bench-admin' });
    cleanups.push(() => admin.quit());
    const redisVersion = parseInfo(await admin.info('server')).get('redis_version') ?? '?';
    const queue = await RedisQueue.connect(
      readSettings({ hostname: '127.0.0.1', port: redis.port, database: QUEUELENS_DATABASE, prefix: PREFIX, group: GROUP }),
    );
    cleanups.push(() => queue.close());
    const bullConnection = redis.connect(BULLMQ_DATABASE, { maxRetriesPerRequest: null, connectionName: 'bench-bullmq' });
    cleanups.push(() => bullConnection.quit());

    console.log('Seeding');
    const step: SeedStep = async (label, count, body) => {
      const took = await durationOf(body);
      console.log(`  ${label}: ${formatCount(count)} in ${(took / 1000).toFixed(1)} s`);
    };
    await seedQueueLens(queue, plan, step);
    await seedBullMQ(bullConnection, plan, step);
    await seedHistory(queue, throughputKeys(dashboardKeys(DASHBOARD_PREFIX), queue.keys.prefix), await queue.stats());
    const seededAt = performance.now();

    const secret = randomBytes(32).toString('hex');
    const auth = { authorization: `Bearer ${secret}` };
    // What a tab's poll sends: its interval, so the server may answer from a snapshot up to half of it old.
    const poll = { ...auth, 'x-queuelens-poll-ms': String(POLL_MS) };
    const taken = new Set([redis.port]);
    const appPort = await freeBenchPort(taken);
    taken.add(appPort);
    const app = await startBenchDashboard({
      root,
      workDir,
      port: appPort,
      redisUrl: redis.url(QUEUELENS_DATABASE),
      prefix: PREFIX,
      group: GROUP,
      dashboardPrefix: DASHBOARD_PREFIX,
      secret,
      readyPath: '/api/failed?limit=0',
    });
    cleanups.push(() => app.stop());
    const boardPort = await freeBenchPort(taken);
    const board = await startBullBoard({
      root,
      workDir,
      port: boardPort,
      redisUrl: redis.url(BULLMQ_DATABASE),
      queues: plan.queues,
      readyPath: `${BULL_BOARD_BASE_PATH}/api/queues`,
    });
    cleanups.push(() => board.stop());
    const queueName = plan.queues[0]!;
    const bullQueues = `${board.baseUrl}${BULL_BOARD_BASE_PATH}/api/queues`;
    const pairs: { page: string; ours: Watch; theirs: Watch }[] = [
      {
        page: 'overview',
        ours: { name: 'QueueLens `GET /api/overview`', url: `${app.baseUrl}/api/overview`, headers: poll },
        theirs: { name: 'bull-board `GET /api/queues`', url: bullQueues, headers: {} },
      },
      {
        page: 'queue page',
        ours: { name: `QueueLens \`GET /api/queues/${queueName}\``, url: `${app.baseUrl}/api/queues/${queueName}`, headers: poll },
        theirs: {
          name: `bull-board \`GET /api/queues?activeQueue=${queueName}&status=waiting\``,
          url: `${bullQueues}?activeQueue=${queueName}&status=waiting&page=1`,
          headers: {},
        },
      },
      {
        page: 'reservations',
        ours: { name: 'QueueLens `GET /api/reservations`', url: `${app.baseUrl}/api/reservations`, headers: poll },
        theirs: {
          name: `bull-board \`GET /api/queues?activeQueue=${queueName}&status=active\``,
          url: `${bullQueues}?activeQueue=${queueName}&status=active&page=1`,
          headers: {},
        },
      },
    ];
    // The first request of each route loads it; not a viewer's cost.
    for (const { ours, theirs } of pairs) await Promise.all([fetchPage(ours.url, ours.headers), fetchPage(theirs.url, theirs.headers)]);
    const floorUrl = `${app.baseUrl}/api/failed?limit=0`;
    /** Next's floor asked `count` at once, as a page just was: what the machine gives any request at that concurrency. */
    const floorAt = async (count: number) => (await concurrently(floorUrl, auth, count, CONCURRENT_ROUNDS)).latency;

    if (parts.has('viewers')) {
      // The overview's marks cost Redis four times more once the seeded claims
      // have been held past the "stuck" minute and the waiting jobs have waited
      // past the "no worker" one (the claims are joined to their jobs): a row
      // measured before that and one after it would compare two states, not
      // two viewer counts.
      const settled = seededAt + MARKS_SETTLE_MS - performance.now();
      if (settled > 0) {
        console.log(`\nWaiting ${Math.ceil(settled / 1000)} s for the seeded claims and waiting jobs to pass the marks' one-minute thresholds`);
        await new Promise((resolve) => setTimeout(resolve, settled));
      }
      console.log(`\nViewers (each polls every ${POLL_MS / 1000} s; ${WINDOW_MS / 1000} s measured per row)`);
      const idle = await idleCpu(admin);
      console.log(`  nobody watching: Redis ${idle.toFixed(2)} ms/s (the QueueLens server's sampler); load ${loads()}`);
      const rows: string[][] = [];
      for (const { page, ours, theirs } of pairs) {
        const results: Record<'ours' | 'theirs', WatchResult[]> = { ours: [], theirs: [] };
        for (const viewers of VIEWER_COUNTS) {
          for (const side of ['ours', 'theirs'] as const) {
            const watch = side === 'ours' ? ours : theirs;
            const result = await watchedBy(watch, viewers, admin);
            results[side].push(result);
            console.log(
              `  ${watch.name}, ${viewers} viewers: Redis ${result.cpuMsPerSecond.toFixed(2)} ms/s, ${Math.round(result.callsPerSecond)} commands/s; ${ms(result.latency.medianMs)} ms median, ${ms(result.latency.p95Ms)} ms p95 over ${result.requests} (${result.failures} failed); load ${loads()}`,
            );
          }
        }
        for (const [index, viewers] of VIEWER_COUNTS.entries()) {
          const mine = results.ours[index]!;
          const theirsNow = results.theirs[index]!;
          const beyondIdle = (value: number) => Math.max(0, value - idle);
          rows.push([
            page,
            String(viewers),
            mine.cpuMsPerSecond.toFixed(2),
            `${(mine.cpuMsPerSecond / results.ours[0]!.cpuMsPerSecond).toFixed(2)}×`,
            `${Math.round(mine.callsPerSecond)} (${(mine.callsPerSecond / results.ours[0]!.callsPerSecond).toFixed(2)}×)`,
            `${ms(mine.latency.medianMs)} / ${ms(mine.latency.p95Ms)}`,
            theirsNow.cpuMsPerSecond.toFixed(2),
            `${(theirsNow.cpuMsPerSecond / results.theirs[0]!.cpuMsPerSecond).toFixed(2)}×`,
            `${ms(theirsNow.latency.medianMs)} / ${ms(theirsNow.latency.p95Ms)}`,
            `${(mine.cpuMsPerSecond / theirsNow.cpuMsPerSecond).toFixed(2)}×`,
            `${(beyondIdle(mine.cpuMsPerSecond) / Math.max(0.01, beyondIdle(theirsNow.cpuMsPerSecond))).toFixed(2)}×`,
          ]);
        }
      }
      console.log(`\n## Many viewers: ${formatCount(plan.jobs)} jobs over ${plan.queues.length} queues\n`);
      console.log(
        `${describeMachine()}, Redis ${redisVersion}; load average at the end ${loads()}. Redis CPU is its main thread's (INFO cpu), per second of a ${WINDOW_MS / 1000} s window; nobody watching costs ${idle.toFixed(2)} ms/s (QueueLens' sampler).\n`,
      );
      console.log(
        markdownTable(
          [
            'page',
            'viewers',
            'QueueLens Redis ms/s',
            '÷ 1 viewer',
            'QueueLens Redis commands/s (÷ 1 viewer)',
            'QueueLens latency median / p95 ms',
            'bull-board Redis ms/s',
            '÷ 1 viewer',
            'bull-board latency median / p95 ms',
            'QueueLens ÷ bull-board',
            'beyond idle',
          ],
          'lrrrrrrrrrr',
          rows,
        ),
      );
    }

    if (parts.has('big-job')) {
      console.log(`\nA job with a ${mib(BIG_JOB_BYTES)} payload opened by ${BIG_JOB_OPENS} at once`);
      const bigId = await queue.push(queueName, 'bench.big', {});
      await queue.redis.hset(queue.keys.job(bigId), 'payload', Buffer.alloc(BIG_JOB_BYTES, 'x'));
      const other = `${app.baseUrl}/api/queues/${plan.queues[1]!}`;
      const otherBefore: number[] = [];
      for (let request = 0; request < OTHER_PAGE_REQUESTS; request++) otherBefore.push(await durationOf(() => fetchPage(other, auth)));
      await fetchPage(`${app.baseUrl}/jobs/${bigId}`, auth);
      const memoryBefore = app.memory();
      const redisBefore = await redisCpuMs(admin);
      // Another user's page, asked every OTHER_PAGE_EVERY_MS while the opens run, each request on its own.
      const otherDuring: Promise<number>[] = [];
      let storming = true;
      const storm = concurrently(`${app.baseUrl}/jobs/${bigId}`, auth, BIG_JOB_OPENS, 1).finally(() => (storming = false));
      while (storming) {
        otherDuring.push(durationOf(() => fetchPage(other, auth)));
        await new Promise((resolve) => setTimeout(resolve, OTHER_PAGE_EVERY_MS));
      }
      const opened = await storm;
      const during = spreadOf(await Promise.all(otherDuring));
      // The other page's reads are in it too: a few milliseconds of Redis each.
      const redisDuring = (await redisCpuMs(admin)) - redisBefore;
      const memoryAfter = app.memory();
      const before = spreadOf(otherBefore);
      const polled = await concurrently(`${app.baseUrl}/api/jobs/${bigId}`, poll, BIG_JOB_OPENS, 1);
      const floor = await floorAt(BIG_JOB_OPENS);
      const bigJob = [
        `the ${BIG_JOB_OPENS} opens of \`/jobs/${bigId}\`: ${describeStatuses(opened.statuses)}; ${ms(opened.latency.medianMs)} ms median, ${ms(opened.latency.p95Ms)} ms p95; ${formatCount(opened.bytes)} bytes of HTML each`,
        `Redis' CPU over the opens: ${ms(redisDuring)} ms (the ${otherDuring.length} other pages' reads included)`,
        `the server's RSS: ${mib(memoryBefore.rssBytes)} before, ${mib(memoryAfter.rssBytes)} after (${mib(memoryAfter.rssBytes - memoryBefore.rssBytes)} more); its peak (VmHWM) ${mib(memoryBefore.peakBytes)} before, ${mib(memoryAfter.peakBytes)} after`,
        `another page (\`GET /api/queues/${plan.queues[1]!}\`): ${ms(before.medianMs)} ms median before, ${ms(during.medianMs)} ms median over ${otherDuring.length} requests meanwhile (${(during.medianMs / before.medianMs).toFixed(2)}×); p95 ${ms(before.p95Ms)} and ${ms(during.p95Ms)} ms`,
        `its poll, \`GET /api/jobs/${bigId}\` ${BIG_JOB_OPENS} at once: ${describeStatuses(polled.statuses)}; ${ms(polled.latency.medianMs)} ms median, ${ms(polled.latency.p95Ms)} ms p95; ${formatCount(polled.bytes)} bytes each`,
        `Next's floor ${BIG_JOB_OPENS} at once: ${ms(floor.medianMs)} ms median, ${ms(floor.p95Ms)} ms p95 (the opens ${(opened.latency.p95Ms / floor.p95Ms).toFixed(2)}× of it at p95)`,
        `load average ${loads()}`,
      ];
      for (const line of bigJob) console.log(`  ${line}`);
      console.log(`\nThe ${mib(BIG_JOB_BYTES)} job:\n${bigJob.map((line) => `- ${line}`).join('\n')}`);
    }

    if (parts.has('reservations')) {
      console.log(`\n/reservations with ${formatCount(HELD_RESERVATIONS)} more reservations (one queue, ten holders)`);
      await queue.pushMany(Array.from({ length: HELD_RESERVATIONS }, (_, n) => ({ queue: HELD_QUEUE, name: `bench.held.${n}`, payload: {} })));
      await inFlight(HELD_RESERVATIONS, 50, (n) => queue.reserve([HELD_QUEUE], `bench-holder-${n % 10}:1`, 3600));
      const pending = (await queue.stats()).reduce((sum, row) => sum + row.reserved, 0);
      const reservationRows: string[][] = [];
      for (const path of ['/reservations', `/reservations?queue=${HELD_QUEUE}`, `/reservations?queue=${HELD_QUEUE}&page=20`]) {
        // Warmed up unmeasured (WARM_UP_ROUNDS), as every other figure here is
        // taken after a warm-up: the first path measured would otherwise also
        // pay for compiling and optimizing the page's code, which the paths
        // after it do not.
        const cold = await concurrently(`${app.baseUrl}${path}`, auth, CONCURRENT_REQUESTS, 1);
        await concurrently(`${app.baseUrl}${path}`, auth, CONCURRENT_REQUESTS, WARM_UP_ROUNDS - 1);
        const threadBefore = schedulerTimes(app.pid).runningMicros;
        const answer = await concurrently(`${app.baseUrl}${path}`, auth, CONCURRENT_REQUESTS, CONCURRENT_ROUNDS);
        const threadMsPerRequest = (schedulerTimes(app.pid).runningMicros - threadBefore) / 1000 / (CONCURRENT_REQUESTS * CONCURRENT_ROUNDS);
        const floor = await floorAt(CONCURRENT_REQUESTS);
        reservationRows.push([
          `\`${path}\``,
          formatCount(answer.bytes),
          ms(answer.latency.medianMs),
          ms(answer.latency.p95Ms),
          ms(threadMsPerRequest),
          ms(cold.latency.p95Ms),
          `${ms(floor.p95Ms)} (${(answer.latency.p95Ms / floor.p95Ms).toFixed(2)}×)`,
          describeStatuses(answer.statuses),
          loads(),
        ]);
        console.log(
          `  ${path}: ${formatCount(answer.bytes)} bytes; ${CONCURRENT_REQUESTS} at once ×${CONCURRENT_ROUNDS}: ${ms(answer.latency.medianMs)} ms median, ${ms(answer.latency.p95Ms)} ms p95 (${describeStatuses(answer.statuses)}), ${ms(threadMsPerRequest)} ms of the server's main thread a request; its first round (unmeasured) ${ms(cold.latency.p95Ms)} ms p95; load ${loads()}`,
        );
      }

      console.log(
        `\n/reservations, ${formatCount(pending)} reservations in all (${CONCURRENT_REQUESTS} requests at once, ${CONCURRENT_ROUNDS} rounds after ${WARM_UP_ROUNDS} unmeasured), ${describeMachine()}:\n`,
      );
      console.log(
        markdownTable(
          [
            'page',
            'HTML bytes',
            'median ms',
            'p95 ms',
            "server's main thread ms a request",
            'its first round (unmeasured) p95 ms',
            `Next's floor p95 ms, ${CONCURRENT_REQUESTS} at once (page ÷ floor)`,
            'answers',
            'load average after',
          ],
          'lrrrrrrll',
          reservationRows,
        ),
      );
    }
  } catch (error) {
    keepWorkDir = true;
    throw error;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('Cleaning up failed:', error));
  }
}

await main();
