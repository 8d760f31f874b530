/**
 * The dashboard at scale (issue 7, second half). Seeds a redis-server of its
 * own with 1,000,000 jobs over 50 queues (mixed priorities, 10 % delayed,
 * 1 % reserved) and 100,000 failed jobs, once through the driver and once
 * through BullMQ, then measures against the production build (`next start`,
 * built first when stale) and against bull-board on Express:
 * - each page's JSON route, median and p95 over 50 requests, beside the same
 *   reader called in this process and what Redis spent per request;
 * - SLOWLOG at 5 ms while the pages are read and while the doctor runs;
 * - the dashboard server's peak memory;
 * - bull-board's queues endpoint against QueueLens' overview, interleaved.
 * Prints figures and ratios; asserts nothing (npm run bench).
 * BENCH_DASHBOARD_JOBS sets the scale; failed jobs are a tenth of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { RecentHistory } from '../lib/dashboard/history';
import { dashboardKeys, throughputKeys, type ThroughputKeys } from '../lib/dashboard/keys';
import { runDoctor, startDoctor, type Finding, type Phase } from '../lib/layouts/staticphp/doctor';
import { readDelayedTimeline } from '../lib/layouts/staticphp/delayed-timeline';
import { readFailedPage } from '../lib/layouts/staticphp/failed';
import { readQueueDetail } from '../lib/layouts/staticphp/queue-detail';
import { readReservations } from '../lib/layouts/staticphp/reservations';
import { parseInfo, readServerInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { profileOf, readCpuProfile, summarizeProfile, type ProfileSummary } from './cpu-profile';
import {
  durationOf,
  redisWorkDuring,
  sampleDurations,
  SLOWLOG_CAPACITY,
  slowCommandsDuring,
  spreadOf,
  type RedisProbe,
  type RedisWork,
  type SlowCommand,
  type SlowPhase,
  type Spread,
} from './measure';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { BULL_BOARD_BASE_PATH, ensureProductionBuild, startBenchDashboard, startBullBoard, type ServedApp } from './served-app';
import { BULL_PREFIX, seedBullMQ } from './seed-bullmq';
import { seedPlan, type SeedPlan, type SeedStep } from './seed-plan';
import { seedHistory } from './seed-history';
import { seedQueueLens } from './seed-queuelens';
import { boundOf } from './slowlog-bounds';

const REQUESTS = 50;
const WARMUP = 5;
/** The issue's target for every page: its server time under 50 ms, median. */
const TARGET_MS = 50;
const SLOWLOG_MICROS = 5000;
const ROWS_PER_PAGE = 50;
const DEEP_FAILED_PAGE = 1000;
/** Calls of a missed page's reader under the CPU profiler. */
const PROFILED_CALLS = 20;
const QUEUELENS_DATABASE = 0;
const BULLMQ_DATABASE = 1;
const PREFIX = 'queuelens-bench:';
/** QUEUELENS_PREFIX for the server, where the seeded throughput history is: set, so that one in the environment cannot part them. */
const DASHBOARD_PREFIX = 'queuelens-bench-dashboard:';
/** Fresh RecentHistory reads timed in this process, for the overview's cold start. */
const COLD_HISTORY_READS = 5;
const GROUP = 'workers';
const root = fileURLToPath(new URL('..', import.meta.url));

const ms = (value: number) => value.toFixed(1);
const megabytes = (bytes: number) => `${formatCount(bytes / 2 ** 20)} MiB`;
const percentOf = (micros: number, seconds: number) => `${Math.round(micros / 1e4 / seconds)} %`;
const perRequest = (work: RedisWork, requests: number) => [formatCount(work.calls / requests), formatCount(work.cpuMicros / requests)];

function scaleFromEnv(): number {
  const text = process.env.BENCH_DASHBOARD_JOBS ?? '1000000';
  const jobs = Number(text);
  // Every queue needs reserved jobs of its own: 1 % of 10,000 is two per queue.
  if (!Number.isSafeInteger(jobs) || jobs < 10_000) throw new Error(`BENCH_DASHBOARD_JOBS must be a whole number of at least 10000, got "${text}"`);
  return jobs;
}

/** A page's JSON route, and the same reader called in this process. */
interface Page {
  name: string;
  path: string;
  /** null for the floor, which reads nothing */
  readInProcess: ((queue: RedisQueue) => Promise<unknown>) | null;
  expectStatus: number;
}

/** The overview's route: a page of the table, and QueueLens' side of the comparison with bull-board. */
const OVERVIEW_PATH = '/api/overview';

/**
 * Next's floor: GET /api/failed with limit=0 is refused by the route's
 * parameter check (400) before anything reads Redis, so its time is what
 * Next itself costs per request on this machine.
 */
const NEXT_FLOOR_PATH = '/api/failed?limit=0';
/** bull-board's floor: a path under its router that no route answers, Express' 404. */
const EXPRESS_FLOOR_PATH = `${BULL_BOARD_BASE_PATH}/api/no-such-route`;

/**
 * The pages the issue names, and Next's floor. The in-process readers
 * compose the layouts' readers as lib/server does, with its limits (20 rows per
 * list): lib/server's modules import 'server-only' and load only inside Next.
 */
function pagesOf(plan: SeedPlan, historyKeys: ThroughputKeys): Page[] {
  const queueName = plan.queues[0]!;
  const overviewHistory = new RecentHistory('15m');
  const failedPage = (page: number): Page => ({
    name: `failed jobs, page ${formatCount(page)} (${ROWS_PER_PAGE} rows)`,
    path: `/api/failed?offset=${(page - 1) * ROWS_PER_PAGE}&limit=${ROWS_PER_PAGE}`,
    readInProcess: (queue) => readFailedPage(queue, (page - 1) * ROWS_PER_PAGE, ROWS_PER_PAGE),
    expectStatus: 200,
  });
  return [
    {
      name: 'overview: stats() + failed count + Redis info',
      path: OVERVIEW_PATH,
      // Then the sparklines, as lib/server/throughput.ts reads them: kept between calls, so only new points are read.
      readInProcess: async (queue) => {
        const [counts, failed, server] = await Promise.all([queue.stats(), queue.failedCount(), readServerInfo(queue)]);
        const sparklines = await overviewHistory.read(queue.redis, historyKeys, [null, ...counts.map((row) => row.queue)]);
        return { counts, failed, server, sparklines };
      },
      expectStatus: 200,
    },
    failedPage(1),
    // A smaller run has fewer pages: its last stands in for page 1,000.
    failedPage(Math.min(DEEP_FAILED_PAGE, Math.ceil(plan.failed / ROWS_PER_PAGE))),
    {
      name: `queue detail (${queueName})`,
      path: `/api/queues/${queueName}`,
      readInProcess: (queue) => readQueueDetail(queue, queueName, { limit: 20 }),
      expectStatus: 200,
    },
    { name: 'reservations', path: '/api/reservations', readInProcess: (queue) => readReservations(queue), expectStatus: 200 },
    {
      name: `delayed timeline (${queueName})`,
      path: `/api/queues/${queueName}/delayed`,
      readInProcess: (queue) => readDelayedTimeline(queue, queueName, { limit: 20 }),
      expectStatus: 200,
    },
    { name: "Next's floor: a 400 before any read", path: NEXT_FLOOR_PATH, readInProcess: null, expectStatus: 400 },
  ];
}

/**
 * GETs `url` and reads the whole body: the time a page's poll takes. Any
 * status but `expectStatus` throws, so that an error page is never timed as
 * a page.
 */
async function fetchBody(url: string, headers: Record<string, string> = {}, expectStatus = 200): Promise<string> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== expectStatus) throw new Error(`GET ${url} answered ${response.status}, not ${expectStatus}: ${body.slice(0, 300)}`);
  return body;
}

/** The first answer of each route is checked to hold what it should, so that the timings are of real reads. */
function assertAnswer(url: string, body: string, holds: (json: Record<string, unknown>) => boolean): void {
  const json = JSON.parse(body) as Record<string, unknown>;
  if (!holds(json)) throw new Error(`GET ${url} did not answer as expected: ${body.slice(0, 300)}`);
}

interface PageResult {
  page: Page;
  /** the route's first request in the server process, checked and not counted in `http` */
  firstMs: number;
  http: Spread;
  inProcess: Spread | null;
  /** Redis' work while the page was timed, and how many reads (over HTTP and in-process) it covers */
  work: RedisWork;
  reads: number;
}

/**
 * Each page REQUESTS times over HTTP, each request followed by the same
 * reader in this process, so that a moment of load on the shared machine
 * falls on both alike. Both send the same commands, so Redis' work is per
 * read of either.
 */
async function measurePages(pages: readonly Page[], app: ServedApp, auth: Record<string, string>, queue: RedisQueue, probe: RedisProbe): Promise<PageResult[]> {
  const results: PageResult[] = [];
  for (const page of pages) {
    const url = `${app.baseUrl}${page.path}`;
    const get = () => fetchBody(url, auth, page.expectStatus);
    const reader = page.readInProcess;
    const read = reader ? () => reader(queue) : null;
    const firstMs = await durationOf(async () => assertAnswer(url, await get(), (json) => json.ok === (page.expectStatus === 200)));
    for (let warm = 0; warm < WARMUP; warm++) {
      await get();
      await read?.();
    }
    const httpMs: number[] = [];
    const inProcessMs: number[] = [];
    const work = await redisWorkDuring(probe, async () => {
      for (let request = 0; request < REQUESTS; request++) {
        httpMs.push(await durationOf(get));
        if (read) inProcessMs.push(await durationOf(read));
      }
    });
    const http = spreadOf(httpMs);
    const inProcess = read ? spreadOf(inProcessMs) : null;
    results.push({ page, firstMs, http, inProcess, work, reads: httpMs.length + inProcessMs.length });
    console.log(
      `  ${page.name}: ${ms(http.medianMs)} ms median over HTTP${inProcess ? `, ${ms(inProcess.medianMs)} ms in this process` : ''}; its first request ${ms(firstMs)} ms`,
    );
  }
  return results;
}

/** A route timed side by side; `floor` is its server's request without any read, which its time is also given beyond. */
interface Endpoint {
  name: string;
  get: () => Promise<unknown>;
  floor: Endpoint | null;
}

interface EndpointResult {
  spread: Spread;
  /** Redis' work over REQUESTS requests of it alone */
  work: RedisWork;
}

/**
 * The endpoints one request after another, REQUESTS rounds, so that a
 * moment of load on the shared machine falls on all of them alike; then
 * each alone for its Redis work (commandstats are per server), under
 * SLOWLOG.
 */
async function measureSideBySide(endpoints: readonly Endpoint[], probe: RedisProbe): Promise<{ results: Map<Endpoint, EndpointResult>; slow: SlowPhase }> {
  const samples = new Map(endpoints.map((endpoint) => [endpoint, [] as number[]]));
  for (const endpoint of endpoints) await sampleDurations(WARMUP, endpoint.get);
  for (let round = 0; round < REQUESTS; round++) {
    for (const endpoint of endpoints) samples.get(endpoint)!.push(await durationOf(endpoint.get));
  }
  const results = new Map<Endpoint, EndpointResult>();
  const slow = await slowCommandsDuring(probe, SLOWLOG_MICROS, async () => {
    for (const endpoint of endpoints) {
      const work = await redisWorkDuring(probe, () => sampleDurations(REQUESTS, endpoint.get));
      results.set(endpoint, { spread: spreadOf(samples.get(endpoint)!), work });
    }
  });
  return { results, slow };
}

/** BullMQ's counts over every queue, to show both layouts hold the same. */
async function bullCounts(connection: Redis, plan: SeedPlan): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const name of plan.queues) {
    const queue = new Queue(name, { connection, prefix: BULL_PREFIX });
    for (const [state, count] of Object.entries(await queue.getJobCounts())) totals[state] = (totals[state] ?? 0) + count;
    await queue.close();
  }
  return totals;
}

async function usedMemory(admin: Redis): Promise<string> {
  return parseInfo(await admin.info('memory')).get('used_memory_human') ?? '?';
}

/**
 * Who sent a logged command. Every client of the benchmark's Redis names
 * itself except the Next server, whose connection lib/server opens; a
 * command run by a script is logged with the address `?:0` and no name.
 */
function clientOf({ clientName, clientAddress }: SlowCommand): string {
  if (clientAddress === '?:0') return 'inside a script';
  return `${clientName || 'next start'} ${clientAddress}`;
}

function printSlowCommands(phase: string, { entries, seconds, work }: SlowPhase): void {
  const unbounded = entries.filter((entry) => boundOf(entry.args) === null);
  const count =
    entries.length >= SLOWLOG_CAPACITY ? `the newest ${formatCount(entries.length)} entries (the log filled up)` : `${formatCount(entries.length)} entries`;
  const verdict =
    entries.length === 0 ? 'nothing' : `${count}, ${unbounded.length === 0 ? 'each a bounded command' : `${unbounded.length} not visibly bounded`}`;
  console.log(
    `SLOWLOG (> ${SLOWLOG_MICROS / 1000} ms) ${phase} (${seconds.toFixed(0)} s, Redis waiting for a CPU ${percentOf(work.waitingMicros, seconds)} of it): ${verdict}`,
  );
  // What a logged command costs on average over the phase tells its own cost from a pause of the machine.
  const averageOf = new Map(work.byCommand.map(({ command, calls, micros }) => [command, micros / calls]));
  const logged = new Map<string, number[]>();
  for (const { args, micros } of entries) {
    // commandstats names subcommands `client|list`.
    const [name = '?', sub = ''] = args.map((arg) => arg.toLowerCase());
    const command = averageOf.has(`${name}|${sub}`) ? `${name}|${sub}` : name;
    logged.set(command, [...(logged.get(command) ?? []), micros / 1000]);
  }
  for (const [command, durations] of logged) {
    const average = averageOf.get(command);
    console.log(
      `  ${command}: logged ${formatCount(durations.length)}×, ${ms(Math.min(...durations))}–${ms(Math.max(...durations))} ms; ` +
        (average === undefined ? 'no average' : `${formatCount(average)} µs on average over the phase`),
    );
  }
  // The unbounded ones first: they are what to look into.
  for (const entry of [...unbounded, ...entries.filter((entry) => !unbounded.includes(entry))].slice(0, 30)) {
    console.log(`  ${ms(entry.micros / 1000)} ms  ${entry.args.join(' ').slice(0, 140)}  [${clientOf(entry)}] ${boundOf(entry.args) ?? 'NOT VISIBLY BOUNDED'}`);
  }
}

/** Both layouts seeded with the plan, each step reported; the seconds each took. */
async function seedBoth(
  plan: SeedPlan,
  queue: RedisQueue,
  bullConnection: Redis,
  probe: RedisProbe,
): Promise<{ queueLensSeconds: number; bullSeconds: number }> {
  // Redis' CPU against the wall time says whether a step waited on Redis,
  // and its wait for a CPU whether the machine's load held Redis back (the
  // scripts' own time counts those moments too).
  const step: SeedStep = async (label, count, body) => {
    let seconds = 0;
    const work = await redisWorkDuring(probe, async () => {
      seconds = (await durationOf(body)) / 1000;
    });
    const scripts = work.byCommand.filter(({ command }) => command === 'evalsha' || command === 'eval');
    const scriptMicros = scripts.reduce((sum, row) => sum + row.micros, 0);
    const scriptCalls = scripts.reduce((sum, row) => sum + row.calls, 0);
    console.log(
      `  ${label}: ${seconds.toFixed(1)} s, ${formatCount(count / seconds)} jobs/s; Redis CPU ${formatCount(work.cpuMicros / count)} µs per job, ` +
        `busy ${percentOf(work.cpuMicros, seconds)} and waiting for a CPU ${percentOf(work.waitingMicros, seconds)} of the time; scripts ${formatCount(scriptMicros / scriptCalls)} µs per call inside Redis`,
    );
  };
  const queueLensSeconds = await seedQueueLens(queue, plan, step);
  const queueLensMemory = await usedMemory(probe.admin);
  const bullSeconds = await seedBullMQ(bullConnection, plan, step);
  const stats = await queue.stats();
  const sum = (column: 'pending' | 'delayed' | 'reserved') => formatCount(stats.reduce((total, row) => total + row[column], 0));
  const bull = await bullCounts(bullConnection, plan);
  const cameDue = plan.delayed - stats.reduce((total, row) => total + row.delayed, 0);
  // The shortest delays are a minute: some come due while the rest is seeded, and stats() counts those pending.
  console.log(
    `  QueueLens holds: pending ${sum('pending')}, delayed ${sum('delayed')} (${formatCount(cameDue)} came due meanwhile), reserved ${sum('reserved')}, failed ${formatCount(await queue.failedCount())}; Redis used ${queueLensMemory}`,
  );
  console.log(
    `  BullMQ holds: waiting ${formatCount((bull.waiting ?? 0) + (bull.prioritized ?? 0))}, delayed ${formatCount(bull.delayed ?? 0)}, active ${formatCount(bull.active ?? 0)}, failed ${formatCount(bull.failed ?? 0)}; Redis used ${await usedMemory(probe.admin)} for both`,
  );
  return { queueLensSeconds, bullSeconds };
}

interface DoctorRun {
  /** each step's duration and the phase it worked in */
  steps: { phase: Phase; ms: number }[];
  seconds: number;
  findings: Finding[];
  slow: SlowPhase;
}

/** The whole doctor, as the /doctor page runs it (one step per server action), timed step by step. */
async function measureDoctor(queue: RedisQueue, probe: RedisProbe): Promise<DoctorRun> {
  const steps: DoctorRun['steps'] = [];
  let findings: Finding[] = [];
  const started = performance.now();
  let stepStarted = started;
  // A step reports the state it leaves, so the phase it worked in is the one before.
  let phase = startDoctor().phase;
  const slow = await slowCommandsDuring(probe, SLOWLOG_MICROS, async () => {
    findings = await runDoctor(queue, (state) => {
      const now = performance.now();
      steps.push({ phase, ms: now - stepStarted });
      stepStarted = now;
      phase = state.phase;
    });
  });
  return { steps, seconds: (performance.now() - started) / 1000, findings, slow };
}

/** "1,234 steps in 56.7 s: 8.9 ms median, …", overall and per phase. */
function describeDoctor({ steps, seconds, findings }: DoctorRun): string {
  const describe = (durations: number[]) => {
    const spread = spreadOf(durations);
    return `${ms(spread.medianMs)} ms median, ${ms(spread.p95Ms)} ms p95, ${ms(Math.max(...durations))} ms the longest`;
  };
  const phases = [...new Set(steps.map((step) => step.phase))].map((phase) => {
    const durations = steps.filter((step) => step.phase === phase).map((step) => step.ms);
    return `${phase} ${formatCount(durations.length)} (${describe(durations)})`;
  });
  return `${formatCount(steps.length)} steps in ${seconds.toFixed(1)} s, ${describe(steps.map((step) => step.ms))}; ${findings.length} findings. Steps per phase: ${phases.join('; ')}`;
}

function pagesTable(results: readonly PageResult[]): string {
  return markdownTable(
    [
      'page (JSON route)',
      'HTTP median ms',
      'HTTP p95 ms',
      'in-process median ms',
      'in-process p95 ms',
      'Redis commands / request',
      'Redis CPU µs / request',
      `median ÷ ${TARGET_MS} ms target`,
    ],
    'lrrrrrrr',
    results.map(({ page, http, inProcess, work, reads }) => [
      `${page.name} \`${page.path}\``,
      ms(http.medianMs),
      ms(http.p95Ms),
      inProcess ? ms(inProcess.medianMs) : '—',
      inProcess ? ms(inProcess.p95Ms) : '—',
      ...perRequest(work, reads),
      page.readInProcess ? `${(http.medianMs / TARGET_MS).toFixed(2)}×${http.medianMs < TARGET_MS ? '' : ' (missed)'}` : '—',
    ]),
  );
}

function sideBySideTable(endpoints: readonly Endpoint[], results: ReadonlyMap<Endpoint, EndpointResult>): string {
  const reference = endpoints[0]!;
  const { spread: overview } = results.get(reference)!;
  const beyondFloor = (endpoint: Endpoint) => results.get(endpoint)!.spread.medianMs - (endpoint.floor ? results.get(endpoint.floor)!.spread.medianMs : 0);
  return markdownTable(
    [
      'endpoint',
      'median ms',
      'p95 ms',
      'median beyond its server’s floor, ms',
      'Redis commands / request (inside scripts too)',
      'Redis CPU µs / request',
      '÷ QueueLens overview: median',
      'p95',
      'beyond floor',
    ],
    'lrrrrrrrr',
    endpoints.map((endpoint) => {
      const { spread, work } = results.get(endpoint)!;
      const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}×`;
      return [
        endpoint.name,
        ms(spread.medianMs),
        ms(spread.p95Ms),
        endpoint.floor ? ms(beyondFloor(endpoint)) : '—',
        ...perRequest(work, REQUESTS),
        ratio(spread.medianMs, overview.medianMs),
        ratio(spread.p95Ms, overview.p95Ms),
        endpoint.floor ? ratio(beyondFloor(endpoint), beyondFloor(reference)) : '—',
      ];
    }),
  );
}

/**
 * The overview's sparklines read in this process: into a fresh RecentHistory
 * (every point of the 15 minutes, as a server's first overview does), and
 * again into one that has read them (only the points written since).
 */
async function timeHistoryReads(queue: RedisQueue, keys: ThroughputKeys, names: readonly string[]): Promise<{ cold: Spread; warm: Spread }> {
  const series = [null, ...names];
  const cold = await sampleDurations(COLD_HISTORY_READS, () => new RecentHistory('15m').read(queue.redis, keys, series));
  const kept = new RecentHistory('15m');
  await kept.read(queue.redis, keys, series);
  const warm = await sampleDurations(REQUESTS, () => kept.read(queue.redis, keys, series));
  return { cold: spreadOf(cold), warm: spreadOf(warm) };
}

/** "ioredis 41 % (123.4 ms), …": each row's share of `totalMs`. */
function describeShares(rows: readonly { name: string; selfMs: number }[], totalMs: number): string {
  return rows.map(({ name, selfMs }) => `${name} ${Math.round((100 * selfMs) / totalMs)} % (${ms(selfMs)} ms)`).join('; ');
}

/** Starts the production server with `nodeFlags` (--cpu-prof…), on a port of its own, against the benchmark's Redis. */
type NextStarter = (nodeFlags: readonly string[], label: string) => Promise<ServedApp>;

/**
 * The Next server's CPU profile over PROFILED_CALLS requests of `path`: a
 * second server started with --cpu-prof (Node refuses it in NODE_OPTIONS),
 * warmed up, asked, and stopped, which writes the profile; only the samples
 * taken while the requests ran are counted.
 */
async function profileNextRequests(startNext: NextStarter, profileDir: string, path: string, auth: Record<string, string>): Promise<ProfileSummary> {
  mkdirSync(profileDir);
  const server = await startNext(['--cpu-prof', `--cpu-prof-dir=${profileDir}`], 'next start --cpu-prof');
  const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
  let window: { fromMicros: number; toMicros: number };
  try {
    await sampleDurations(WARMUP, () => fetchBody(`${server.baseUrl}${path}`, auth));
    const fromMicros = nowMicros();
    await sampleDurations(PROFILED_CALLS, () => fetchBody(`${server.baseUrl}${path}`, auth));
    window = { fromMicros, toMicros: nowMicros() };
  } finally {
    await server.stop();
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`next start wrote no CPU profile into ${profileDir}`);
  return summarizeProfile(readCpuProfile(join(profileDir, file)), window);
}

/**
 * Where a page's time goes: Redis' side from commandstats, the Next
 * server's from its CPU profile over the same requests, and the reader's
 * alone from a profile in this process (whose function names tsx keeps and
 * Next's minifier does not). For each page over the target, and for the
 * overview, whose time is QueueLens' side of the ratio with bull-board.
 */
async function explainPages(
  results: readonly PageResult[],
  queue: RedisQueue,
  startNext: NextStarter,
  workDir: string,
  auth: Record<string, string>,
): Promise<void> {
  const floor = results.find(({ page }) => page.path === NEXT_FLOOR_PATH);
  for (const [index, { page, http, inProcess, work, reads }] of results.entries()) {
    const read = page.readInProcess;
    const missed = http.medianMs >= TARGET_MS;
    if (!read || !inProcess || (!missed && page.path !== OVERVIEW_PATH)) continue;
    const server = await profileNextRequests(startNext, join(workDir, `next-profile-${index}`), page.path, auth);
    const local = await profileOf(async () => {
      for (let call = 0; call < PROFILED_CALLS; call++) await read(queue);
    });
    const heading = missed ? `Why ${page.name} misses the target` : `Where ${page.name} spends its time (QueueLens' side of the ratio with bull-board)`;
    console.log(
      `\n${heading}: ${ms(http.medianMs)} ms median over HTTP, ${ms(inProcess.medianMs)} ms for its reader in this process, ${floor ? ms(floor.http.medianMs) : '?'} ms Next's floor`,
    );
    console.log(
      `  Redis, per request: ${formatCount(work.cpuMicros / reads)} µs of CPU; ${work.byCommand
        .slice(0, 6)
        .map((row) => `${row.command} ${formatCount(row.calls / reads)}× ${formatCount(row.micros / reads)} µs`)
        .join(', ')}`,
    );
    console.log(
      `  The Next server over ${PROFILED_CALLS} requests: ${ms(server.sampledMs)} ms sampled, ${ms(server.idleMs)} ms of it idle. By package: ${describeShares(server.byPackage, server.sampledMs)}`,
    );
    console.log(`    Functions: ${describeShares(server.topFunctions, server.sampledMs)}`);
    console.log(
      `  The reader in this process over ${PROFILED_CALLS} calls: ${ms(local.sampledMs)} ms sampled, ${ms(local.idleMs)} ms of it idle. Functions: ${describeShares(local.topFunctions, local.sampledMs)}`,
    );
  }
}

async function main(): Promise<void> {
  const plan = seedPlan(scaleFromEnv());
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-'));
  let keepWorkDir = false;
  atExit(() => {
    if (keepWorkDir) console.error(`The servers' logs are kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  const loadAtStart = loadavg();
  try {
    console.log(
      `\nDashboard benchmark: ${formatCount(plan.jobs)} jobs over ${plan.queues.length} queues and ${formatCount(plan.failed)} failed, ${describeMachine()}\n`,
    );
    const buildStarted = performance.now();
    const built = ensureProductionBuild(root, join(workDir, 'next-build.log'));
    console.log(
      built
        ? `  next build (the build was missing or stale): ${((performance.now() - buildStarted) / 1000).toFixed(0)} s`
        : '  next build: .next is up to date',
    );

    const redis = await startPrivateRedis(workDir);
    cleanups.push(() => redis.stop());
    const admin = redis.connect(QUEUELENS_DATABASE, { connectionName: 'bench-admin' });
    cleanups.push(() => admin.quit());
    const probe: RedisProbe = { admin, pid: redis.pid };
    const redisVersion = parseInfo(await admin.info('server')).get('redis_version') ?? '?';
    console.log(
      `  redis-server ${redisVersion} of its own on 127.0.0.1:${redis.port} (QueueLens in database ${QUEUELENS_DATABASE}, BullMQ in ${BULLMQ_DATABASE})`,
    );
    const queue = await RedisQueue.connect(
      readSettings({ hostname: '127.0.0.1', port: redis.port, database: QUEUELENS_DATABASE, prefix: PREFIX, group: GROUP }),
    );
    cleanups.push(() => queue.close());
    await queue.redis.client('SETNAME', 'bench-queuelens');
    // BullMQ wants connections that never give up on a command.
    const bullConnection = redis.connect(BULLMQ_DATABASE, { maxRetriesPerRequest: null, connectionName: 'bench-bullmq' });
    cleanups.push(() => bullConnection.quit());

    console.log('\nSeeding');
    const { queueLensSeconds, bullSeconds } = await seedBoth(plan, queue, bullConnection, probe);
    // Last, so that it ends as the server starts: the overview reads from now − 15 minutes.
    const historyKeys = throughputKeys(dashboardKeys(DASHBOARD_PREFIX), queue.keys.prefix);
    const historyStarted = performance.now();
    const historyPoints = await seedHistory(queue, historyKeys, await queue.stats());
    console.log(
      `  throughput history: ${formatCount(historyPoints)} points (15 minutes of 5-second points for ${plan.queues.length} queues and for every queue together) in ${ms(performance.now() - historyStarted)} ms`,
    );

    const secret = randomBytes(32).toString('hex');
    // Sent from the start: harmless before the routes check it, required after.
    const auth = { authorization: `Bearer ${secret}` };
    const portsTaken = new Set([redis.port]);
    const startNext: NextStarter = async (nodeFlags, label) => {
      const port = await freeBenchPort(portsTaken);
      portsTaken.add(port);
      return startBenchDashboard({
        root,
        workDir,
        port,
        redisUrl: redis.url(QUEUELENS_DATABASE),
        prefix: PREFIX,
        group: GROUP,
        dashboardPrefix: DASHBOARD_PREFIX,
        secret,
        readyPath: NEXT_FLOOR_PATH,
        nodeFlags,
        label,
      });
    };
    const app = await startNext([], 'next start');
    cleanups.push(() => app.stop());
    const memoryAtStart = app.memory();
    const boardPort = await freeBenchPort(portsTaken);
    const board = await startBullBoard({
      root,
      workDir,
      port: boardPort,
      redisUrl: redis.url(BULLMQ_DATABASE),
      queues: plan.queues,
      readyPath: EXPRESS_FLOOR_PATH,
    });
    cleanups.push(() => board.stop());

    console.log(`\nPages (${REQUESTS} requests each after ${WARMUP} unmeasured, one at a time)`);
    let results: PageResult[] = [];
    const slowDuringPages = await slowCommandsDuring(probe, SLOWLOG_MICROS, async () => {
      results = await measurePages(pagesOf(plan, historyKeys), app, auth, queue, probe);
    });
    const history = await timeHistoryReads(queue, historyKeys, plan.queues);

    console.log('\nThe doctor (in this process, the steps the /doctor page runs one server action at a time)');
    const doctor = await measureDoctor(queue, probe);
    console.log(`  ${describeDoctor(doctor)}`);

    console.log('\nQueueLens overview against bull-board (interleaved)');
    const queuesUrl = `${board.baseUrl}${BULL_BOARD_BASE_PATH}/api/queues`;
    assertAnswer(queuesUrl, await fetchBody(queuesUrl), (json) => Array.isArray(json.queues) && json.queues.length === plan.queues.length);
    const nextFloor: Endpoint = {
      name: `Next's floor \`${NEXT_FLOOR_PATH}\` (400 before any read)`,
      get: () => fetchBody(`${app.baseUrl}${NEXT_FLOOR_PATH}`, auth, 400),
      floor: null,
    };
    const expressFloor: Endpoint = {
      name: `bull-board's floor \`${EXPRESS_FLOOR_PATH}\` (Express' 404)`,
      get: () => fetchBody(`${board.baseUrl}${EXPRESS_FLOOR_PATH}`, {}, 404),
      floor: null,
    };
    const endpoints: Endpoint[] = [
      { name: `QueueLens \`GET ${OVERVIEW_PATH}\``, get: () => fetchBody(`${app.baseUrl}${OVERVIEW_PATH}`, auth), floor: nextFloor },
      { name: 'bull-board `GET /api/queues`', get: () => fetchBody(queuesUrl), floor: expressFloor },
      {
        name: 'bull-board `GET /api/queues` and `/api/redis/stats` at once (its counts and its Redis facts, as the overview has both)',
        get: () => Promise.all([fetchBody(queuesUrl), fetchBody(`${board.baseUrl}${BULL_BOARD_BASE_PATH}/api/redis/stats`)]),
        floor: expressFloor,
      },
      nextFloor,
      expressFloor,
    ];
    const sideBySide = await measureSideBySide(endpoints, probe);

    const appMemory = app.memory();
    const boardMemory = board.memory();
    const loadAtEnd = loadavg();
    const loads = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ');
    console.log(
      `\n## Dashboard at scale: ${formatCount(plan.jobs)} jobs over ${plan.queues.length} queues (10 % delayed, 1 % reserved), ${formatCount(plan.failed)} failed\n`,
    );
    console.log(`${describeMachine()}, Redis ${redisVersion}; load average ${loads(loadAtStart)} at the start, ${loads(loadAtEnd)} at the end`);
    console.log(`Seeding (pipelined): QueueLens ${ms(queueLensSeconds)} s, BullMQ ${ms(bullSeconds)} s\n`);
    console.log(pagesTable(results));
    const overview = results.find(({ page }) => page.path === OVERVIEW_PATH)!;
    console.log(
      `\nThe overview's first request to the fresh server: ${ms(overview.firstMs)} ms (Next loading the route, and RecentHistory reading every point of the last 15 minutes); ` +
        `then ${ms(overview.http.medianMs)} ms median, ${ms(overview.http.p95Ms)} ms p95 over ${REQUESTS}. ` +
        `In this process, reading those 15 minutes of ${plan.queues.length + 1} series into a fresh RecentHistory took ${ms(history.cold.medianMs)} ms (median of ${COLD_HISTORY_READS}), and a read after it ${ms(history.warm.medianMs)} ms (median of ${REQUESTS}).`,
    );
    console.log(`\n${sideBySideTable(endpoints, sideBySide.results)}\n`);
    console.log(
      `Peak memory (VmHWM): the QueueLens dashboard server (pid ${app.pid}) ${megabytes(appMemory.peakBytes)}, ${megabytes(memoryAtStart.rssBytes)} after start and ${megabytes(appMemory.rssBytes)} at the end; bull-board's server ${megabytes(boardMemory.peakBytes)}`,
    );
    console.log(`The doctor: ${describeDoctor(doctor)}`);
    printSlowCommands('while the pages were read', slowDuringPages);
    printSlowCommands('while the doctor ran', doctor.slow);
    printSlowCommands('while each endpoint was read alone (bull-board, the overview, the floors)', sideBySide.slow);
    await explainPages(results, queue, startNext, workDir, auth);
  } catch (error) {
    keepWorkDir = true;
    throw error;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('Cleaning up failed:', error));
  }
}

await main();
