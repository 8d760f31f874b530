import 'server-only';
import { parseInfo } from '@/lib/redis/server-info';
import { readQueue, type ReadResult } from './queue';

export interface Health {
  connection: string;
  server: string;
  version: string;
  /** one PING's round trip from this server, milliseconds */
  latencyMs: number;
}

/** Whether the connection's Redis answers, for GET /api/health: monitoring alerts on the 503. */
export function readHealth(): Promise<ReadResult<Health>> {
  return readQueue(async (queue, connection) => {
    const started = performance.now();
    await queue.attempt(() => queue.redis.ping());
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const info = parseInfo(await queue.attempt(() => queue.nodeHoldingKeys().info('server')));
    return { connection: connection.name, server: queue.server, version: info.get('redis_version') ?? 'unknown', latencyMs };
  });
}
