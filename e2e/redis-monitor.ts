import net from 'node:net';
import type { RedisSettings } from '@/lib/redis/config';

/**
 * Every command one Redis runs, as MONITOR prints it, a line each, on a socket of its own. Not ioredis's `monitor()`: ioredis marks
 * its connection as monitoring a tick after MONITOR's OK, so a line arriving in the same read as that OK fails with "Command queue
 * state error" (seen in CI, on a Redis busy with the dashboard's sampler).
 */
export class RedisMonitor {
  readonly lines: string[] = [];

  private constructor(private readonly socket: net.Socket) {}

  static start(settings: RedisSettings): Promise<RedisMonitor> {
    if (settings.cluster.length > 0 || settings.sentinels.length > 0 || settings.tls) {
      throw new Error('RedisMonitor watches one plain-TCP Redis: the e2e Redis is no cluster, sentinel set or TLS server');
    }
    const socket = net.connect(settings.port, settings.hostname);
    const monitor = new RedisMonitor(socket);
    const commands = [...(settings.password ? [auth(settings)] : []), ['MONITOR']];
    socket.write(commands.map(resp).join(''));
    return monitor.untilAnswered(commands.length);
  }

  stop(): void {
    this.socket.destroy();
  }

  /** Resolves once each command sent has answered OK, and keeps every later line. */
  private untilAnswered(answers: number): Promise<RedisMonitor> {
    return new Promise((resolve, reject) => {
      let pending = '';
      let unanswered = answers;
      this.socket.on('error', reject);
      this.socket.on('data', (chunk) => {
        const lines = (pending + chunk.toString('utf8')).split('\r\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith('-')) reject(new Error(`Redis refused: ${line.slice(1)}`));
          else if (unanswered > 0) unanswered -= 1;
          else this.lines.push(line.slice(1));
        }
        if (unanswered === 0) resolve(this);
      });
    });
  }
}

function auth(settings: RedisSettings): string[] {
  return settings.username ? ['AUTH', settings.username, settings.password] : ['AUTH', settings.password];
}

function resp(args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}
