/**
 * `npm run demo`: the dashboard on a live demo queue. Starts a local Redis if
 * none answers, seeds a few queues under their own prefix (QUEUE_PREFIX,
 * default `queuelens-demo:`) with priorities, delays, unique keys and jobs
 * that fail, keeps pushing jobs, runs two workers with the demo handlers,
 * and serves the production build (`npm run build` first when it is missing
 * or older than the code) on PORT (default 3000).
 *
 * One of each kind of trouble stays on screen while it runs, on queues the
 * demo's workers never reserve from, so nothing of theirs reclaims or
 * promotes it: a job held by a worker that was killed (its claim runs out
 * after a minute and nobody takes it back), delayed jobs coming due with
 * nobody to promote them, and a queue whose imports keep failing.
 *
 * The header's switcher also offers a yii2-queue-redis-ng channel
 * (bin/demo-yii2.ts) and a marko/queue-redis queue (bin/demo-marko.ts),
 * each seeded once and never worked, to show the other layouts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLocalHost, settingsFromEnv } from '../lib/redis/config';
import { QueueError } from '../lib/redis/errors';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { DEMO_MARKO_PREFIX, seedDemoMarkoQueue } from './demo-marko';
import { randomJob, seedDemoQueues } from './demo-staticphp';
import { DEMO_YII2_CHANNEL, seedDemoYii2Channel } from './demo-yii2';

const prefix = process.env.QUEUE_PREFIX ?? 'queuelens-demo:';
const port = process.env.PORT ?? '3000';
const HOST = '127.0.0.1';
// The queues the demo's workers reserve from.
const QUEUES = ['emails', 'webhooks', 'imports', 'reports'];
// Queues nobody works: a job held there stays held, and a delayed job there stays due and unpromoted.
const UNWATCHED = { held: 'exports', delayed: 'newsletters' } as const;
const HELD_CLAIM_SECONDS = 60;
const UNPROMOTED_KEPT = 5;
const TROUBLE_CHECK_MS = 15_000;

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

/**
 * A job held by a worker process that is then killed, as in production, on
 * a queue no demo worker reserves from: once its claim runs out it is
 * overdue, and nothing but an operator releases or fails it.
 */
async function leaveAStuckReservation(queue: RedisQueue): Promise<void> {
  const id = await queue.push(UNWATCHED.held, 'demo.sleep', { ms: 3_600_000, note: 'held by a worker that was killed' });
  const worker = spawn(process.execPath, ['bin/queuelens.js', 'work', UNWATCHED.held, '--timeout', String(HELD_CLAIM_SECONDS), '--prefix', prefix], {
    stdio: 'ignore',
  });
  for (let waited = 0; waited < 15_000 && !(await queue.redis.hget(queue.keys.job(id), 'reserved_by')); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  worker.kill('SIGKILL');
  console.log(`Job ${id} on ${UNWATCHED.held} is held by a killed worker; its ${HELD_CLAIM_SECONDS} s claim runs out and nobody reclaims it`);
}

/** Entries of a queue's level-`level` stream handed out and not acknowledged. */
async function heldEntries(queue: RedisQueue, name: string, level: number): Promise<number> {
  const stream = queue.keys.stream(name, level);
  if ((await queue.redis.exists(stream)) === 0) return 0;
  const [count] = (await queue.redis.xpending(stream, queue.settings.group)) as [number];
  return count;
}

/**
 * Puts back whatever trouble an operator repaired meanwhile, so the next
 * look finds one of each again: a stuck reservation, and due delayed jobs
 * nobody promotes (pushed a few seconds ahead, so they come due on screen).
 */
async function keepTroubleOnScreen(queue: RedisQueue): Promise<void> {
  if ((await heldEntries(queue, UNWATCHED.held, 0)) === 0) await leaveAStuckReservation(queue);
  const delayed = await queue.redis.zcard(queue.keys.delayed(UNWATCHED.delayed));
  if (delayed < UNPROMOTED_KEPT) {
    await queue.pushMany(
      Array.from({ length: UNPROMOTED_KEPT - delayed }, (_, index) => ({
        queue: UNWATCHED.delayed,
        name: 'demo.noop',
        payload: { issue: `weekly-${index + 1}` },
        options: { delaySeconds: 5 + index * 5 },
      })),
    );
  }
}

// What `next build` reads: a build older than any of it is built again.
const BUILD_INPUTS = ['app', 'components', 'lib', 'proxy.ts', 'instrumentation.ts', 'instrumentation-node.ts', 'next.config.ts', 'package-lock.json'];
const BUILT_SERVER = '.next/standalone/server.js';

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

/** How often a running build says it is still at work: `next build` compiles for minutes without a line. */
const BUILD_HEARTBEAT_MS = 20_000;

/** The production build the dashboard runs, made first when there is none or the code changed since. */
async function ensureBuild(): Promise<void> {
  if (existsSync(BUILT_SERVER) && statSync(BUILT_SERVER).mtimeMs > Math.max(...BUILD_INPUTS.map(newestChange))) return;
  console.log('Building the dashboard (npm run build) first: about 2 minutes on 4 cores, up to 5 on 2; later starts skip this until the code changes.');
  const started = Date.now();
  const heartbeat = setInterval(() => console.log(`… still building (${Math.round((Date.now() - started) / 1000)} s so far)`), BUILD_HEARTBEAT_MS);
  const build = spawn('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve)).finally(() => clearInterval(heartbeat));
  if (code !== 0) throw new Error('npm run build failed; the output above says why');
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/** The dashboard's three connections on the one Redis: the StaticPHP demo queues, the redis-ng channel and the marko queue. */
function demoConnectionsFile(queue: RedisQueue): string {
  // The settings block keeps REDIS_URL's password and TLS; the file is the user's alone.
  const redis = { ...queue.settings };
  const path = join(tmpdir(), 'queuelens-demo-connections.json');
  writeFileSync(
    path,
    JSON.stringify({
      connections: [
        { name: 'demo', label: 'Demo queues', redis, prefix },
        { name: 'demo-ng', label: 'Demo yii2 channel', redis, layout: 'yii2-ng', channel: DEMO_YII2_CHANNEL },
        { name: 'demo-marko', label: 'Demo marko queue', redis, layout: 'marko', prefix: DEMO_MARKO_PREFIX, retryAfter: 90 },
      ],
    }),
    { mode: 0o600 },
  );
  return path;
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
  await ensureBuild();
  if (await seedDemoQueues(queue)) console.log(`Seeded the demo queues under the prefix ${prefix}`);
  if (await seedDemoYii2Channel(queue.redis)) console.log(`Seeded the yii2-queue-redis-ng channel ${DEMO_YII2_CHANNEL} (no PHP worker runs it)`);
  if (await seedDemoMarkoQueue(queue.redis)) console.log(`Seeded the marko/queue-redis queue under the prefix ${DEMO_MARKO_PREFIX} (no PHP worker runs it)`);
  const connectionsFile = process.env.QUEUELENS_CONFIG || demoConnectionsFile(queue);

  await keepTroubleOnScreen(queue);
  const trouble = setInterval(() => {
    keepTroubleOnScreen(queue).catch((error: unknown) => {
      console.error(`demo trouble: ${error instanceof Error ? error.message : String(error)}`);
    });
  }, TROUBLE_CHECK_MS);

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

  // `queuelens serve` on the build: a secret of its own and a one-time login link, unless QUEUELENS_SECRET is set.
  const dashboard = spawn(process.execPath, ['bin/queuelens.js', 'serve', '--host', HOST, '--port', port], {
    stdio: 'inherit',
    env: { ...process.env, QUEUE_PREFIX: prefix, QUEUELENS_CONFIG: connectionsFile, NEXT_TELEMETRY_DISABLED: '1' },
  });
  console.log(`QueueLens demo: http://${HOST}:${port} (prefix ${prefix}); Ctrl+C stops it`);

  const stop = async () => {
    clearInterval(producer);
    clearInterval(trouble);
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
