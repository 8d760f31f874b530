import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What one run of the CLI answered. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

const CLI = fileURLToPath(new URL('queuelens.js', import.meta.url));

/** Runs `queuelens ...args` as a process of its own (tsx compiles it each time); never rejects: a failure is its exit code and stderr. */
export function queuelens(...args: string[]): Promise<CliOutcome> {
  return queuelensWith(process.env, ...args);
}

/** queuelens() with the environment `env`: a command that keeps something under QueueLens's own prefix (a forget's trash) is given the test's. */
export function queuelensWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile('node', [CLI, ...args], { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
