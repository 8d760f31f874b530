/**
 * `npm run demo`: the dashboard on a live demo queue. Seeds a few queues
 * under their own prefix (QUEUE_PREFIX, default `queuelens-demo:`), keeps
 * pushing jobs, runs a worker with the demo handlers, and starts the
 * dashboard with `next dev` on PORT (default 3000).
 */
import { spawn } from 'node:child_process';
import { settingsFromEnv } from '../lib/queue/config';
import { QueueError } from '../lib/queue/errors';
import { RedisQueue, type PushOptions } from '../lib/queue/redis-queue';
import { demoHandlers } from '../lib/worker/demo-handlers';
import { Worker } from '../lib/worker/worker';

const prefix = process.env.QUEUE_PREFIX ?? 'queuelens-demo:';
const port = process.env.PORT ?? '3000';
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

async function main(): Promise<void> {
  let queue: RedisQueue;
  try {
    queue = await RedisQueue.connect(settingsFromEnv({ ...process.env, QUEUE_PREFIX: prefix }));
  } catch (error) {
    const message = error instanceof QueueError ? error.message : String(error);
    console.error(`${message}\nStart Redis first, e.g.: redis-server --daemonize yes --port 6379 --save "" --appendonly no`);
    process.exit(1);
  }
  if ((await queue.redis.exists(queue.keys.seq)) === 0) {
    await queue.pushMany(Array.from({ length: 60 }, randomJob));
    console.log(`Seeded 60 demo jobs under the prefix ${prefix}`);
  }

  const producer = setInterval(() => {
    queue.pushMany(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, randomJob)).catch((error: unknown) => {
      console.error(`demo producer: ${error instanceof Error ? error.message : String(error)}`);
    });
  }, 1000);
  const worker = new Worker(queue, { queues: QUEUES, handlers: demoHandlers, concurrency: 2, timeoutSeconds: 30, retryDelaySeconds: () => 5 });
  const working = worker.run();

  const dashboard = spawn('node_modules/.bin/next', ['dev', '--port', port], {
    stdio: 'inherit',
    env: { ...process.env, QUEUE_PREFIX: prefix, NEXT_TELEMETRY_DISABLED: '1' },
  });
  console.log(`QueueLens demo: http://localhost:${port} (prefix ${prefix}); Ctrl+C stops it`);

  const stop = async () => {
    clearInterval(producer);
    worker.stop();
    dashboard.kill('SIGTERM');
    await working;
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
