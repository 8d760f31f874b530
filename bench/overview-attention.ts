/**
 * `npx tsx bench/overview-attention.ts`: what the overview's attention marks
 * cost a poll. On a redis-server of its own, seeds `BENCH_ATTENTION_JOBS`
 * jobs (default 100,000) over 50 queues as bench/dashboard.ts does (10 %
 * delayed, 1 % held, 10 % failed), then times, interleaved, the overview's
 * reads before the marks (stats(), the failed count, the server's INFO) and
 * with them (INFO and readQueueAttention: every registered queue's counts
 * and waiting figures in one script per batch, the failed count, the claims
 * and the recent failures), in this process, and what Redis did for each. Prints the
 * figures and their ratio; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readQueueAttention } from '../lib/layouts/staticphp/attention';
import { DEFAULT_MARKS } from '../lib/dashboard/marks';
import { readQueueFigures, readRecentFailures } from '../lib/layouts/staticphp/attention-figures';
import { readReservations } from '../lib/layouts/staticphp/reservations';
import { readServerInfo } from '../lib/redis/server-info';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { durationOf, redisWorkDuring, spreadOf, type RedisProbe } from './measure';
import { startPrivateRedis } from './private-redis';
import { formatCount } from './report';
import { seedPlan } from './seed-plan';
import { seedQueueLens } from './seed-queuelens';

const ROUNDS = 300;

const reads = {
  'before: stats() + failed count + INFO': async (queue: RedisQueue) => {
    await Promise.all([queue.stats(), queue.failedCount(), readServerInfo(queue)]);
  },
  'with the marks: INFO + readQueueAttention (every queue’s counts and marks, the failed count)': async (queue: RedisQueue) => {
    await Promise.all([readQueueAttention(queue, { everyQueue: true }, DEFAULT_MARKS), readServerInfo(queue)]);
  },
  // Its parts alone, to see where the time goes.
  'part: the figures script over every queue (all waited past a minute, all 1,000 claims held past one)': async (queue: RedisQueue) => {
    await readQueueFigures(queue, await queue.queueNames(), { waitedSeconds: 60, heldSeconds: 60 });
  },
  'for comparison: the reservations page’s reader at 200 entries': async (queue: RedisQueue) => {
    await readReservations(queue, { maxEntries: 200 });
  },
  'part: the failures of the last 15 minutes (500 at most)': async (queue: RedisQueue) => {
    const [seconds] = await queue.redis.time();
    await readRecentFailures(queue, Number(seconds) - 900, 500);
  },
} as const;

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-attention-'));
  const redis = await startPrivateRedis(workDir);
  try {
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, prefix: 'bench:' }));
    const probe: RedisProbe = { admin: redis.connect(0), pid: redis.pid };
    const plan = seedPlan(Number(process.env.BENCH_ATTENTION_JOBS ?? 100_000));
    await seedQueueLens(queue, plan, async (label, _count, run) => {
      process.stdout.write(`  ${label}… `);
      console.log(`${((await durationOf(run)) / 1000).toFixed(1)} s`);
    });
    console.log(`Seeded ${formatCount(plan.jobs)} jobs over ${plan.queues.length} queues, ${formatCount(plan.failed)} failed.`);

    const samples = new Map<string, number[]>(Object.keys(reads).map((name) => [name, []]));
    for (const read of Object.values(reads)) await read(queue);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, read] of Object.entries(reads)) samples.get(name)!.push(await durationOf(() => read(queue)));
    }
    const medians: number[] = [];
    for (const [name, read] of Object.entries(reads)) {
      const spread = spreadOf(samples.get(name)!);
      const work = await redisWorkDuring(probe, async () => {
        for (let n = 0; n < 20; n++) await read(queue);
      });
      medians.push(spread.medianMs);
      console.log(
        `${name}: ${spread.medianMs.toFixed(2)} ms median, ${spread.p95Ms.toFixed(2)} ms p95 over ${ROUNDS}; ` +
          `Redis ${formatCount(work.calls / 20)} commands and ${formatCount(work.cpuMicros / 20)} µs CPU a read`,
      );
    }
    console.log(`with the marks ÷ before: ${(medians[1]! / medians[0]!).toFixed(2)}× the median`);
    probe.admin.disconnect();
    await queue.close();
  } finally {
    await redis.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

void main();
