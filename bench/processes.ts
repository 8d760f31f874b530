import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

/** Process groups this benchmark started and has not seen end. */
const ownedGroups = new Set<number>();
const exitTasks: (() => void)[] = [];

// However the benchmark ends (an exception, Ctrl+C, a kill), it must not
// leave a gigabyte-sized redis-server or a Next server running behind it.
// 'exit' handlers must be synchronous: a signal to each group is.
process.once('exit', () => {
  for (const group of ownedGroups) signalGroup(group, 'SIGKILL');
  for (const task of exitTasks.splice(0)) task();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.exit(130));

/** Runs `task` (synchronous) when the benchmark exits, however it exits. */
export function atExit(task: () => void): void {
  exitTasks.push(task);
}

function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing is left in the group
  }
}

/**
 * Spawns `command` as the leader of a process group of its own, which the
 * benchmark ends when it exits. A group rather than a pid because a server
 * may run its work in children (`next start` did in some versions).
 */
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) ownedGroups.add(child.pid);
  return child;
}

/** Ends the child's process group: SIGTERM, then SIGKILL after `graceMs`; resolves once the group is empty. */
export async function stopOwned(child: ChildProcess, graceMs = 10_000): Promise<void> {
  const group = child.pid;
  if (group === undefined) return;
  signalGroup(group, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (signalGroup(group, 0)) {
    if (Date.now() > deadline) signalGroup(group, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  ownedGroups.delete(group);
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The benchmark's servers (Redis, Next, bull-board) listen on loopback ports
 * 7300–7399, away from the shared Redis (6379) and the e2e servers; `taken`
 * are ports already handed out in this run but maybe not bound yet.
 */
export async function freeBenchPort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (let port = 7300; port <= 7399; port++) {
    if (!taken.has(port) && (await isPortFree(port))) return port;
  }
  throw new Error('No free loopback port in 7300–7399 for the benchmark');
}
