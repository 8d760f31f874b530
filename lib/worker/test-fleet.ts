import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { RedisQueue } from '../layouts/staticphp/redis-queue';

/*
 * What the chaos tests share: `queuelens work` processes to start and
 * SIGKILL, busy loops that starve the CPU, and jobs written as the PHP
 * driver's PUSH writes them.
 */

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Child processes a test file starts; `stopAll` in its afterAll, so that none outlives the file whatever happens to the test. */
export function childProcesses() {
  const children = new Set<ChildProcess>();
  function start(command: string, args: string[]): ChildProcess {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  }
  return {
    start,
    /** busy loops, one per core: the workers, Redis and the test compete with them for the CPU */
    starveTheCpu: () => Array.from({ length: Math.max(2, availableParallelism()) }, () => start(process.execPath, ['-e', 'for (;;) {}'])),
    stopAll: () => Promise.all([...children].map((child) => stopChild(child))),
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  killed: boolean;
  /** it said it is working: connected, its slots reserving */
  working: boolean;
  /** the job ids it logged as released, failed, or lost the claim on: an attempt that ended without completing */
  unfinished: Set<number>;
  output: string;
}

/** A `queuelens work` process on `queue` with `slots` slots and a `timeoutSeconds` job timeout. */
export function startWorker(
  processes: ReturnType<typeof childProcesses>,
  options: { redisUrl: string; prefix: string; queue: string; slots: number; timeoutSeconds: number },
): WorkerProcess {
  const { redisUrl, prefix, queue, slots, timeoutSeconds } = options;
  const args = [
    'bin/queuelens.js',
    'work',
    queue,
    '--concurrency',
    String(slots),
    '--timeout',
    String(timeoutSeconds),
    '--redis-url',
    redisUrl,
    '--prefix',
    prefix,
  ];
  const child = processes.start('node', args);
  const worker: WorkerProcess = { child, pid: child.pid!, killed: false, working: false, unfinished: new Set(), output: '' };
  let partial = '';
  const read = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      worker.output = (worker.output + line + '\n').slice(-4000);
      if (line.startsWith(`Working ${queue} `)) worker.working = true;
      const ended = / (?:released|failed|lost the claim on) (\d+) /.exec(line);
      if (ended) worker.unfinished.add(Number(ended[1]));
    }
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  return worker;
}

/**
 * Writes jobs 1..count of `queue` the way the PHP driver's PUSH does: the
 * hash, an entry in the priority's stream, the level and the queue name;
 * job `id` is `jobOf(id)`'s name, payload and max_attempts.
 */
export async function pushAsPhpWould(
  queue: RedisQueue,
  name: string,
  count: number,
  jobOf: (id: number) => { name: string; payload: unknown; maxAttempts: number },
): Promise<void> {
  const { redis, keys } = queue;
  const now = Number((await redis.time())[0]);
  const createdAt = new Date(now * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const adds = redis.pipeline();
  for (let id = 1; id <= count; id++) adds.xadd(keys.stream(name, 0), '*', 'job', String(id));
  const entries = ((await adds.exec()) ?? []).map(([error, entry]) => {
    if (error) throw error;
    return String(entry);
  });
  const writes = redis.pipeline();
  entries.forEach((entry, index) => {
    const job = jobOf(index + 1);
    writes.hset(keys.job(index + 1), {
      queue: name,
      name: job.name,
      payload: JSON.stringify(job.payload),
      attempts: 0,
      max_attempts: job.maxAttempts,
      priority: 0,
      unique_key: '',
      available_at: now,
      reserved_until: 0,
      reserved_by: '',
      last_error: '',
      created_at: createdAt,
      entry,
    });
  });
  writes.zadd(keys.levels(name), 0, '0').sadd(keys.queues, name).set(keys.seq, String(count));
  for (const [error] of (await writes.exec()) ?? []) if (error) throw error;
}
