import { QueueError } from './errors';
import { execPipeline } from './pipeline';
import type { RedisConnection } from './connection';
import type { ServerInfo } from '../shapes/server-info';

/**
 * INFO's reply as field → value. Section headers (`# Server`) and blank lines
 * are skipped; a value keeps everything after the first colon, since some
 * contain colons of their own (`executable:/usr/bin/redis-server`).
 */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

function requiredField(fields: ReadonlyMap<string, string>, name: string): string {
  const value = fields.get(name);
  if (value === undefined || value === '') throw new QueueError(`Redis INFO did not report ${name}`);
  return value;
}

function wholeNumberField(fields: ReadonlyMap<string, string>, name: string): number {
  const text = requiredField(fields, name);
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new QueueError(`Redis INFO reported ${name} as "${text}", not a whole number`);
  return value;
}

/**
 * The dashboard's server facts from INFO fields (server, memory and clients
 * sections merged). Every Redis since 2.6 reports these fields, so a missing
 * one throws a QueueError naming it, except maxmemory_policy: a server or
 * proxy that hides it reads as null, "unknown", never as a safe policy.
 */
export function toServerInfo(fields: ReadonlyMap<string, string>): ServerInfo {
  return {
    version: requiredField(fields, 'redis_version'),
    usedMemoryHuman: requiredField(fields, 'used_memory_human'),
    usedMemoryBytes: wholeNumberField(fields, 'used_memory'),
    connectedClients: wholeNumberField(fields, 'connected_clients'),
    uptimeSeconds: wholeNumberField(fields, 'uptime_in_seconds'),
    maxmemoryPolicy: fields.get('maxmemory_policy') || null,
  };
}

/**
 * Reads INFO server, memory and clients in one pipelined round trip, of the
 * server holding the queue's keys (in a cluster, the master of their slot). The
 * policy comes from INFO rather than CONFIG GET, which managed Redis services
 * and restricted ACL users are commonly refused.
 */
export async function readServerInfo(queue: RedisConnection): Promise<ServerInfo> {
  return queue.attempt(async () => {
    const replies = await execPipeline(queue.nodeHoldingKeys().pipeline().info('server').info('memory').info('clients'));
    const fields = new Map<string, string>();
    for (const reply of replies) for (const [name, value] of parseInfo(String(reply))) fields.set(name, value);
    return toServerInfo(fields);
  });
}
