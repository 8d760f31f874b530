import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { freeBenchPort, spawnOwned, stopOwned } from './processes';

/** A redis-server of the benchmark's own. */
export interface PrivateRedis {
  port: number;
  /** the redis-server process, whose main thread runs every command */
  pid: number;
  /** its redis:// URL for one database */
  url(database: number): string;
  /** a new client on one database; the caller closes it */
  connect(database: number, options?: RedisOptions): Redis;
  stop(): Promise<void>;
}

async function answersPing(port: number, child: ChildProcess): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && child.exitCode === null;) {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      probe.disconnect();
    }
  }
  return false;
}

/**
 * Starts a redis-server on a free loopback port in 7300–7399, keeping
 * nothing on disk (its log goes to `workDir`). The dashboard benchmark needs
 * one of its own: it writes over a gigabyte and changes the SLOWLOG
 * threshold, neither of which belongs on a shared server. With `realtime`,
 * the server runs at real-time priority (`chrt --fifo 1`, which needs
 * root): it takes a CPU from any other process the moment it has work, as
 * a production Redis with a core of its own would have it.
 */
export async function startPrivateRedis(workDir: string, { realtime = false }: { realtime?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freeBenchPort();
  const server = [
    'redis-server',
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    workDir,
    '--logfile',
    join(workDir, 'redis.log'),
  ];
  const [command, ...args] = realtime ? ['chrt', '--fifo', '1', ...server] : server;
  const child = spawnOwned(command!, args, { stdio: 'ignore' });
  if (!(await answersPing(port, child))) {
    await stopOwned(child);
    throw new Error(`The benchmark's redis-server did not start on port ${port}; see ${join(workDir, 'redis.log')}`);
  }
  const url = (database: number) => `redis://127.0.0.1:${port}/${database}`;
  return {
    port,
    pid: child.pid!,
    url,
    connect: (database, options = {}) => new Redis(url(database), options),
    stop: () => stopOwned(child),
  };
}
