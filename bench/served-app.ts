import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { residentMemory, servingPid } from './proc';
import { spawnOwned, stopOwned } from './processes';

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
