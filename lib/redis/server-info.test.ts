import { describe, expect, it } from 'vitest';
import { QueueError } from './errors';
import { RedisQueue } from '../layouts/staticphp/redis-queue';
import { testQueueFactory, testSettings } from '../layouts/staticphp/test-redis';
import { parseInfo, readServerInfo, toServerInfo } from './server-info';

const openQueue = testQueueFactory();

const INFO = [
  '# Server',
  'redis_version:7.2.4',
  'executable:/usr/local/bin/redis-server',
  'uptime_in_seconds:93784',
  '',
  '# Memory',
  'used_memory:2138136',
  'used_memory_human:2.04M',
  'maxmemory_policy:allkeys-lru',
  '',
  '# Clients',
  'connected_clients:7',
  '',
].join('\r\n');

describe('parseInfo and toServerInfo', () => {
  it('reads the fields of every section, keeping colons inside values', () => {
    const fields = parseInfo(INFO);
    expect(fields.get('executable')).toBe('/usr/local/bin/redis-server');
    expect(fields.has('# Server')).toBe(false);
    expect(toServerInfo(fields)).toEqual({
      version: '7.2.4',
      usedMemoryHuman: '2.04M',
      usedMemoryBytes: 2138136,
      connectedClients: 7,
      uptimeSeconds: 93784,
      maxmemoryPolicy: 'allkeys-lru',
    });
  });

  it('reads a policy the server does not report as unknown, never as safe', () => {
    expect(toServerInfo(parseInfo(INFO.replace('maxmemory_policy:allkeys-lru', ''))).maxmemoryPolicy).toBeNull();
    expect(toServerInfo(parseInfo(INFO.replace('maxmemory_policy:allkeys-lru', 'maxmemory_policy:'))).maxmemoryPolicy).toBeNull();
  });

  it('names a missing or malformed field instead of showing a wrong figure', () => {
    expect(() => toServerInfo(parseInfo(INFO.replace('used_memory:2138136', '')))).toThrow(new QueueError('Redis INFO did not report used_memory'));
    expect(() => toServerInfo(parseInfo(INFO.replace('connected_clients:7', 'connected_clients:seven')))).toThrow(
      'Redis INFO reported connected_clients as "seven", not a whole number',
    );
  });
});

describe('readServerInfo', () => {
  it('reports the facts of the server the queue is on', async () => {
    const queue = await openQueue();
    const info = await readServerInfo(queue);
    const server = parseInfo(await queue.redis.info('server'));
    const [, policy] = (await queue.redis.config('GET', 'maxmemory-policy')) as [string, string];

    expect(info.version).toBe(server.get('redis_version'));
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.maxmemoryPolicy).toBe(policy);
    expect(info.usedMemoryBytes).toBeGreaterThan(0);
    expect(info.usedMemoryHuman).toMatch(/^\d+(\.\d+)?[BKMGT]$/);
    // This test's own connection is one of them.
    expect(info.connectedClients).toBeGreaterThanOrEqual(1);
    // Read a moment after info: the same second, or the next.
    const uptimeLater = Number(server.get('uptime_in_seconds'));
    expect(info.uptimeSeconds).toBeLessThanOrEqual(uptimeLater);
    expect(info.uptimeSeconds).toBeGreaterThanOrEqual(uptimeLater - 1);
  });

  it('fails as a QueueError naming the server when the connection is gone', async () => {
    // Not from openQueue: its cleanup needs the connection this test closes.
    const queue = await RedisQueue.connect(testSettings());
    queue.redis.disconnect();
    await expect(readServerInfo(queue)).rejects.toThrow(QueueError);
    await expect(readServerInfo(queue)).rejects.toThrow(`could not reach redis: ${queue.server}`);
  });
});
