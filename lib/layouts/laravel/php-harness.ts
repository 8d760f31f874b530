/** The real Laravel driver for the tests (vitest and Playwright alike): PHP runs lib/layouts/laravel/php/queue-harness.php. */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MissingPrerequisite, onPath } from '../../test-prerequisites';

const HARNESS = join(dirname(fileURLToPath(import.meta.url)), 'php', 'queue-harness.php');
/** Where Debian's php-laravel-framework puts the code the harness runs. */
const LARAVEL_QUEUE = '/usr/share/php/Illuminate/Queue/RedisQueue.php';
export const LARAVEL_APT_PACKAGES = 'php-cli php-laravel-framework php-redis';

/** Fails (never skips) with what to install when PHP, Laravel or phpredis is missing. */
export function requireRealLaravel(): void {
  const missing = [
    ...(onPath('php') === null ? ['php'] : []),
    ...(existsSync(LARAVEL_QUEUE) ? [] : [LARAVEL_QUEUE]),
    ...(onPath('php') !== null && !hasPhpRedis() ? ['the phpredis extension'] : []),
  ];
  if (missing.length > 0)
    throw new MissingPrerequisite(`${missing.join(', ')} not found: the Laravel tests run the real driver (apt-get install ${LARAVEL_APT_PACKAGES})`);
}

function hasPhpRedis(): boolean {
  try {
    return execFileSync('php', ['-r', 'echo extension_loaded("redis") ? 1 : 0;']).toString() === '1';
  } catch {
    return false;
  }
}

const run = promisify(execFile);

/** Where the harness's Redis is, when not where REDIS_HOST and REDIS_PORT say (127.0.0.1:6379, database 0). */
export interface HarnessRedis {
  port: number;
  database?: number;
}

/** The real Illuminate\Queue\RedisQueue on one queue under one prefix (lib/layouts/laravel/php/queue-harness.php). */
export class LaravelHarness {
  constructor(
    readonly prefix: string,
    readonly queue: string,
    private readonly redis?: HarnessRedis,
  ) {}

  private async call(...args: string[]): Promise<unknown> {
    const env = this.redis && { ...process.env, REDIS_PORT: String(this.redis.port), REDIS_DB: String(this.redis.database ?? 0) };
    // A worker's list of the jobs it ran outgrows execFile's 1 MB.
    const { stdout } = await run('php', [HARNESS, this.prefix, this.queue, ...args], { env, maxBuffer: 256 * 1024 * 1024 });
    return JSON.parse(stdout);
  }
  /** a job whose command carries `name`, of class HarnessJob, App\Jobs\SendMail or ExpiringJob (retryUntil 90 s after the push); its id */
  push = (name: string, jobClass: 'HarnessJob' | 'App\\Jobs\\SendMail' | 'ExpiringJob' = 'HarnessJob') => this.call('push', name, jobClass) as Promise<string>;
  /** a job delayed by `seconds` (negative: due already, not moved until a pop); its id */
  later = (seconds: number) => this.call('later', String(seconds)) as Promise<string>;
  /** one pop with retry_after `retryAfter` (negative: the reservation has expired already) */
  pop = (retryAfter = 60) => this.call('pop', String(retryAfter)) as Promise<{ id: string; attempts: number; name: string } | null>;
  size = () => this.call('size') as Promise<number>;
  /** pops until job `id` and releases it back, delayed by `delay` seconds (jobs popped on the way go back at once); false when it never came up */
  release = (id: string, delay: number) => this.call('release', id, String(delay)) as Promise<boolean>;
  /** pops until job `id` and deletes it, as a worker that finished it; false when it never came up */
  delete = (id: string) => this.call('delete', id) as Promise<boolean>;
  /** pops and deletes every job that can run now, as a worker would; each with the payload it popped, decoded */
  drain = () => this.call('drain', '60') as Promise<{ id: string; attempts: number; name: string; payload: Record<string, unknown> }[]>;
  /** a worker over every queue of `queue` (names with commas between them) until the file `stopFile` exists; each job it ran, as [queue, id] */
  work = (stopFile: string) => this.call('work', stopFile) as Promise<[string, string][]>;
}
