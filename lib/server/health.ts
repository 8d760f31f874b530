import 'server-only';
import { parseInfo } from '@/lib/redis/server-info';
import { readRedis, type ReadResult } from './queue';

export interface Health {
  connection: string;
  server: string;
  version: string;
  /** one PING's round trip from this server, milliseconds */
  latencyMs: number;
}

/** Whether the connection's Redis answers, for GET /api/health: monitoring alerts on the 503. */
export function readHealth(): Promise<ReadResult<Health>> {
  return readRedis(async (redis, connection) => {
    const started = performance.now();
    await redis.attempt(() => redis.redis.ping());
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const info = parseInfo(await redis.attempt(() => redis.nodeHoldingKeys().info('server')));
    return { connection: connection.name, server: redis.server, version: info.get('redis_version') ?? 'unknown', latencyMs };
  });
}
