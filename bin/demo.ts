/**
 * `npm run demo`: the dashboard on a live demo queue. Starts a local Redis if
 * none answers, seeds a few queues under their own prefix (QUEUE_PREFIX,
 * default `queuelens-demo:`) with priorities, delays, unique keys, jobs that
 * fail and one reservation left stale by a worker killed mid-job, keeps
 * pushing jobs, runs two workers with the demo handlers, and starts the
 * dashboard with `next dev` on PORT (default 3000).
 */
import { execFileSync, spawn } from 'node:child_process';
import { prepareLaunch } from '../lib/auth/launch';
import { isLocalHost, settingsFromEnv } from '../lib/queue/config';
import { QueueError } from '../lib/queue/errors';
import { RedisQueue, type PushOptions } from '../lib/queue/redis-queue';

const prefix = process.env.QUEUE_PREFIX ?? 'queuelens-demo:';
const port = process.env.PORT ?? '3000';
const HOST = '127.0.0.1';
const QUEUES = ['emails', 'webhooks', 'imports', 'reports'];

type DemoJob = { queue: string; name: string; payload: unknown; options?: PushOptions };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function randomJob(): DemoJob {
  return pick<() => DemoJob>([
    () => ({ queue: 'emails', name: 'demo.sleep', payload: { ms: 200 + Math.floor(Math.random() * 1500) }, options: { priority: pick([0, 0, 5, 10]) } }),
    () => ({ queue: 'webhooks', name: 'demo.flaky', payload: { p: 0.4 }, options: { maxAttempts: 3 } }),
    () => ({ queue: 'imports', name: pick(['demo.noop', 'demo.noop', 'demo.fail']), payload: { file: `batch-${Math.floor(Math.random() * 1000)}.csv` }, options: { maxAttempts: 2 } }),
    () => ({ queue: 'reports', name: 'demo.noop', payload: { report: 'daily' }, options: { delaySeconds: 30 + Math.floor(Math.random() * 600) } }),
  ])();
}

async function connect(): Promise<RedisQueue> {
  const settings = settingsFromEnv({ ...process.env, QUEUE_PREFIX: prefix });
  try {
    return await RedisQueue.connect(settings);
  } catch (error) {
    if (!(error instanceof QueueError) || !isLocalHost(settings.hostname)) throw error;
    console.log(`No Redis answers at ${settings.hostname}:${settings.port}; starting one (it keeps nothing on disk)`);
    execFileSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(settings.port), '--save', '', '--appendonly', 'no']);
    for (let attempt = 0; ; attempt++) {
      try {
        return await RedisQueue.connect(settings);
      } catch (retryError) {
        if (attempt >= 50) throw retryError;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

/** A job held by a worker process that is then killed: its reservation goes stale, as in production. */
async function leaveAStaleReservation(queue: RedisQueue): Promise<void> {
  const id = await queue.push('emails', 'demo.sleep', { ms: 3_600_000, note: 'held by a worker that was killed' }, { priority: 10 });
  const worker = spawn(process.execPath, ['bin/queuelens.js', 'work', 'emails', '--timeout', '300', '--prefix', prefix], { stdio: 'ignore' });
  for (let waited = 0; waited < 15_000 && !(await queue.redis.hget(queue.keys.job(id), 'reserved_by')); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  worker.kill('SIGKILL');
  console.log(`Job ${id} is held by a killed worker until its 300 s claim runs out`);
}

async function main(): Promise<void> {
  let queue: RedisQueue;
  try {
    queue = await connect();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`${message}\nStart Redis first, e.g.: redis-server --daemonize yes --port 6379 --save "" --appendonly no`);
    process.exit(1);
  }
  if ((await queue.redis.exists(queue.keys.seq)) === 0) {
    await leaveAStaleReservation(queue);
    await queue.pushMany([
      ...Array.from({ length: 60 }, randomJob),
      { queue: 'imports', name: 'demo.noop', payload: { nightly: true }, options: { uniqueKey: 'nightly-import', delaySeconds: 3600 } },
      { queue: 'imports', name: 'demo.noop', payload: { nightly: true }, options: { uniqueKey: 'nightly-import', delaySeconds: 3600 } },
      { queue: 'webhooks', name: 'demo.noop', payload: { html: '<img src=x onerror=alert(1)>' } },
    ]);
    console.log(`Seeded the demo queues under the prefix ${prefix}`);
  }

  const producer = setInterval(() => {
    queue.pushMany(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, randomJob)).catch((error: unknown) => {
      console.error(`demo producer: ${error instanceof Error ? error.message : String(error)}`);
    });
  }, 1000);
  // Separate processes, so each holds its jobs under its own host:pid.
  const workers = [1, 2].map(() =>
    spawn(process.execPath, ['bin/queuelens.js', 'work', QUEUES.join(','), '--concurrency', '2', '--timeout', '30', '--prefix', prefix], {
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );

  // Like `queuelens serve`: a secret of its own and a one-time login link, unless QUEUELENS_SECRET is set.
  const launch = prepareLaunch(process.env, HOST, Number(port));
  if (!launch.ok) throw new Error(launch.error);
  const dashboard = spawn('node_modules/.bin/next', ['dev', '--hostname', HOST, '--port', port], {
    stdio: 'inherit',
    // HOSTNAME tells the server's start-up check that it listens on loopback only.
    env: { ...process.env, ...launch.env, HOSTNAME: HOST, QUEUE_PREFIX: prefix, NEXT_TELEMETRY_DISABLED: '1' },
  });
  console.log(`QueueLens demo: http://${HOST}:${port} (prefix ${prefix}); Ctrl+C stops it`);
  for (const line of launch.notice) console.log(line);

  const stop = async () => {
    clearInterval(producer);
    for (const worker of workers) worker.kill('SIGTERM');
    dashboard.kill('SIGTERM');
    await queue.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  dashboard.once('exit', (code) => {
    if (code !== null && code !== 0) console.error(`The dashboard exited with code ${code}`);
    void stop();
  });
}

await main();
