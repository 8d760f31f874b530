/**
 * What one job costs inside Redis: N jobs pushed, then drained by a single
 * worker loop, once with reserve() + complete() (two scripts a job) and once
 * with settleAndReserve() (one), and the same N drained by a BullMQ Worker,
 * on a redis-server of its own, read from INFO commandstats (whose counts
 * include the commands run inside scripts) and SLOWLOG. Prints µs of Redis
 * time per job per command; asserts nothing. `npx tsx bench/script-cost.ts`
 * (BENCH_JOBS changes N).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { startPrivateRedis } from './private-redis';
import { describeMachine, formatCount, markdownTable } from './report';

const N = Number(process.env.BENCH_JOBS ?? 20_000);
const QUEUE = 'cost';

type CommandStats = Map<string, { calls: number; usec: number }>;
/** Where measure() files the server's CPU time (INFO cpu) next to the commands. */
const CPU = 'cpu (INFO)';

async function cpuMicroseconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

async function commandStats(redis: Redis): Promise<CommandStats> {
  const stats: CommandStats = new Map();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (match) stats.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
}

/** Runs `fill`, then `drain`, and returns what Redis spent on the drain, per command. */
async function measure(admin: Redis, fill: () => Promise<unknown>, drain: () => Promise<void>): Promise<CommandStats> {
  await fill();
  await admin.config('RESETSTAT');
  const cpuBefore = await cpuMicroseconds(admin);
  await drain();
  const cpuAfter = await cpuMicroseconds(admin);
  const stats = await commandStats(admin);
  stats.set(CPU, { calls: N, usec: cpuAfter - cpuBefore });
  // The reads of INFO itself are not the workload's.
  stats.delete('info');
  stats.delete('config|resetstat');
  return stats;
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'queuelens-script-cost-'));
  const server = await startPrivateRedis(workDir);
  const admin = server.connect(0);
  const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: server.port, prefix: 'cost:' }));
  try {
    const fill = async () => {
      for (let start = 0; start < N; start += 5000) {
        await queue.pushMany(Array.from({ length: Math.min(5000, N - start) }, (_, n) => ({ queue: QUEUE, name: 'noop', payload: { n } })));
      }
    };
    const twoScripts = await measure(admin, fill, async () => {
      for (let job = await queue.reserve([QUEUE], 'cost:1', 60); job; job = await queue.reserve([QUEUE], 'cost:1', 60)) await queue.complete(job);
    });
    const oneScript = await measure(admin, fill, async () => {
      let job = await queue.reserve([QUEUE], 'cost:1', 60);
      while (job) job = (await queue.settleAndReserve(job, { outcome: 'complete' }, [QUEUE], 'cost:1', 60)).next;
    });
    const connection = { host: '127.0.0.1', port: server.port, db: 1 };
    const bull = new Queue(QUEUE, { connection });
    const bullStats = await measure(
      admin,
      async () => {
        for (let start = 0; start < N; start += 5000) {
          await bull.addBulk(Array.from({ length: Math.min(5000, N - start) }, (_, n) => ({ name: 'noop', data: { n }, opts: { removeOnComplete: true } })));
        }
      },
      () =>
        new Promise<void>((resolve, reject) => {
          let done = 0;
          const worker = new Worker(QUEUE, async () => undefined, { connection: { ...connection, maxRetriesPerRequest: null }, concurrency: 1 });
          worker.on('completed', () => {
            if (++done === N) void worker.close().then(resolve, reject);
          });
          worker.on('error', reject);
        }),
    );
    await bull.close();
    const runs = [twoScripts, oneScript, bullStats];
    const names = [...new Set(runs.flatMap((stats) => [...stats.keys()]))]
      .filter((name) => name !== CPU)
      .sort((a, b) => runs.reduce((sum, stats) => sum + (stats.get(b)?.usec ?? 0) - (stats.get(a)?.usec ?? 0), 0));
    const perJob = (stats: CommandStats, name: string) => {
      const entry = stats.get(name);
      return entry ? [(entry.calls / N).toFixed(2), (entry.usec / N).toFixed(2)] : ['—', '—'];
    };
    const scripts = (stats: CommandStats) =>
      [...stats].filter(([name]) => name === 'evalsha' || name === 'eval').reduce((sum, [, { usec }]) => sum + usec, 0) / N;
    // Every command Redis ran, a script's inner ones included: unlike a duration, the same on a busy machine as on an idle one.
    const commands = (stats: CommandStats) => [...stats].filter(([name]) => name !== CPU).reduce((sum, [, { calls }]) => sum + calls, 0) / N;
    const cpu = (stats: CommandStats) => stats.get(CPU)!.usec / N;
    const line = (what: string, figure: (stats: CommandStats) => number, digits: number) =>
      `${what}: reserve + complete ${figure(twoScripts).toFixed(digits)}, settleAndReserve ${figure(oneScript).toFixed(digits)}, BullMQ's Worker ${figure(bullStats).toFixed(digits)}`;
    console.log(
      `\nRedis per job, ${formatCount(N)} jobs drained by one worker, private redis-server on port ${server.port}, ${describeMachine()}, load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(', ')}\n`,
    );
    console.log(line('Commands run (scripts and the commands inside them)', commands, 1));
    console.log(line('Script time (EVALSHA, inner commands included), µs', scripts, 1));
    console.log(line('Redis CPU (INFO cpu, user + sys: sockets and parsing too), µs', cpu, 1) + '\n');
    console.log(
      markdownTable(
        ['command', 'reserve + complete: calls a job', 'µs a job', 'settleAndReserve: calls a job', 'µs a job', 'BullMQ: calls a job', 'µs a job'],
        'lrrrrrr',
        names.map((name) => [name, ...runs.flatMap((stats) => perJob(stats, name))]),
      ),
    );
    const slow = (await admin.slowlog('GET', 5)) as [number, number, number, string[]][];
    console.log(
      `\nSLOWLOG (threshold ${String((await admin.config('GET', 'slowlog-log-slower-than'))[1])} µs): ${slow.length === 0 ? 'empty' : slow.map(([, , usec, args]) => `${usec} µs ${args.slice(0, 2).join(' ')}`).join('; ')}`,
    );
  } finally {
    await queue.close();
    admin.disconnect();
    await server.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
