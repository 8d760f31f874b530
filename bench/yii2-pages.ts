/**
 * The yii2 pages at 1,000,000 jobs (issue 11). Seeds a redis-server of its
 * own (nothing on disk, stopped however the run ends) with one redis-ng
 * channel and one stock channel of BENCH_YII2_JOBS jobs each (1,000,000 by
 * default), laid out as the real drivers write them: messages copied from the
 * fixtures the drivers wrote (lib/layouts/yii2/test-messages.ts), ids from
 * message_id, and per channel 1 % reserved (half of them expired), 4 %
 * delayed (a few overdue), the rest waiting (ng: strict scores at three
 * priorities, 1 % still in the stock list it takes over). Then, in this
 * process, times each yii2 page's data (the layout's readers the routes
 * call) median and p95 over interleaved rounds, the throughput sample and a
 * "Go to job" lookup over both channels, and the doctor's steps over the ng
 * channel. Prints figures; asserts nothing (npm run bench).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAbsent } from '../lib/layouts/adapter';
import {
  isJobIdAcrossQueues,
  PAGE_ROWS,
  type DueTimeline,
  type ExpiringReservationsPage,
  type JobIdAcrossQueues,
  type JobLine,
  type JobSnapshot,
} from '../lib/layouts/pages';
import { DEFAULT_YII2_NG_SETTINGS } from '../lib/layouts/settings';
import { startYii2Doctor, yii2DoctorStep } from '../lib/layouts/yii2/doctor';
import { Yii2Keys } from '../lib/layouts/yii2/keys';
import { yii2Layout, type Yii2Driver } from '../lib/layouts/yii2/layout';
import { yii2Settings } from '../lib/layouts/yii2/test-fixtures';
import { MAX_WAITING_SCAN } from '../lib/layouts/yii2/reads';
import { readYii2Messages } from '../lib/layouts/yii2/test-messages';
import { parseInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { execPipeline } from '../lib/redis/pipeline';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { durationOf, spreadOf, type Spread } from './measure';
import { inFlight } from '../lib/redis/in-flight';
import { startPrivateRedis } from './private-redis';
import { atExit } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';

const ROUNDS = 30;
const WARMUP_ROUNDS = 3;
/** The issue's target for every page: its data under 50 ms, median. */
const TARGET_MS = 50;
/** Members or fields per write command, and commands per pipeline. */
const BATCH = 1_000;
const COMMANDS_PER_PIPELINE = 20;
const PIPELINES_IN_FLIGHT = 2;
/** The doctor runs until done or this long: its steps are what the figures are about. */
const DOCTOR_BUDGET_MS = 60_000;
const CHANNELS: Record<Yii2Driver, string> = { 'yii2-ng': 'bench-ng', yii2: 'bench-stock' };
const NG_PRIORITIES = [0, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 5000, 5000];
const STRICT_BAND = 1e12;

const ms = (value: number) => value.toFixed(1);

function scaleFromEnv(): number {
  const text = process.env.BENCH_YII2_JOBS ?? '1000000';
  const jobs = Number(text);
  if (!Number.isSafeInteger(jobs) || jobs < 10_000) throw new Error(`BENCH_YII2_JOBS must be a whole number of at least 10000, got "${text}"`);
  return jobs;
}

/** Where each id of a channel of `jobs` goes: the first 1 % reserved, the next 4 % delayed, then (ng) 1 % in the stock list, the rest waiting. */
function planOf(jobs: number) {
  const reserved = Math.floor(jobs / 100);
  const delayed = Math.floor(jobs / 25);
  return { reserved, delayed, takeover: reserved, jobs };
}

/** Runs `write(pipeline, from, to)` over ids 1..jobs in batches, pipelined. */
async function writeBatches(
  queue: RedisQueue,
  from: number,
  to: number,
  write: (pipeline: ReturnType<RedisQueue['redis']['pipeline']>, first: number, last: number) => void,
): Promise<void> {
  const batches = Math.ceil((to - from + 1) / BATCH);
  const pipelines = Math.ceil(batches / COMMANDS_PER_PIPELINE);
  await inFlight(pipelines, PIPELINES_IN_FLIGHT, async (n) => {
    const pipeline = queue.redis.pipeline();
    for (let batch = n * COMMANDS_PER_PIPELINE; batch < Math.min(batches, (n + 1) * COMMANDS_PER_PIPELINE); batch++) {
      const first = from + batch * BATCH;
      write(pipeline, first, Math.min(to, first + BATCH - 1));
    }
    await execPipeline(pipeline);
  });
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

/**
 * One channel as its driver leaves it: every message `<ttr>;<serialized>`
 * from the fixture, message_id at the highest id, reservations scored by
 * their expiry with an attempt each, delayed jobs by their due second, and
 * the waiting jobs in the driver's own index (stock: the list, tail first;
 * ng: strict scores priority × 10^12 + seq, a priorities entry where not the
 * default, and a tail of ids in the stock list).
 */
async function seedChannel(queue: RedisQueue, driver: Yii2Driver, jobs: number, message: Buffer, nowS: number): Promise<void> {
  const keys = new Yii2Keys(CHANNELS[driver]);
  const plan = planOf(jobs);
  await writeBatches(queue, 1, jobs, (pipeline, first, last) => pipeline.hset(keys.messages, ...range(first, last).flatMap((id) => [String(id), message])));
  const reservedEnd = plan.reserved;
  await writeBatches(queue, 1, reservedEnd, (pipeline, first, last) => {
    const ids = range(first, last);
    // Half live, half expired: waiting for a reserve to reclaim them.
    pipeline.zadd(keys.reserved, ...ids.flatMap((id) => [id % 2 === 0 ? nowS + 300 : nowS - 60, String(id)]));
    pipeline.hset(keys.attempts, ...ids.flatMap((id) => [String(id), '1']));
  });
  const delayedEnd = reservedEnd + plan.delayed;
  await writeBatches(queue, reservedEnd + 1, delayedEnd, (pipeline, first, last) =>
    // Due over the next day; one in a hundred overdue (nobody pushed or reserved since).
    pipeline.zadd(keys.delayed, ...range(first, last).flatMap((id) => [id % 100 === 0 ? nowS - 30 : nowS + (id % 86_400), String(id)])),
  );
  if (driver === 'yii2') {
    await writeBatches(queue, delayedEnd + 1, jobs, (pipeline, first, last) => pipeline.lpush(keys.waiting, ...range(first, last).map(String)));
  } else {
    const listEnd = delayedEnd + plan.takeover;
    await writeBatches(queue, delayedEnd + 1, listEnd, (pipeline, first, last) => pipeline.lpush(keys.waiting, ...range(first, last).map(String)));
    await writeBatches(queue, listEnd + 1, jobs, (pipeline, first, last) => {
      const ids = range(first, last);
      const priorityOf = (id: number) => NG_PRIORITIES[id % NG_PRIORITIES.length]!;
      pipeline.zadd(keys.prioritized, ...ids.flatMap((id) => [priorityOf(id) * STRICT_BAND + (id - listEnd), String(id)]));
      const stored = ids.filter((id) => priorityOf(id) !== DEFAULT_YII2_NG_SETTINGS.defaultPriority);
      if (stored.length > 0) pipeline.hset(keys.priorities, ...stored.flatMap((id) => [String(id), String(priorityOf(id))]));
    });
    await queue.redis.set(keys.seq, String(jobs - listEnd));
    await queue.redis.zadd(keys.marker, 0, '0');
  }
  await queue.redis.set(keys.messageId, String(jobs));
}

interface Timed {
  name: string;
  run: () => Promise<unknown>;
  /** what its answer must hold, checked once before timing: a read that answers nothing would time nothing */
  holds?: (answer: never) => boolean;
}

/** Each read once, its answer checked; throws naming the first that does not answer as it should. */
async function checkAnswers(reads: readonly Timed[]): Promise<void> {
  for (const read of reads) {
    const answer = (await read.run()) as never;
    if (read.holds && !read.holds(answer))
      throw new Error(`${read.name}: the answer is not what the seed should give: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

const fullPage = (line: JobLine) => line.sections[0]?.rows.length === PAGE_ROWS;
const placed = (status: string) => (job: JobSnapshot | JobIdAcrossQueues) => !isJobIdAcrossQueues(job) && job.status === status;

/** Each reader once per round, in the same order every round, so that a slow moment of the machine falls on all of them alike. */
async function interleaved(reads: readonly Timed[]): Promise<Map<Timed, Spread>> {
  const samples = new Map(reads.map((read) => [read, [] as number[]]));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const read of reads) {
      const took = await durationOf(read.run);
      if (round >= WARMUP_ROUNDS) samples.get(read)!.push(took);
    }
  }
  return new Map(reads.map((read) => [read, spreadOf(samples.get(read)!)]));
}

function readsOf(queue: RedisQueue, driver: Yii2Driver, jobs: number): Timed[] {
  const channel = CHANNELS[driver];
  const layout = yii2Layout(queue, yii2Settings(driver, [channel]));
  const { jobLine, expiringReservations, dueTimeline, jobSnapshot, throughput } = layout;
  if (isAbsent(jobLine) || isAbsent(expiringReservations) || isAbsent(dueTimeline) || isAbsent(jobSnapshot) || isAbsent(throughput))
    throw new Error(`the ${driver} layout lacks a page`);
  const plan = planOf(jobs);
  const waiting = jobs - plan.reserved - plan.delayed;
  const deepPage = Math.floor(waiting / PAGE_ROWS / 2);
  const label = driver === 'yii2-ng' ? 'ng' : 'stock';
  const fullReservations = (page: ExpiringReservationsPage) => page.queues[0]?.rows.length === PAGE_ROWS;
  return [
    { name: `${label}: counts (the overview's read)`, run: () => layout.counts({ everyQueue: true }) },
    { name: `${label}: throughput sample (the sampler's and /api/metrics' read)`, run: () => throughput.sample() },
    { name: `${label}: queue line, page 1`, run: () => jobLine.read(channel, { page: 1 }), holds: fullPage },
    { name: `${label}: queue line, page ${formatCount(deepPage)} (the middle)`, run: () => jobLine.read(channel, { page: deepPage }), holds: fullPage },
    { name: `${label}: reservations, page 1`, run: () => expiringReservations.read({ queue: channel, page: 1 }), holds: fullReservations },
    {
      name: `${label}: reservations, page ${formatCount(Math.floor(plan.reserved / PAGE_ROWS))} (the last)`,
      run: () => expiringReservations.read({ queue: channel, page: Math.floor(plan.reserved / PAGE_ROWS) }),
      holds: fullReservations,
    },
    { name: `${label}: delayed timeline`, run: () => dueTimeline.read(channel), holds: (timeline: DueTimeline) => timeline.total === plan.delayed },
    // ng finds any job by ZSCORE; stock's list is searched from its run end for a bounded stretch, so a job deep in it is "unsearched".
    ...(driver === 'yii2-ng'
      ? [
          {
            name: `${label}: job snapshot (a waiting job in the middle of the line)`,
            run: () => jobSnapshot.read(String(jobs - Math.floor(waiting / 2)), channel),
            holds: placed('placed'),
          },
        ]
      : [
          {
            name: `${label}: job snapshot (a waiting job 50,000th in line)`,
            run: () => jobSnapshot.read(String(plan.reserved + plan.delayed + 50_000), channel),
            holds: placed('placed'),
          },
          // The newest job, last in line: past the stretch searched once the list is longer.
          ...(waiting > MAX_WAITING_SCAN
            ? [
                {
                  name: `${label}: job snapshot (the last in line, past the ${formatCount(MAX_WAITING_SCAN)} searched: "unsearched")`,
                  run: () => jobSnapshot.read(String(jobs), channel),
                  holds: placed('unsearched'),
                },
              ]
            : []),
        ]),
  ];
}

/** The doctor's steps over one channel, each timed, until it is done or the budget is spent. */
async function timeDoctorSteps(
  queue: RedisQueue,
  driver: Yii2Driver,
): Promise<{ steps: number; done: boolean; spread: Spread; seconds: number; findings: number }> {
  const channel = { connection: queue, driver, keys: new Yii2Keys(CHANNELS[driver]), ng: DEFAULT_YII2_NG_SETTINGS };
  // No wait before the confirming read: the figures are the steps' cost, not the doctor's patience.
  let state = startYii2Doctor(0);
  const durations: number[] = [];
  let findings = 0;
  const started = performance.now();
  while (state.phase !== 'done' && performance.now() - started < DOCTOR_BUDGET_MS) {
    let next: Awaited<ReturnType<typeof yii2DoctorStep>> | undefined;
    durations.push(await durationOf(async () => (next = await yii2DoctorStep(channel, state))));
    state = next!.state;
    findings += next!.findings.length;
  }
  return { steps: durations.length, done: state.phase === 'done', spread: spreadOf(durations), seconds: (performance.now() - started) / 1000, findings };
}

async function main(): Promise<void> {
  const jobs = scaleFromEnv();
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-yii2-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const loadAtStart = loadavg();
  const redis = await startPrivateRedis(workDir);
  let queue: RedisQueue | undefined;
  try {
    console.log(`\nyii2 pages benchmark: a redis-ng and a stock channel of ${formatCount(jobs)} jobs each, ${describeMachine()}\n`);
    queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, prefix: 'unused:' }));
    const redisVersion = parseInfo(await queue.redis.info('server')).get('redis_version') ?? '?';
    const [message] = readYii2Messages('ng-strict').values();
    const nowS = Number((await queue.redis.time())[0]);
    const seedStarted = performance.now();
    for (const driver of ['yii2-ng', 'yii2'] as const) await seedChannel(queue, driver, jobs, message!, nowS);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const memory = parseInfo(await queue.redis.info('memory')).get('used_memory_human') ?? '?';
    console.log(
      `  seeded ${formatCount(2 * jobs)} jobs (messages of ${message!.length} bytes) in ${seedSeconds.toFixed(1)} s, pipelined; Redis ${redisVersion} holds ${memory}`,
    );

    // "Go to job" with no channel named: one HEXISTS per channel, then the holder's snapshot (or, held by both, the holders).
    const both = yii2Layout(queue, yii2Settings('yii2-ng', [CHANNELS['yii2-ng'], CHANNELS.yii2]));
    const lookup = both.jobSnapshot;
    if (isAbsent(lookup)) throw new Error('the yii2-ng layout lacks the job page');
    const reads = [
      ...readsOf(queue, 'yii2-ng', jobs),
      ...readsOf(queue, 'yii2', jobs),
      {
        name: 'Go to job over both channels, no channel named (an id both hold: the holders)',
        run: () => lookup.read(String(Math.floor(jobs / 2))),
        holds: (answer: JobSnapshot | JobIdAcrossQueues) => isJobIdAcrossQueues(answer) && answer.holders.length === 2,
      },
    ];
    await checkAnswers(reads);
    console.log(`  timing ${reads.length} reads over ${ROUNDS} interleaved rounds (after ${WARMUP_ROUNDS} unmeasured)…`);
    const spreads = await interleaved(reads);
    console.log('  the doctor’s steps over the ng channel…');
    const doctor = await timeDoctorSteps(queue, 'yii2-ng');

    const loads = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ');
    console.log(`\n## yii2 pages at ${formatCount(jobs)} jobs a channel\n`);
    console.log(`${describeMachine()}, Redis ${redisVersion}; load average ${loads(loadAtStart)} at the start, ${loads(loadavg())} at the end\n`);
    console.log(
      markdownTable(
        ['page data (in this process)', 'median ms', 'p95 ms', `< ${TARGET_MS} ms median`],
        'lrrl',
        reads.map((read) => {
          const { medianMs, p95Ms } = spreads.get(read)!;
          return [read.name, ms(medianMs), ms(p95Ms), medianMs < TARGET_MS ? 'yes' : '**no**'];
        }),
      ),
    );
    console.log(
      `\nThe doctor over the ng channel: ${formatCount(doctor.steps)} steps${doctor.done ? '' : ` (stopped after ${DOCTOR_BUDGET_MS / 1000} s, not done)`} in ${doctor.seconds.toFixed(1)} s, ` +
        `a step ${ms(doctor.spread.medianMs)} ms median, ${ms(doctor.spread.p95Ms)} ms p95; ${formatCount(doctor.findings)} findings.`,
    );
  } finally {
    await queue?.close();
    await redis.stop();
  }
}

await main();
