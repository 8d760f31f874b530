/**
 * What one job costs inside Redis: N jobs pushed, then drained by a single
 * worker loop, once with reserve() + complete() (two scripts a job) and once
 * with settleAndReserve() (one), on a redis-server of its own, read from
 * INFO commandstats (whose counts include the commands run inside scripts)
 * and SLOWLOG. Prints µs of Redis time per job per command; asserts nothing.
 * `npx tsx bench/script-cost.ts` (BENCH_JOBS changes N).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { readSettings } from '../lib/queue/config';
import { RedisQueue } from '../lib/queue/redis-queue';
import { startPrivateRedis } from './private-redis';
import { describeMachine, formatCount, markdownTable } from './report';

const N = Number(process.env.BENCH_JOBS ?? 20_000);
const QUEUE = 'cost';

type CommandStats = Map<string, { calls: number; usec: number }>;

async function commandStats(redis: Redis): Promise<CommandStats> {
  const stats: CommandStats = new Map();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (match) stats.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
}

/** Runs `drain` over N fresh jobs and returns what Redis spent on it, per command. */
async function measure(queue: RedisQueue, admin: Redis, drain: () => Promise<void>): Promise<CommandStats> {
  for (let start = 0; start < N; start += 5000) {
    await queue.pushMany(Array.from({ length: Math.min(5000, N - start) }, (_, n) => ({ queue: QUEUE, name: 'noop', payload: { n } })));
  }
  await admin.config('RESETSTAT');
  await drain();
  const stats = await commandStats(admin);
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
    const twoScripts = await measure(queue, admin, async () => {
      for (let job = await queue.reserve([QUEUE], 'cost:1', 60); job; job = await queue.reserve([QUEUE], 'cost:1', 60)) await queue.complete(job);
    });
    const oneScript = await measure(queue, admin, async () => {
      let job = await queue.reserve([QUEUE], 'cost:1', 60);
      while (job) job = (await queue.settleAndReserve(job, { outcome: 'complete' }, [QUEUE], 'cost:1', 60)).next;
    });
    const names = [...new Set([...twoScripts.keys(), ...oneScript.keys()])].sort(
      (a, b) => (oneScript.get(b)?.usec ?? 0) + (twoScripts.get(b)?.usec ?? 0) - (oneScript.get(a)?.usec ?? 0) - (twoScripts.get(a)?.usec ?? 0),
    );
    const perJob = (stats: CommandStats, name: string) => {
      const entry = stats.get(name);
      return entry ? [(entry.calls / N).toFixed(2), (entry.usec / N).toFixed(2)] : ['—', '—'];
    };
    const total = (stats: CommandStats) => [...stats].filter(([name]) => name === 'evalsha' || name === 'eval').reduce((sum, [, { usec }]) => sum + usec, 0) / N;
    console.log(`\nRedis time per job, ${formatCount(N)} jobs drained by one worker loop, private redis-server 7 on port ${server.port}, ${describeMachine()}\n`);
    console.log(`Scripts (EVALSHA, inner commands included): reserve + complete ${total(twoScripts).toFixed(1)} µs a job, settleAndReserve ${total(oneScript).toFixed(1)} µs a job\n`);
    console.log(
      markdownTable(
        ['command', 'reserve + complete: calls a job', 'µs a job', 'settleAndReserve: calls a job', 'µs a job'],
        'lrrrr',
        names.map((name) => [name, ...perJob(twoScripts, name), ...perJob(oneScript, name)]),
      ),
    );
    const slow = (await admin.slowlog('GET', 5)) as [number, number, number, string[]][];
    console.log(`\nSLOWLOG (threshold ${String((await admin.config('GET', 'slowlog-log-slower-than'))[1])} µs): ${slow.length === 0 ? 'empty' : slow.map(([, , usec, args]) => `${usec} µs ${args.slice(0, 2).join(' ')}`).join('; ')}`);
  } finally {
    await queue.close();
    admin.disconnect();
    await server.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
