import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../lib/serving/server-process';
import { residentMemory, servingPid } from './proc';
import { spawnOwned, stopOwned } from './processes';
import { BULL_PREFIX } from './seed-bullmq';

/** An HTTP server the benchmark started, on a loopback port. */
export interface ServedApp {
  name: string;
  baseUrl: string;
  /** the process that holds the listening socket */
  pid: number;
  /** its resident memory now and at its peak */
  memory(): { rssBytes: number; peakBytes: number };
  stop(): Promise<void>;
}

/**
 * Starts `command` (a server listening on 127.0.0.1:`port`), its output in
 * `logFile`, and resolves once GET `readyPath` gets any answer.
 */
export async function startServedApp(
  name: string,
  command: string,
  args: readonly string[],
  { cwd, env, port, logFile, readyPath }: { cwd: string; env: NodeJS.ProcessEnv; port: number; logFile: string; readyPath: string },
): Promise<ServedApp> {
  const log = openSync(logFile, 'a');
  const child = spawnOwned(command, args, { cwd, env, stdio: ['ignore', log, log] });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopOwned(child);
      throw new Error(`${name} did not start on port ${port}; see ${logFile}`);
    }
    try {
      await (await fetch(`${baseUrl}${readyPath}`)).arrayBuffer();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const pid = servingPid(child.pid!, port);
  return { name, baseUrl, pid, memory: () => residentMemory(pid), stop: () => stopOwned(child) };
}

/** What `next build` reads; a change to any of these makes a build stale. Tests are not built. */
const BUILD_INPUTS = ['app', 'components', 'lib', 'lua', 'next.config.ts', 'package-lock.json', 'postcss.config.mjs', 'tsconfig.json'];

function newestChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

/** `next` as installed, run with this Node. */
export const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

/**
 * Runs `next build` in `root` unless `.next` holds a build newer than every
 * file it is built from, so that the benchmark always measures the code as
 * it is. Returns whether it built.
 */
export function ensureProductionBuild(root: string, logFile: string): boolean {
  const builtAt = statSync(join(root, '.next', 'BUILD_ID'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (builtAt > Math.max(...BUILD_INPUTS.map((input) => newestChange(join(root, input))))) return false;
  const log = openSync(logFile, 'a');
  const build = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  closeSync(log);
  if (build.status !== 0) throw new Error(`next build failed; see ${logFile}`);
  return true;
}

/** Where the benchmarks mount bull-board on its Express app. */
export const BULL_BOARD_BASE_PATH = '/bull-board';

/** What every benchmark's QueueLens server is given: the StaticPHP layout on a Redis of the benchmark's, signed in by a bearer secret. */
export interface BenchDashboard {
  root: string;
  workDir: string;
  port: number;
  redisUrl: string;
  /** the layout's prefix and consumer group */
  prefix: string;
  group: string;
  /** QueueLens's own keys (sampler history, audit) */
  dashboardPrefix: string;
  secret: string;
  readyPath: string;
  /** node flags before Next (a profiler's), after the server's own (SERVER_NODE_FLAGS); none by default */
  nodeFlags?: readonly string[];
  label?: string;
}

/** The production build under `next start` on 127.0.0.1:`port`. */
export function startBenchDashboard(options: BenchDashboard): Promise<ServedApp> {
  const { root, workDir, port, redisUrl, prefix, group, dashboardPrefix, secret, readyPath, nodeFlags = [], label = 'next start' } = options;
  return startServedApp(label, process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    // The server's start-up check reads the address it binds from HOSTNAME (as the standalone server does), not from -H.
    env: {
      ...process.env,
      HOSTNAME: '127.0.0.1',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      QUEUE_GROUP: group,
      QUEUELENS_PREFIX: dashboardPrefix,
      QUEUELENS_SECRET: secret,
    },
    port,
    logFile: join(workDir, `${label.replaceAll(/\W+/g, '-')}-${port}.log`),
    readyPath,
  });
}

/**
 * bull-board (bench/bull-board-server.ts) over BullMQ queues `queues` under
 * BULL_PREFIX on `redisUrl`, mounted at BULL_BOARD_BASE_PATH, in a process of
 * its own. The names go through a file: ten thousand of them are more than
 * one environment variable may hold.
 */
export function startBullBoard({
  root,
  workDir,
  port,
  redisUrl,
  queues,
  readyPath,
}: {
  root: string;
  workDir: string;
  port: number;
  redisUrl: string;
  queues: readonly string[];
  readyPath: string;
}): Promise<ServedApp> {
  const queuesFile = join(workDir, `bull-board-queues-${port}.txt`);
  writeFileSync(queuesFile, queues.join('\n'));
  return startServedApp('bull-board', process.execPath, ['--import', 'tsx', join(root, 'bench', 'bull-board-server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BULL_BOARD_PORT: String(port),
      BULL_BOARD_BASE_PATH,
      BULL_REDIS_URL: redisUrl,
      BULL_PREFIX,
      BULL_QUEUES_FILE: queuesFile,
    },
    port,
    logFile: join(workDir, `bull-board-${port}.log`),
    readyPath,
  });
}
