/**
 * Find at scale (issue 27's measurements). On a redis-server of its own
 * (bench/private-redis.ts), each layout's database is seeded with the same
 * jobs (bench/seed-find.ts: --jobs over --queues queues, 20 % of them
 * failed where the layout keeps failed jobs), then, per layout:
 * 1. a search for a job name, a payload substring (one job's order
 *    reference, in the middle queue) and an error substring (where the
 *    layout keeps errors), through the layout's JobFinder step by step as
 *    the page and `queuelens find` drive it: ms to the first match and to
 *    the full pass, against the floor (the same indexes walked from here
 *    with the same chunk size, by XRANGE, LRANGE, or ZSCAN / HSCAN with a
 *    MATCH that matches nothing) and, where the search reads each job's
 *    hash (StaticPHP, marko), against the floor over those keys too (each
 *    hash HSCANned with that MATCH, pipelined a chunk at a time), median of
 *    --rounds interleaved rounds;
 * 2. Redis CPU for each (INFO cpu used_cpu_sys + used_cpu_user) and this
 *    process' (the finder's decoding and matching);
 * 3. another viewer reading the layout's counts (the overview's read) in a
 *    loop on its own connection, during one more pass and for as long with
 *    no search; then one more pass with SLOWLOG at threshold 0 (read and
 *    reset every SLOWLOG_READ_MS): the longest single call of the search;
 *    once more with SLOWLOG at 1 ms, which leaves out the logging of the
 *    commands run inside the scripts (at 0 it runs inside each call's
 *    time); and then as many calls of a script of fixed cost (the search's
 *    median script call), timed the same way: what goes over 2 ms on this
 *    machine whatever a script does;
 * 4. "Go to job" with an id no job has (the layout's job look-up without
 *    a queue, as a miss on another connection asks it too): ms, median of
 *    --rounds alone; its calls and the longest; the other viewer's
 *    overview read while it runs again;
 * 5. StaticPHP: every failed match of the name forgotten, then every
 *    failed match of the error (the rest) retried, as Find's "… every
 *    match" run does it (lib/layouts/every-match.ts, one step after another;
 *    the served app adds a request and an audit entry a step), while a
 *    worker reserves and completes jobs; then every job accounted for once;
 *    marko: every failed match of the name forgotten and every live one
 *    removed, while a worker that follows marko's pop runs;
 * 6. yii2 (the stock driver): every live match of the name removed the same
 *    way, while a stock worker reserves and acknowledges jobs of every
 *    channel in turn (taking each channel's moving_lock at every reserve
 *    that finds it free); then every job found accounted for. Laravel: the
 *    same, while the real RedisQueue (one PHP process) pops and deletes
 *    jobs of every queue in turn.
 * Prints figures; asserts nothing.
 *
 * Run: npx tsx bench/find.ts [--jobs 100000] [--queues 50] [--rounds 3] [--layout staticphp --layout yii2 …]
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { isAbsent, type LayoutCounts, type QueueLayout } from '../lib/layouts/adapter';
import type { JobFinder } from '../lib/layouts/pages';
import { FIND_CHUNK } from '../lib/layouts/find-steps';
import { staticphpLayout } from '../lib/layouts/staticphp/layout';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { yii2Layout } from '../lib/layouts/yii2/layout';
import { yii2Settings } from '../lib/layouts/yii2/test-fixtures';
import { Yii2Keys } from '../lib/layouts/yii2/keys';
import { yii2TrashKeys } from '../lib/layouts/yii2/repairs';
import { driverAcknowledge, driverReserve } from '../lib/layouts/yii2/test-drivers';
import { DEFAULT_YII2_NG_SETTINGS } from '../lib/layouts/settings';
import { markoLayout } from '../lib/layouts/marko/layout';
import { MarkoKeys } from '../lib/layouts/marko/keys';
import { MarkoTestWorker } from '../lib/layouts/marko/test-worker';
import { layoutTrashKeys } from '../lib/layouts/trash';
import { laravelLayout } from '../lib/layouts/laravel/layout';
import { LaravelHarness } from '../lib/layouts/laravel/php-harness';
import { trashSettingsFromEnv } from '../lib/dashboard/trash-settings';
import { RedisConnection } from '../lib/redis/connection';
import { readSettings } from '../lib/redis/config';
import { expandIncludes } from '../lib/redis/lua-script';
import { execPipeline } from '../lib/redis/pipeline';
import { parseInfo } from '../lib/redis/server-info';
import { everyMatchStep } from '../lib/layouts/every-match';
import type { EveryMatchAction, FindQuery, FindStep } from '../lib/shapes/find';
import type { TrashWrite } from '../lib/shapes/trash';
import { durationOf, redisWorkDuring, spreadOf, type RedisProbe, type RedisWork, type Spread } from './measure';
import { startPrivateRedis, type PrivateRedis } from './private-redis';
import { atExit } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { findSeedPlan, laravelTemplates, plannedJob, plannedTotal, seedLaravel, seedMarko, seedYii2 } from './seed-find';
import { heldCount, type SeedPlan } from './seed-plan';
import { seedQueueLens } from './seed-queuelens';

const LAYOUTS = ['staticphp', 'yii2', 'marko', 'laravel'] as const;
type LayoutName = (typeof LAYOUTS)[number];
const DATABASE: Record<LayoutName, number> = { staticphp: 0, yii2: 1, marko: 2, laravel: 3 };
const PREFIX: Record<LayoutName, string> = { staticphp: 'queue:', yii2: '', marko: 'marko:', laravel: 'laravel_database_' };
const FAILED_SHARE = 0.2;
/** The name searched for: one of bench/seed-plan.ts's five, so a fifth of the jobs match. */
const NAME_TEXT = 'GenerateReport';
/** Every failed job's error holds it (bench/seed-plan.ts failureText). */
const ERROR_TEXT = 'upstream answered 503';
/** MATCH for the floor's ZSCAN and HSCAN: no member or field is this. */
const MATCHES_NOTHING = '*\u0000no such member\u0000*';
/** The viewer's pause between two overview reads. */
const VIEWER_PAUSE_MS = 20;
/** SLOWLOG's threshold while acting on the matches. */
const ACTING_SLOWLOG_MICROS = 1_000;
const root = new URL('..', import.meta.url);

const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const ms = (value: number) => (value >= 100 ? formatCount(value) : value.toFixed(1));
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function optionsFromArgs() {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: '100000' },
      queues: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '3' },
      layout: { type: 'string', multiple: true },
    },
  });
  const whole = (text: string, name: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of at least 1, got "${text}"`);
    return value;
  };
  const layouts = (values.layout ?? [...LAYOUTS]).map((name) => {
    if (!(LAYOUTS as readonly string[]).includes(name)) throw new Error(`--layout is one of ${LAYOUTS.join(', ')}, got "${name}"`);
    return name as LayoutName;
  });
  return { jobs: whole(values.jobs, 'jobs'), queues: whole(values.queues, 'queues'), rounds: whole(values.rounds, 'rounds'), layouts };
}

/** One index as the floor walks it: the command that reads it a chunk at a time. */
interface FloorPart {
  kind: 'stream' | 'zset' | 'hash' | 'list';
  key: string;
  /**
   * Where the index's ids are jobs whose hashes the search reads (StaticPHP,
   * marko): the hashes' prefix. The floor over the same keys (floorPass's
   * `withJobs`) visits each of them too.
   */
  jobPrefix?: string;
}

interface NamedQuery {
  what: 'name' | 'payload' | 'error';
  query: FindQuery;
}

/** One layout, seeded, as the benchmark measures it. */
interface Subject {
  name: LayoutName;
  plan: SeedPlan;
  seedSeconds: number;
  layout: QueueLayout;
  finder: JobFinder;
  /** Redis connection the searches use (named bench-find) */
  searching: Redis;
  /** the overview's read, by another viewer on a connection of its own (named bench-viewer) */
  overview(): Promise<LayoutCounts>;
  floorParts(): Promise<FloorPart[]>;
  queries: NamedQuery[];
  close(): Promise<void>;
}

const query = (text: string, field: FindQuery['field'], states: FindQuery['states'] = []): FindQuery => ({
  text,
  field,
  queue: null,
  states,
  ignoreCase: false,
});

/** The payload searched for: the order reference of a waiting job in the middle queue, past the held jobs (whose references repeat the first waiting ones'). */
function middleReference(plan: SeedPlan): string {
  const middle = Math.floor(plan.queues.length / 2);
  for (let index = heldCount(plan) + Math.floor((plannedTotal(plan) - heldCount(plan)) / 2); ; index++) {
    const { job, state } = plannedJob(plan, index);
    if (state === 'ready' && job.queue === plan.queues[middle]) return job.payload.reference;
  }
}

function queriesOf(plan: SeedPlan, keepsErrors: boolean): NamedQuery[] {
  return [
    { what: 'name', query: query(NAME_TEXT, 'name') },
    { what: 'payload', query: query(middleReference(plan), 'payload') },
    ...(keepsErrors ? [{ what: 'error' as const, query: query(ERROR_TEXT, 'error') }] : []),
  ];
}

function finderOf(layout: Pick<QueueLayout, 'finder'>): JobFinder {
  if (isAbsent(layout.finder)) throw new Error(layout.finder.absent);
  return layout.finder;
}

async function timed<T>(seed: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await seed();
  return { seconds: (performance.now() - started) / 1000, value };
}

async function connectionOf(redis: PrivateRedis, name: LayoutName, clientName: string): Promise<RedisConnection> {
  const connection = await RedisConnection.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, database: DATABASE[name], prefix: 'unused:' }));
  await connection.redis.client('SETNAME', clientName);
  return connection;
}

async function staticphpSubject(redis: PrivateRedis, jobs: number, queues: number): Promise<Subject & { queue: RedisQueue }> {
  const plan = findSeedPlan(jobs, queues, FAILED_SHARE);
  const settings = readSettings({ hostname: '127.0.0.1', port: redis.port, database: DATABASE.staticphp, prefix: PREFIX.staticphp, group: 'workers' });
  const [queue, viewerQueue] = [await RedisQueue.connect(settings), await RedisQueue.connect(settings)];
  await queue.redis.client('SETNAME', 'bench-find');
  await viewerQueue.redis.client('SETNAME', 'bench-viewer');
  const seedSeconds = await seedQueueLens(queue, plan, async (label, count, body) => {
    const { seconds } = await timed(body);
    console.log(`  ${label}: ${formatCount(count)} in ${seconds.toFixed(1)} s`);
  });
  const layout = staticphpLayout(queue);
  const viewer = staticphpLayout(viewerQueue);
  return {
    name: 'staticphp',
    plan,
    seedSeconds,
    finder: finderOf(layout),
    searching: queue.redis as Redis,
    overview: () => viewer.counts(),
    floorParts: async () => {
      const jobPrefix = queue.keys.job('');
      const parts: FloorPart[] = [];
      for (const name of [...(await queue.queueNames())].sort()) {
        for (const level of await queue.redis.zrange(queue.keys.levels(name), '0', '-1'))
          parts.push({ kind: 'stream', key: queue.keys.stream(name, level), jobPrefix });
        parts.push({ kind: 'zset', key: queue.keys.delayed(name), jobPrefix });
      }
      return [...parts, { kind: 'zset', key: queue.keys.failed, jobPrefix }];
    },
    queries: queriesOf(plan, true),
    queue,
    layout,
    close: async () => {
      await queue.close();
      await viewerQueue.close();
    },
  };
}

async function yii2Subject(redis: PrivateRedis, jobs: number, queues: number): Promise<Subject> {
  const plan = findSeedPlan(jobs, queues, 0);
  const [connection, viewerConnection] = [await connectionOf(redis, 'yii2', 'bench-find'), await connectionOf(redis, 'yii2', 'bench-viewer')];
  const { seconds } = await timed(() => seedYii2(connection.redis, plan));
  const settings = yii2Settings('yii2', plan.queues);
  const layout = yii2Layout(connection, settings);
  const viewer = yii2Layout(viewerConnection, settings);
  return {
    name: 'yii2',
    plan,
    seedSeconds: seconds,
    layout,
    finder: finderOf(layout),
    searching: connection.redis as Redis,
    overview: () => viewer.counts({ everyQueue: true }),
    floorParts: async () => plan.queues.map((channel) => ({ kind: 'hash', key: new Yii2Keys(channel).messages })),
    queries: queriesOf(plan, false),
    close: async () => {
      await connection.close();
      await viewerConnection.close();
    },
  };
}

async function markoSubject(redis: PrivateRedis, jobs: number, queues: number): Promise<Subject> {
  const plan = findSeedPlan(jobs, queues, FAILED_SHARE);
  const [connection, viewerConnection] = [await connectionOf(redis, 'marko', 'bench-find'), await connectionOf(redis, 'marko', 'bench-viewer')];
  const { seconds } = await timed(() => seedMarko(connection.redis, PREFIX.marko, plan));
  const settings = { prefix: PREFIX.marko, retryAfter: 90, queues: plan.queues };
  const layout = markoLayout(connection, settings);
  const viewer = markoLayout(viewerConnection, settings);
  return {
    name: 'marko',
    plan,
    seedSeconds: seconds,
    layout,
    finder: finderOf(layout),
    searching: connection.redis as Redis,
    overview: () => viewer.counts(),
    floorParts: async () => [
      ...[...plan.queues].sort().flatMap((name): FloorPart[] => [
        { kind: 'list', key: layout.keys.ready(name), jobPrefix: layout.keys.jobsPrefix },
        { kind: 'zset', key: layout.keys.delayed(name), jobPrefix: layout.keys.jobsPrefix },
        { kind: 'zset', key: layout.keys.reserved(name), jobPrefix: layout.keys.jobsPrefix },
      ]),
      // The failed records are the hash's values: the same key.
      { kind: 'hash', key: layout.keys.failedJobs },
    ],
    queries: queriesOf(plan, true),
    close: async () => {
      await connection.close();
      await viewerConnection.close();
    },
  };
}

async function laravelSubject(redis: PrivateRedis, jobs: number, queues: number): Promise<Subject> {
  const plan = findSeedPlan(jobs, queues, 0);
  const [connection, viewerConnection] = [await connectionOf(redis, 'laravel', 'bench-find'), await connectionOf(redis, 'laravel', 'bench-viewer')];
  const templateClient = redis.connect(0);
  const templates = await laravelTemplates(templateClient, redis.port).finally(() => templateClient.quit());
  const { seconds } = await timed(() => seedLaravel(connection.redis, PREFIX.laravel, plan, templates));
  const settings = { prefix: PREFIX.laravel, queues: plan.queues, horizonPrefix: null };
  const layout = laravelLayout(connection, settings);
  const viewer = laravelLayout(viewerConnection, settings);
  return {
    name: 'laravel',
    plan,
    seedSeconds: seconds,
    layout,
    finder: finderOf(layout),
    searching: connection.redis as Redis,
    overview: () => viewer.counts(),
    floorParts: async () =>
      [...plan.queues].sort().flatMap((name): FloorPart[] => [
        { kind: 'list', key: layout.keys.ready(name) },
        { kind: 'zset', key: layout.keys.delayed(name) },
        { kind: 'zset', key: layout.keys.reserved(name) },
      ]),
    queries: queriesOf(plan, false),
    close: async () => {
      await connection.close();
      await viewerConnection.close();
    },
  };
}

/** One search, step by step as the page drives it: ms to the first match and to the end, and what it found. */
interface SearchPass {
  firstMs: number | null;
  fullMs: number;
  matches: number;
  looked: number;
  steps: number;
}

async function searchPass(finder: JobFinder, findQuery: FindQuery, counts: LayoutCounts): Promise<SearchPass> {
  const started = performance.now();
  let [firstMs, matches, looked, steps] = [null as number | null, 0, 0, 0];
  await walkSearch(finder, findQuery, counts, (step) => {
    steps += 1;
    if (step.matches.length > 0) firstMs ??= performance.now() - started;
    matches += step.matches.length;
    looked = step.looked;
  });
  return { firstMs, fullMs: performance.now() - started, matches, looked, steps };
}

/**
 * Walks `findQuery` to its end, one step after another as the page does,
 * handing each step to `seen`; the first step tells "about M" from
 * `counts` where given, as the served app's does from the overview's latest
 * tick (else from the layout's counts, as `queuelens find` does).
 */
async function walkSearch(finder: JobFinder, findQuery: FindQuery, counts: LayoutCounts | null, seen: (step: FindStep) => void): Promise<void> {
  let cursor: string | null = null;
  do {
    const step = await finder.step(findQuery, cursor, 0, counts === null ? {} : { counts });
    seen(step);
    cursor = step.cursor;
  } while (cursor !== null);
}

/**
 * The floor: every index the search walks, FIND_CHUNK at a time, one call
 * after another, moving nothing a MATCH can hold back. `withJobs`: the floor
 * over every key the search reads, the job hashes too: each chunk's ids
 * read from the index, and an HSCAN with the same MATCH of each id's hash,
 * pipelined a chunk at a time.
 */
async function floorPass(redis: Redis, parts: readonly FloorPart[], withJobs = false): Promise<number> {
  const visitJobs = async (prefix: string | undefined, ids: readonly string[]) => {
    if (!withJobs || prefix === undefined || ids.length === 0) return;
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hscan(`${prefix}${id}`, '0', 'MATCH', MATCHES_NOTHING, 'COUNT', 100);
    await pipeline.exec();
  };
  return durationOf(async () => {
    for (const { kind, key, jobPrefix } of parts) {
      const readsIds = withJobs && jobPrefix !== undefined;
      if (kind === 'stream') {
        for (let start = '-'; ;) {
          const entries = await redis.xrange(key, start, '+', 'COUNT', FIND_CHUNK);
          await visitJobs(
            jobPrefix,
            entries.map(([, fields]) => fields[fields.indexOf('job') + 1]!),
          );
          if (entries.length < FIND_CHUNK) break;
          start = `(${entries.at(-1)![0]}`;
        }
      } else if (kind === 'list') {
        for (let start = 0; ; start += FIND_CHUNK) {
          const ids = await redis.lrange(key, start, start + FIND_CHUNK - 1);
          await visitJobs(jobPrefix, ids);
          if (ids.length < FIND_CHUNK) break;
        }
      } else {
        // Reading ids, a sorted set's ZSCAN has no MATCH: its members are what the job hashes are found by.
        const scan = (cursor: string) =>
          kind === 'hash'
            ? redis.hscan(key, cursor, 'MATCH', MATCHES_NOTHING, 'COUNT', FIND_CHUNK)
            : readsIds
              ? redis.zscan(key, cursor, 'COUNT', FIND_CHUNK)
              : redis.zscan(key, cursor, 'MATCH', MATCHES_NOTHING, 'COUNT', FIND_CHUNK);
        for (let cursor = '0'; ;) {
          const [next, members] = await scan(cursor);
          await visitJobs(
            jobPrefix,
            members.filter((_, at) => at % 2 === 0),
          );
          if (next === '0') break;
          cursor = next;
        }
      }
    }
  });
}

/** Redis' CPU so far (INFO cpu used_cpu_sys + used_cpu_user, every thread), in ms. */
async function redisCpuMs(admin: Redis): Promise<number> {
  const info = parseInfo(await admin.info('cpu'));
  return (Number(info.get('used_cpu_sys')) + Number(info.get('used_cpu_user'))) * 1000;
}

/** What `body` cost Redis' CPU and this process' (the finder's decoding and matching, ioredis), in ms. */
async function withCpu<T>(admin: Redis, body: () => Promise<T>): Promise<{ value: T; cpuMs: number; nodeCpuMs: number }> {
  const before = await redisCpuMs(admin);
  const nodeBefore = process.cpuUsage();
  const value = await body();
  const node = process.cpuUsage(nodeBefore);
  return { value, cpuMs: (await redisCpuMs(admin)) - before, nodeCpuMs: (node.user + node.system) / 1000 };
}

/** The overview read over and over by another viewer until `until` settles: each read's ms. */
async function viewerWhile(overview: () => Promise<unknown>, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const samples: number[] = [];
  while (!done) {
    samples.push(await durationOf(overview));
    await sleep(VIEWER_PAUSE_MS);
  }
  return samples;
}

/** Which of QueueLens' scripts an EVALSHA ran, by SHA as ioredis computes it: every file of lua/ but the includes. */
const SCRIPTS_BY_SHA = new Map(
  readdirSync(new URL('lua/', root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'includes')
    .flatMap((folder) => readdirSync(new URL(`lua/${folder.name}/`, root)).map((file) => `${folder.name}/${file}`))
    .map((file) => [
      createHash('sha1')
        .update(expandIncludes(readFileSync(new URL(`lua/${file}`, root), 'utf8')))
        .digest('hex'),
      file,
    ]),
);

/** Whether a logged call ran a script: EVALSHA, or the EVAL ioredis sends where Redis has not the script yet. */
function isScriptCall(command: string): boolean {
  return /^eval(sha)?$/i.test(command);
}

function describeCall(args: readonly string[]): string {
  const [command = '?', first = ''] = args;
  return isScriptCall(command) ? `${command.toUpperCase()} ${SCRIPTS_BY_SHA.get(first) ?? first.slice(0, 8)}` : command.toUpperCase();
}

/** One SLOWLOG entry as Redis 7 gives it: id, unix time, µs, arguments, client address, client name. */
type SlowlogEntry = [number, number, number, string[], string?, string?];

/** The calls of a search as SLOWLOG at threshold 0 saw them. */
interface SlowCalls {
  /** calls the client sent (scripts and plain commands) */
  sent: number;
  /** of them, script calls (isScriptCall) */
  scripts: number;
  /** commands its scripts ran inside them (SLOWLOG logs those too, from the client `?:0`) */
  inScripts: number;
  longestMicros: number;
  longestCall: string;
  /** the middle script call's time, µs (0 when none was sent): a search's plain calls (a part's size) take next to none */
  medianMicros: number;
  over1ms: number;
  over2ms: number;
  /** whether SLOWLOG filled up between two reads, so that some calls went unseen */
  lost: boolean;
}

/** How often SLOWLOG is read (and reset) while a search runs; its length holds far more calls than a search sends in that time. */
const SLOWLOG_READ_MS = 250;
const SLOWLOG_ENTRIES = 100_000;

/**
 * The calls `body` makes, with SLOWLOG at `thresholdMicros` (0: every call): read and reset in
 * one transaction every SLOWLOG_READ_MS (so that no call falls between the
 * read and the reset), since a pass at a million jobs runs a few million
 * commands and SLOWLOG keeps a bounded list. Only the calls `client` (a
 * connection's name) sent are timed; the commands scripts ran inside them are
 * counted, as SLOWLOG logs them too.
 */
async function slowCallsDuring(admin: Redis, client: string, body: () => Promise<unknown>, thresholdMicros = 0): Promise<SlowCalls> {
  const calls: SlowCalls = { sent: 0, scripts: 0, inScripts: 0, longestMicros: 0, longestCall: '', medianMicros: 0, over1ms: 0, over2ms: 0, lost: false };
  const durations: number[] = [];
  const take = async () => {
    const [[, logged]] = ((await admin.multi().slowlog('GET', SLOWLOG_ENTRIES).slowlog('RESET').exec()) ?? []) as [[Error | null, SlowlogEntry[]]];
    if (logged.length >= SLOWLOG_ENTRIES) calls.lost = true;
    for (const [, , micros, args, address = '', clientName = ''] of logged) {
      if (address === '?:0') {
        calls.inScripts += 1;
        continue;
      }
      if (clientName !== client) continue;
      calls.sent += 1;
      if (isScriptCall(args[0] ?? '')) {
        calls.scripts += 1;
        durations.push(micros);
      }
      if (micros > 1_000) calls.over1ms += 1;
      if (micros > 2_000) calls.over2ms += 1;
      if (micros > calls.longestMicros) Object.assign(calls, { longestMicros: micros, longestCall: describeCall(args) });
    }
  };
  await admin.config('SET', 'slowlog-max-len', String(SLOWLOG_ENTRIES));
  await admin.slowlog('RESET');
  await admin.config('SET', 'slowlog-log-slower-than', String(thresholdMicros));
  let done = false;
  const running = body().finally(() => (done = true));
  while (!done) {
    await sleep(SLOWLOG_READ_MS);
    await take();
  }
  await running;
  await admin.config('SET', 'slowlog-log-slower-than', '10000');
  await take();
  return { ...calls, medianMicros: durations.sort((a, b) => a - b)[durations.length >> 1] ?? 0 };
}

/** A script whose every call costs the same: a loop of `ARGV[1]` additions, no allocation, no key. */
const FIXED_COST_LUA = 'local sum = 0 for i = 1, tonumber(ARGV[1]) do sum = sum + i % 7 end return sum';

/**
 * The machine's own share of the longest calls: `calls` calls of a script
 * that costs `micros` each, one after another on `client` (named
 * `clientName`), timed as a search's are. What goes over 2 ms here is the
 * machine (the hypervisor, an interrupt, the other core's work), not a
 * script's size: a search's count is read against it.
 */
async function fixedCostCalls(admin: Redis, client: Redis, clientName: string, micros: number, calls: number): Promise<SlowCalls> {
  const sha = String(await client.script('LOAD', FIXED_COST_LUA));
  let loops = 10_000;
  // A few rounds of scaling the loop by the median it took: a call's cost is close to linear in it.
  for (let round = 0; round < 3; round++) {
    const trial = await slowCallsDuring(admin, clientName, async () => {
      for (let call = 0; call < 50; call++) await client.evalsha(sha, 0, loops);
    });
    loops = Math.max(1, Math.round((loops * micros) / Math.max(1, trial.medianMicros)));
  }
  return slowCallsDuring(admin, clientName, async () => {
    for (let call = 0; call < calls; call++) await client.evalsha(sha, 0, loops);
  });
}

/** The search once more with another viewer reading the overview, and that viewer for as long without a search; then once more under SLOWLOG. */
interface Observed {
  viewerAlone: Spread;
  viewerDuring: Spread;
  /** this process' event-loop delay while the viewer read during the search, p99 ms: the viewer shares the loop with the finder's decoding */
  loopDelayP99: number;
  slow: SlowCalls;
  /**
   * one more pass with SLOWLOG at 1 ms: at threshold 0 SLOWLOG also logs every
   * command the scripts run inside a call (about 50 each), inside the call's
   * time; at 1 ms it logs almost none of them, so this pass's calls over 2 ms
   * are the search's own
   */
  slowUnlogged: SlowCalls;
  /** as many calls of a fixed-cost script, each as long as the search's median script call: what goes over 2 ms on this machine anyway */
  machine: SlowCalls;
  /** what Redis did in the SLOWLOG pass: its costliest commands (a script's time includes the commands it ran), and its wait for a CPU */
  work: RedisWork;
}

/** Commands of ours (reading SLOWLOG) left out of a pass's command figures. */
const OUR_COMMANDS = new Set(['slowlog', 'config', 'multi', 'exec', 'info']);

async function observedSearch(probe: RedisProbe, subject: Subject, counts: LayoutCounts, findQuery: FindQuery, aloneMs: number): Promise<Observed> {
  const viewerAlone = await viewerWhile(subject.overview, sleep(Math.max(2_000, aloneMs)));
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const viewerDuring = await viewerWhile(subject.overview, searchPass(subject.finder, findQuery, counts));
  loop.disable();
  let slow: SlowCalls | undefined;
  const work = await redisWorkDuring(
    probe,
    async () => (slow = await slowCallsDuring(probe.admin, 'bench-find', () => searchPass(subject.finder, findQuery, counts))),
  );
  const slowUnlogged = await slowCallsDuring(probe.admin, 'bench-find', () => searchPass(subject.finder, findQuery, counts), 1_000);
  const machine = await fixedCostCalls(probe.admin, subject.searching, 'bench-find', slow!.medianMicros, slow!.scripts);
  return {
    viewerAlone: spreadOf(viewerAlone),
    viewerDuring: spreadOf(viewerDuring),
    loopDelayP99: loop.percentile(99) / 1e6,
    slow: slow!,
    slowUnlogged,
    machine,
    work: { ...work, byCommand: work.byCommand.filter((row) => !OUR_COMMANDS.has(row.command.split('|')[0]!)) },
  };
}

interface QueryFigures {
  what: NamedQuery['what'];
  text: string;
  pass: SearchPass;
  first: number | null;
  full: number;
  floor: number;
  /** the floor over the job hashes too, where the search reads them (null: it reads none) */
  jobsFloor: number | null;
  searchCpu: number;
  nodeCpu: number;
  floorCpu: number;
  observed: Observed;
}

const median = (values: readonly number[]) => spreadOf(values).medianMs;

/** Every query and the floor, interleaved over `rounds` rounds, then each query observed once. */
async function measure(probe: RedisProbe, subject: Subject, rounds: number): Promise<QueryFigures[]> {
  const { admin } = probe;
  const parts = await subject.floorParts();
  const passes = new Map(subject.queries.map((named) => [named, [] as { pass: SearchPass; cpuMs: number; nodeCpuMs: number }[]]));
  const floors: { value: number; cpuMs: number }[] = [];
  const readsJobs = parts.some((part) => part.jobPrefix !== undefined);
  const jobsFloors: number[] = [];
  // The counts a served app's sampler holds when a search begins, read once before any pass.
  const counts = await subject.overview();
  // One unmeasured pass of each: scripts loaded, code compiled.
  for (const named of subject.queries) await searchPass(subject.finder, named.query, counts);
  for (let round = 0; round < rounds; round++) {
    for (const named of subject.queries) {
      // A floor before every search, so that a busy moment of the machine falls on both alike.
      floors.push(await withCpu(admin, () => floorPass(subject.searching, parts)));
      if (readsJobs) jobsFloors.push(await floorPass(subject.searching, parts, true));
      const { value, cpuMs, nodeCpuMs } = await withCpu(admin, () => searchPass(subject.finder, named.query, counts));
      passes.get(named)!.push({ pass: value, cpuMs, nodeCpuMs });
    }
    console.log(`  ${subject.name}: round ${round + 1} of ${rounds} done; load ${loads()}`);
  }
  const floor = median(floors.map((run) => run.value));
  const floorCpu = median(floors.map((run) => run.cpuMs));
  const figures: QueryFigures[] = [];
  for (const named of subject.queries) {
    const runs = passes.get(named)!;
    const full = median(runs.map((run) => run.pass.fullMs));
    const firsts = runs.flatMap((run) => (run.pass.firstMs === null ? [] : [run.pass.firstMs]));
    const observed = await observedSearch(probe, subject, counts, named.query, full);
    console.log(`  ${subject.name}: ${named.what} observed: ${JSON.stringify(observed)}; load ${loads()}`);
    figures.push({
      what: named.what,
      text: named.query.text,
      pass: runs[0]!.pass,
      first: firsts.length > 0 ? median(firsts) : null,
      full,
      floor,
      jobsFloor: readsJobs ? median(jobsFloors) : null,
      searchCpu: median(runs.map((run) => run.cpuMs)),
      nodeCpu: median(runs.map((run) => run.nodeCpuMs)),
      floorCpu,
      observed,
    });
  }
  return figures;
}

/** An id of each layout's form that no seeded job has: a whole number past every one counted, else an application's random id. */
const MISSING_ID: Record<LayoutName, () => string> = {
  staticphp: () => '999999999',
  yii2: () => '999999999',
  marko: () => randomUUID(),
  laravel: () => randomBytes(16).toString('hex'),
};

/** "Go to job" with an id no job has, as a miss on another connection asks it too (lib/server/job-elsewhere.ts). */
interface LookUpFigures {
  ms: Spread;
  slow: SlowCalls;
  viewerAlone: Spread;
  viewerDuring: Spread;
}

/**
 * The layout's job look-up without a queue, for an id it does not hold:
 * `rounds` times alone; as many again back to back while another viewer
 * reads the overview (in this process, as a served app's requests share
 * one); then once with every call timed.
 */
async function lookUpMiss(admin: Redis, subject: Subject, rounds: number): Promise<LookUpFigures | null> {
  const snapshots = subject.layout.jobSnapshot;
  if (isAbsent(snapshots)) return null;
  const id = MISSING_ID[subject.name]();
  const lookUp = () => snapshots.read(id);
  await lookUp();
  const durations: number[] = [];
  for (let round = 0; round < rounds; round++) durations.push(await durationOf(lookUp));
  const lookUps = (async () => {
    for (let round = 0; round < rounds; round++) await lookUp();
  })();
  const viewerDuring = await viewerWhile(subject.overview, lookUps);
  const lookingMs = durations.reduce((sum, value) => sum + value, 0);
  const viewerAlone = await viewerWhile(subject.overview, sleep(Math.max(2_000, lookingMs)));
  const slow = await slowCallsDuring(admin, 'bench-find', lookUp);
  return { ms: spreadOf(durations), slow, viewerAlone: spreadOf(viewerAlone), viewerDuring: spreadOf(viewerDuring) };
}

function lookUpTable(name: LayoutName, queues: number, figures: LookUpFigures): string {
  return markdownTable(
    ['layout', 'queues', 'look-up ms (median)', 'calls', 'longest call µs', 'calls over 1 ms', 'viewer alone ms', 'viewer during ms', 'during ÷ alone'],
    'lrrrrrrrr',
    [
      [
        name,
        formatCount(queues),
        ms(figures.ms.medianMs),
        formatCount(figures.slow.sent),
        formatCount(figures.slow.longestMicros),
        formatCount(figures.slow.over1ms),
        ms(figures.viewerAlone.medianMs),
        ms(figures.viewerDuring.medianMs),
        `${(figures.viewerDuring.medianMs / figures.viewerAlone.medianMs).toFixed(2)}×`,
      ],
    ],
  );
}

/**
 * Acting on every failed match of two searches (StaticPHP) as Find's page does it, one `everyMatchStep` after
 * another, while a worker runs: forget every failed match of the name, then retry every failed match of the
 * error (the rest); and the accounting after.
 */
interface ActingFigures {
  retried: EveryMatchRun;
  forgotten: EveryMatchRun;
  workerCompleted: number;
  stillFailed: number;
  /** retried ids neither in a stream nor completed, or in both, or twice */
  retriedUnaccounted: number;
  /** forgotten ids still with a hash or a stream entry */
  forgottenLingering: number;
  duplicateEntries: number;
  completedTwice: number;
  keptInTrash: number;
}

/** One every-match run: the ids the search found before it, what its steps did, and how long they took. */
interface EveryMatchRun {
  found: readonly string[];
  steps: number;
  acted: number;
  movedOn: number;
  refused: number;
  seconds: number;
  slow: SlowCalls | null;
}

/** Every job `findQuery` finds: its queue and id. */
async function foundJobs(finder: JobFinder, findQuery: FindQuery): Promise<{ queue: string; id: string }[]> {
  const found: { queue: string; id: string }[] = [];
  await walkSearch(finder, findQuery, null, (step) => found.push(...step.matches.map(({ queue, id }) => ({ queue, id }))));
  return found;
}

/** Every id `findQuery` finds. */
async function foundIds(finder: JobFinder, findQuery: FindQuery): Promise<string[]> {
  return (await foundJobs(finder, findQuery)).map((job) => job.id);
}

/** Does `action` to every match of `findQuery` as the page's run does, step after step until the cursor ends, with SLOWLOG watching. */
async function everyMatchRun(
  admin: Redis,
  layout: QueueLayout,
  action: EveryMatchAction,
  findQuery: FindQuery,
  found: readonly string[],
  trash: TrashWrite,
): Promise<EveryMatchRun> {
  const run: EveryMatchRun = { found, steps: 0, acted: 0, movedOn: 0, refused: 0, seconds: 0, slow: null };
  // SLOWLOG at 1 ms: it catches every call over the 2 ms bound without logging the millions of commands inside the scripts, which would slow them.
  run.slow = await slowCallsDuring(
    admin,
    'bench-find',
    async () => {
      run.seconds = (
        await timed(async () => {
          let from: { cursor: string | null; taken: number } = { cursor: null, taken: 0 };
          do {
            const step = await everyMatchStep(layout, action, findQuery, from, trash);
            run.steps++;
            run.acted += step.acted;
            run.movedOn += step.movedOn;
            run.refused += step.refused;
            from = { cursor: step.cursor, taken: step.taken };
          } while (from.cursor !== null);
        })
      ).seconds;
    },
    ACTING_SLOWLOG_MICROS,
  );
  return run;
}

/** Every stream entry's job id of every queue, counted, read 1,000 entries a call. */
async function streamIdCounts(queue: RedisQueue): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const name of await queue.queueNames()) {
    for (const level of await queue.redis.zrange(queue.keys.levels(name), '0', '-1')) {
      for (let start = '-'; ;) {
        const entries = await queue.redis.xrange(queue.keys.stream(name, level), start, '+', 'COUNT', 1_000);
        for (const [, fields] of entries) {
          const id = fields[fields.indexOf('job') + 1]!;
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        if (entries.length < 1_000) break;
        start = `(${entries.at(-1)![0]}`;
      }
    }
  }
  return counts;
}

/**
 * Runs `work` while a worker runs beside it, `takeOne` after `takeOne` (each
 * taking and finishing a job, or finding none), and stops the worker once
 * `work` is done: `work`'s result.
 */
async function whileAWorkerRuns<T>(takeOne: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  let working = true;
  const worker = (async () => {
    while (working) await takeOne();
  })();
  try {
    return await work();
  } finally {
    working = false;
    await worker;
  }
}

/** Counts one more run of `key` in `ran`. */
const countRun = (ran: Map<string, number>, key: string) => ran.set(key, (ran.get(key) ?? 0) + 1);

async function actOnMatches(redis: PrivateRedis, admin: Redis, subject: Subject & { queue: RedisQueue }): Promise<ActingFigures> {
  const [byName, byError] = [query(NAME_TEXT, 'name', ['failed']), query(ERROR_TEXT, 'error', ['failed'])];
  const toForget = await foundIds(subject.finder, byName);
  const forgetting = new Set(toForget);
  const toRetry = (await foundIds(subject.finder, byError)).filter((id) => !forgetting.has(id));

  // A worker of the layout, on a connection of its own, completing whatever it reserves meanwhile.
  const workerQueue = await RedisQueue.connect(
    readSettings({ hostname: '127.0.0.1', port: redis.port, database: DATABASE.staticphp, prefix: PREFIX.staticphp, group: 'workers' }),
  );
  const completed = new Map<string, number>();
  const names = [...(await subject.queue.queueNames())].sort();
  const takeOne = async () => {
    const job = await workerQueue.reserve(names, 'bench-find-worker:1', 3_600);
    if (job !== null && (await workerQueue.complete(job))) countRun(completed, String(job.id));
  };

  const trash = { ...trashSettingsFromEnv({}), dashboardPrefix: 'queuelens-bench:', who: 'bench', via: 'dashboard' } as const;
  const [forgotten, retried] = await whileAWorkerRuns(takeOne, async (): Promise<[EveryMatchRun, EveryMatchRun]> => [
    await everyMatchRun(admin, subject.layout, 'forget', byName, toForget, trash),
    await everyMatchRun(admin, subject.layout, 'retry', byError, toRetry, trash),
  ]).finally(() => workerQueue.close());

  const queue = subject.queue;
  const inStreams = await streamIdCounts(queue);
  const exists = async (ids: readonly string[]) => {
    const pipeline = queue.redis.pipeline();
    for (const id of ids) pipeline.exists(queue.keys.job(id));
    return (await execPipeline(pipeline)).map((reply) => reply === 1);
  };
  const failedScores = async (ids: readonly string[]) => {
    const pipeline = queue.redis.pipeline();
    for (const id of ids) pipeline.zscore(queue.keys.failed, id);
    return (await execPipeline(pipeline)).filter((score) => score !== null).length;
  };
  const retriedExists = await exists(toRetry);
  const forgottenExists = await exists(toForget);
  const trashKeys = queue.trashKeys(trash.dashboardPrefix);
  return {
    retried,
    forgotten,
    workerCompleted: completed.size,
    stillFailed: (await failedScores(toRetry)) + (await failedScores(toForget)),
    // Retried: waiting once in a stream with its hash, or completed once by the worker with neither.
    retriedUnaccounted: toRetry.filter((id, n) => {
      const waiting = inStreams.get(id) ?? 0;
      const done = completed.get(id) ?? 0;
      return !((waiting === 1 && done === 0 && retriedExists[n]) || (waiting === 0 && done === 1 && !retriedExists[n]));
    }).length,
    forgottenLingering: toForget.filter((id, n) => forgottenExists[n] || inStreams.has(id) || completed.has(id)).length,
    duplicateEntries: [...inStreams.values()].filter((count) => count > 1).length,
    completedTwice: [...completed.values()].filter((count) => count > 1).length,
    keptInTrash: await queue.redis.zcard(trashKeys.index),
  };
}

/** Where each job a removal run found ended up, once its worker stopped. */
interface RemovalAccount {
  /** run by the worker, not removed */
  ranOnly: number;
  /** removed while the worker held it (removing a reservation does not stop its worker) */
  ranAndRemoved: number;
  /** still there, neither run nor removed */
  left: number;
  /** gone, neither run nor in the trash */
  lost: number;
  ranTwice: number;
}

/** Each job found, by the key `ran` counts it under: whether it is still there and whether the trash keeps it. */
function accountRemoval(found: readonly { key: string; exists: boolean; trashed: boolean }[], ran: ReadonlyMap<string, number>): RemovalAccount {
  const account = { ranOnly: 0, ranAndRemoved: 0, left: 0, lost: 0, ranTwice: 0 };
  for (const { key, exists, trashed } of found) {
    const runs = ran.get(key) ?? 0;
    if (runs > 1) account.ranTwice++;
    if (runs > 0 && trashed) account.ranAndRemoved++;
    else if (runs > 0) account.ranOnly++;
    else if (exists) account.left++;
    else if (!trashed) account.lost++;
  }
  return account;
}

function removalLine(worker: string, ran: number, { ranOnly, ranAndRemoved, left, lost, ranTwice }: RemovalAccount): string {
  return (
    `${worker} ran ${formatCount(ran)} jobs meanwhile. Of the live jobs found: ${formatCount(ranOnly)} run and not removed, ` +
    `${formatCount(ranAndRemoved)} removed while the worker held them, ${left} left neither run nor removed, ` +
    `${lost} lost (gone, neither run nor in the trash), ${ranTwice} run twice.`
  );
}

/** The trash of the removal runs keeps every job, so that one missing from it is lost, not evicted. */
const KEEP_EVERY_REMOVAL = {
  ...trashSettingsFromEnv({}),
  maxEntries: 10_000_000,
  maxBytes: 2 ** 40,
  dashboardPrefix: 'queuelens-bench:',
  who: 'bench',
  via: 'dashboard',
} as const;

/**
 * marko (QueueLens does not retry its failed jobs: their payloads are signed
 * with the application's key): every failed match of the name forgotten,
 * then every live match of the name removed, while a worker that follows
 * marko's pop (lib/layouts/marko/test-worker.ts) pops and completes jobs of
 * every queue in turn; and the accounting after.
 */
interface MarkoActingFigures {
  forgotten: EveryMatchRun;
  removed: EveryMatchRun;
  workerCompleted: number;
  /** forgotten ids still failed, with a hash, waiting, or completed */
  forgottenLingering: number;
  removal: RemovalAccount;
}

async function actOnMarko(redis: PrivateRedis, admin: Redis, subject: Subject): Promise<MarkoActingFigures> {
  const [failedByName, liveByName] = [query(NAME_TEXT, 'name', ['failed']), query(NAME_TEXT, 'name', ['ready', 'delayed', 'reserved'])];
  const [forgetting, removing] = [await foundJobs(subject.finder, failedByName), await foundJobs(subject.finder, liveByName)];
  // marko's ids are uuids, one job each across queues.
  const queueOf = new Map([...forgetting, ...removing].map(({ queue, id }) => [id, queue]));
  const [toForget, toRemove] = [forgetting.map((job) => job.id), removing.map((job) => job.id)];

  const workerConnection = await connectionOf(redis, 'marko', 'bench-find-worker');
  const worker = new MarkoTestWorker(workerConnection.redis, PREFIX.marko);
  const completed = new Map<string, number>();
  const names = [...subject.plan.queues].sort();
  const takeOne = async () => {
    for (const name of names) {
      const popped = await worker.pop(name);
      // A job removed while the worker held it: marko's delete() answers false, as the driver's does.
      if (popped !== null && (await worker.complete(name, popped.id))) countRun(completed, popped.id);
    }
  };

  const [forgotten, removed] = await whileAWorkerRuns(takeOne, async (): Promise<[EveryMatchRun, EveryMatchRun]> => [
    await everyMatchRun(admin, subject.layout, 'forget', failedByName, toForget, KEEP_EVERY_REMOVAL),
    await everyMatchRun(admin, subject.layout, 'remove', liveByName, toRemove, KEEP_EVERY_REMOVAL),
  ]).finally(() => workerConnection.close());

  // On the layout's own database (admin's is 0): where each job found is now.
  const keys = new MarkoKeys(PREFIX.marko);
  const trashIndex = layoutTrashKeys(PREFIX.marko, KEEP_EVERY_REMOVAL.dashboardPrefix).index;
  const pipeline = subject.searching.pipeline();
  const found = [...toForget, ...toRemove];
  for (const id of found) {
    const queue = queueOf.get(id)!;
    pipeline.exists(keys.job(id)).lpos(keys.ready(queue), id).zscore(keys.delayed(queue), id).zscore(keys.reserved(queue), id);
    pipeline.zscore(keys.failedIndex, id).hexists(keys.failedJobs, id).zscore(trashIndex, id);
  }
  const replies = await execPipeline(pipeline);
  const places = found.map((id, n) => {
    const [hash, ready, delayed, reserved, failedIndexed, failedRecord, trashed] = replies.slice(7 * n, 7 * n + 7);
    const waiting = ready !== null || delayed !== null || reserved !== null;
    return { key: id, exists: hash === 1 || waiting, failed: failedIndexed !== null || failedRecord === 1, trashed: trashed !== null };
  });
  return {
    forgotten,
    removed,
    workerCompleted: completed.size,
    forgottenLingering: places.slice(0, toForget.length).filter((place) => place.exists || place.failed || completed.has(place.key)).length,
    removal: accountRemoval(places.slice(toForget.length), completed),
  };
}

/** A removal of every live match under a worker: the run, how many jobs the worker ran, and where each job found ended. */
interface RemovalFigures {
  removed: EveryMatchRun;
  workerRan: number;
  removal: RemovalAccount;
}

/**
 * Removing every live match of the name on yii2's stock driver (Find's
 * *Remove every live match…*), while a stock worker reserves and
 * acknowledges jobs of every channel in turn, taking each channel's
 * moving_lock at every reserve that finds it free; and the accounting after.
 */
async function removeOnYii2(redis: PrivateRedis, admin: Redis, subject: Subject): Promise<RemovalFigures> {
  const byName = query(NAME_TEXT, 'name');
  const found = await foundJobs(subject.finder, byName);
  // yii2 counts ids per channel.
  const jobKey = (queue: string, id: string) => `${queue}/${id}`;

  const workerConnection = await connectionOf(redis, 'yii2', 'bench-find-worker');
  const channels = [...subject.plan.queues]
    .sort()
    .map((name) => ({ connection: workerConnection, driver: 'yii2' as const, keys: new Yii2Keys(name), ng: DEFAULT_YII2_NG_SETTINGS }));
  const ran = new Map<string, number>();
  const takeOne = async () => {
    for (const channel of channels) {
      const id = await driverReserve(channel);
      if (id === null) continue;
      await driverAcknowledge(channel, id);
      countRun(ran, jobKey(channel.keys.channel, id));
    }
  };

  const removed = await whileAWorkerRuns(takeOne, () =>
    everyMatchRun(
      admin,
      subject.layout,
      'remove',
      byName,
      found.map((job) => jobKey(job.queue, job.id)),
      KEEP_EVERY_REMOVAL,
    ),
  ).finally(() => workerConnection.close());

  // On the layout's own database (admin's is 0).
  const pipeline = subject.searching.pipeline();
  for (const { queue, id } of found) {
    const keys = new Yii2Keys(queue);
    pipeline.hexists(keys.messages, id).zscore(yii2TrashKeys(keys, KEEP_EVERY_REMOVAL.dashboardPrefix).index, id);
  }
  const replies = await execPipeline(pipeline);
  const places = found.map(({ queue, id }, n) => ({ key: jobKey(queue, id), exists: replies[2 * n] === 1, trashed: replies[2 * n + 1] !== null }));
  return { removed, workerRan: ran.size, removal: accountRemoval(places, ran) };
}

/**
 * Removing every live match of the name on Laravel (Find's *Remove every
 * live match…*), while the real Illuminate\Queue\RedisQueue, one PHP
 * process (lib/layouts/laravel/php/queue-harness.php `work`), pops and
 * deletes a job of every queue in turn; and the accounting after. A
 * Laravel job has no key of its own: one still there is one the search
 * still finds.
 */
async function removeOnLaravel(redis: PrivateRedis, admin: Redis, subject: Subject): Promise<RemovalFigures> {
  const byName = query(NAME_TEXT, 'name');
  const found = await foundIds(subject.finder, byName);
  const stopFile = join(mkdtempSync(join(tmpdir(), 'bench-find-laravel-')), 'stop');
  const harness = new LaravelHarness(PREFIX.laravel, [...subject.plan.queues].sort().join(','), { port: redis.port, database: DATABASE.laravel });
  const working = harness.work(stopFile);
  const removed = await everyMatchRun(admin, subject.layout, 'remove', byName, found, KEEP_EVERY_REMOVAL).finally(() => writeFileSync(stopFile, ''));
  const ran = new Map<string, number>();
  for (const [, id] of await working) countRun(ran, id);
  rmSync(dirname(stopFile), { recursive: true, force: true });

  const left = new Set(await foundIds(subject.finder, byName));
  const trashIndex = layoutTrashKeys(PREFIX.laravel, KEEP_EVERY_REMOVAL.dashboardPrefix).index;
  const pipeline = subject.searching.pipeline();
  for (const id of found) pipeline.zscore(trashIndex, id);
  const trashed = await execPipeline(pipeline);
  const places = found.map((id, n) => ({ key: id, exists: left.has(id), trashed: trashed[n] !== null }));
  return { removed, workerRan: ran.size, removal: accountRemoval(places, ran) };
}

function figuresTable(name: LayoutName, jobs: number, figures: readonly QueryFigures[]): string {
  return markdownTable(
    [
      'layout',
      'jobs',
      'search',
      'matches',
      'looked at',
      'first match ms',
      'full pass ms',
      'floor ms',
      'full ÷ floor',
      'floor with job hashes ms',
      'full ÷ that',
      'Redis CPU ms (floor)',
      'this process CPU ms',
      'steps',
    ],
    'lrlrrrrrrrrrrr',
    figures.map((row) => [
      name,
      formatCount(jobs),
      `${row.what} \`${row.text}\``,
      formatCount(row.pass.matches),
      formatCount(row.pass.looked),
      row.first === null ? '—' : ms(row.first),
      ms(row.full),
      ms(row.floor),
      `${(row.full / row.floor).toFixed(2)}×`,
      row.jobsFloor === null ? '—' : ms(row.jobsFloor),
      row.jobsFloor === null ? '—' : `${(row.full / row.jobsFloor).toFixed(2)}×`,
      `${ms(row.searchCpu)} (${ms(row.floorCpu)})`,
      ms(row.nodeCpu),
      formatCount(row.pass.steps),
    ]),
  );
}

/** What Redis did in each SLOWLOG pass, in words: its costliest commands and its wait for a CPU. */
function workLines(figures: readonly QueryFigures[]): string {
  return figures
    .map(({ what, observed: { work } }) => {
      const costliest = work.byCommand
        .slice(0, 3)
        .map((row) => `${row.command} ${formatCount(row.calls)} calls, ${ms(row.micros / 1000)} ms`)
        .join('; ');
      return `- ${what}: Redis' main thread ran ${ms(work.cpuMicros / 1000)} ms and waited ${ms(work.waitingMicros / 1000)} ms for a CPU; costliest: ${costliest}`;
    })
    .join('\n');
}

function observedTable(name: LayoutName, figures: readonly QueryFigures[]): string {
  return markdownTable(
    [
      'layout',
      'search',
      'calls sent: scripts (+ inside them), all',
      'longest call',
      'calls > 1 ms / > 2 ms',
      'again, SLOWLOG at 1 ms: > 1 ms / > 2 ms, longest',
      'the median script call; a fixed script, as many calls that long: > 2 ms, longest',
      'viewer overview alone, median / p95 ms',
      'during the search',
      'ratio (median / p95)',
      'event-loop delay p99 ms',
    ],
    'llrlrrrrrrr',
    figures.map(({ what, observed: o }) => [
      name,
      what,
      `${formatCount(o.slow.scripts)} (+ ${formatCount(o.slow.inScripts)}), ${formatCount(o.slow.sent)}${o.slow.lost ? ', some lost: SLOWLOG filled up' : ''}`,
      `${(o.slow.longestMicros / 1000).toFixed(2)} ms (${o.slow.longestCall})`,
      `${o.slow.over1ms} / ${o.slow.over2ms}`,
      `${o.slowUnlogged.over1ms} / ${o.slowUnlogged.over2ms}, ${(o.slowUnlogged.longestMicros / 1000).toFixed(2)} ms`,
      `${(o.slow.medianMicros / 1000).toFixed(2)} ms: ${o.machine.over2ms}, ${(o.machine.longestMicros / 1000).toFixed(2)} ms`,
      `${ms(o.viewerAlone.medianMs)} / ${ms(o.viewerAlone.p95Ms)}`,
      `${ms(o.viewerDuring.medianMs)} / ${ms(o.viewerDuring.p95Ms)}`,
      `${(o.viewerDuring.medianMs / o.viewerAlone.medianMs).toFixed(2)}× / ${(o.viewerDuring.p95Ms / o.viewerAlone.p95Ms).toFixed(2)}×`,
      ms(o.loopDelayP99),
    ]),
  );
}

function actingTable(rows: readonly (readonly [string, EveryMatchRun])[]): string {
  const row = (action: string, run: EveryMatchRun) => [
    action,
    formatCount(run.found.length),
    formatCount(run.acted),
    `${formatCount(run.movedOn)} / ${formatCount(run.refused)}`,
    formatCount(run.steps),
    run.seconds.toFixed(2),
    formatCount(run.acted / run.seconds),
    run.slow === null ? '—' : `${(run.slow.longestMicros / 1000).toFixed(2)} ms (${run.slow.longestCall || 'none over 1 ms'}); ${run.slow.over2ms} over 2 ms`,
  ];
  return markdownTable(
    ['every match of', 'found before', 'done', 'moved on / refused', 'steps', 'seconds', 'jobs/s', 'longest call'],
    'lrrrrrrl',
    rows.map(([action, run]) => row(action, run)),
  );
}

/** A removal of every live match of the name (`how`: the driver, where it says more) and what `worker` ran meanwhile, as the report gives it. */
function removalReport(how: string, worker: string, removal: RemovalFigures): { figures: object; report: string[] } {
  return {
    figures: removal,
    report: [actingTable([[`\`${NAME_TEXT}\` (name), live, removed${how}`, removal.removed]]), '', removalLine(worker, removal.workerRan, removal.removal)],
  };
}

/** Each layout's every-match runs under a worker of its own: its figures, and its report. */
const ACTING: Partial<Record<LayoutName, (redis: PrivateRedis, admin: Redis, subject: Subject) => Promise<{ figures: object; report: string[] }>>> = {
  staticphp: async (redis, admin, subject) => {
    const acting = await actOnMatches(redis, admin, subject as Awaited<ReturnType<typeof staticphpSubject>>);
    const report = [
      actingTable([
        [`\`${NAME_TEXT}\` (name), failed, forgotten`, acting.forgotten],
        [`\`${ERROR_TEXT}\` (error), failed, retried`, acting.retried],
      ]),
      '',
      `A worker completed ${formatCount(acting.workerCompleted)} jobs meanwhile. ` +
        `Afterwards: ${acting.stillFailed} still failed, ${acting.retriedUnaccounted} retried jobs not exactly once in a stream or done, ` +
        `${acting.forgottenLingering} forgotten jobs lingering, ${acting.duplicateEntries} ids in two stream entries, ${acting.completedTwice} completed twice; ` +
        `the trash keeps ${formatCount(acting.keptInTrash)}.`,
    ];
    return { figures: acting, report };
  },
  marko: async (redis, admin, subject) => {
    const acting = await actOnMarko(redis, admin, subject as Awaited<ReturnType<typeof markoSubject>>);
    const report = [
      actingTable([
        [`\`${NAME_TEXT}\` (name), failed, forgotten`, acting.forgotten],
        [`\`${NAME_TEXT}\` (name), live, removed`, acting.removed],
      ]),
      '',
      `${removalLine('A worker', acting.workerCompleted, acting.removal)} Forgotten jobs lingering: ${acting.forgottenLingering}.`,
    ];
    return { figures: acting, report };
  },
  yii2: async (redis, admin, subject) =>
    removalReport(' (stock driver)', 'A stock worker', await removeOnYii2(redis, admin, subject as Awaited<ReturnType<typeof yii2Subject>>)),
  laravel: async (redis, admin, subject) =>
    removalReport('', 'The real RedisQueue, popping and deleting,', await removeOnLaravel(redis, admin, subject as Awaited<ReturnType<typeof laravelSubject>>)),
};

const SUBJECTS: Record<LayoutName, (redis: PrivateRedis, jobs: number, queues: number) => Promise<Subject>> = {
  staticphp: staticphpSubject,
  yii2: yii2Subject,
  marko: markoSubject,
  laravel: laravelSubject,
};

async function main(): Promise<void> {
  const { jobs, queues, rounds, layouts } = optionsFromArgs();
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-find-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  // chrt --fifo needs root. At normal priority this 2-core machine pauses redis-server mid-command, and SLOWLOG counts the pause.
  const realtime = process.getuid?.() === 0;
  const redis = await startPrivateRedis(workDir, { realtime });
  const admin = redis.connect(0, { connectionName: 'bench-admin' });
  const priority = `redis-server at ${realtime ? 'real-time' : 'normal'} priority`;
  const loadAtStart = loads();
  const reports: string[] = [];
  try {
    const version = parseInfo(await admin.info('server')).get('redis_version') ?? '?';
    console.log(`\nFind: ${formatCount(jobs)} jobs over ${queues} queues a layout, ${describeMachine()}, Redis ${version}, ${priority}; load ${loadAtStart}`);
    for (const name of layouts) {
      console.log(`\n${name}: seeding…`);
      const subject = await SUBJECTS[name](redis, jobs, queues);
      try {
        const memory = parseInfo(await admin.info('memory')).get('used_memory_human') ?? '?';
        console.log(
          `  seeded ${formatCount(plannedTotal(subject.plan))} jobs (${formatCount(subject.plan.failed)} failed) in ${subject.seedSeconds.toFixed(1)} s; Redis holds ${memory}`,
        );
        const figures = await measure({ admin, pid: redis.pid }, subject, rounds);
        reports.push(
          `### ${name}: ${formatCount(plannedTotal(subject.plan))} jobs over ${queues} queues, ${formatCount(subject.plan.failed)} failed; seeded in ${subject.seedSeconds.toFixed(0)} s\n`,
          figuresTable(name, plannedTotal(subject.plan), figures),
          '',
          observedTable(name, figures),
          '',
          workLines(figures),
          '',
        );
        const lookUp = await lookUpMiss(admin, subject, rounds);
        if (lookUp !== null) {
          console.log(`  ${name}: look-up of an id no job has: ${JSON.stringify(lookUp)}; load ${loads()}`);
          reports.push('Go to job with an id no job has (the job look-up without a queue):\n', lookUpTable(name, queues, lookUp), '');
        }
        const acting = ACTING[name];
        if (acting !== undefined) {
          const { figures: done, report } = await acting(redis, admin, subject);
          console.log(
            `  acting: ${JSON.stringify(done, (key, value: unknown) => (key === 'found' && Array.isArray(value) ? value.length : value))}; load ${loads()}`,
          );
          reports.push(...report, '');
        }
      } finally {
        await subject.close();
      }
    }
    console.log(`\n## Find at ${formatCount(jobs)} jobs\n`);
    console.log(`${describeMachine()}, Redis ${version}, ${priority}; load average ${loadAtStart} at the start, ${loads()} at the end\n`);
    console.log(reports.join('\n'));
  } finally {
    admin.disconnect();
    await redis.stop();
  }
}

await main();
