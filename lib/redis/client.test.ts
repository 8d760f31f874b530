import { describe, expect, it } from 'vitest';
import { createClient, describeServer, isCluster } from './client';
import { readSettings } from './config';
import { QueueError } from './errors';

const seeds = [
  { host: '127.0.0.1', port: 7100 },
  { host: '127.0.0.1', port: 7101 },
];
const sentinels = [{ host: '127.0.0.1', port: 7110 }];

describe('createClient', () => {
  it('builds a cluster client for seed nodes and a plain one otherwise, without connecting', () => {
    const cluster = createClient(readSettings({ cluster: seeds, prefix: '{queue}:' }));
    const viaSentinel = createClient(readSettings({ sentinels, sentinelName: 'main' }));
    const direct = createClient(readSettings({}));
    expect([cluster, viaSentinel, direct].map(isCluster)).toEqual([true, false, false]);
    expect([cluster.status, viaSentinel.status, direct.status]).toEqual(['wait', 'wait', 'wait']);
    for (const client of [cluster, viaSentinel, direct]) client.disconnect();
  });

  it('refuses settings that name no single way to connect, before opening anything', () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ cluster: seeds, sentinels, sentinelName: 'main', prefix: '{q}:' }, 'Set either cluster or sentinels'],
      [{ sentinels }, 'sentinelName (REDIS_SENTINEL_NAME) is empty'],
      [{ cluster: seeds, prefix: 'queue:' }, 'prefix: "{queue}:"'],
      [{ cluster: seeds, prefix: '{q}:', database: 2 }, 'only database 0'],
      [{ tlsCa: '/etc/ssl/certs/ca-certificates.crt' }, 'TLS is off: use a rediss:// URL or tls: true'],
      [{ tls: true, tlsCa: '/nonexistent/ca.pem' }, 'Could not read the TLS CA file /nonexistent/ca.pem (ENOENT'],
    ];
    for (const [block, message] of refusals) {
      expect(() => createClient(readSettings(block)), message).toThrow(QueueError);
      expect(() => createClient(readSettings(block))).toThrow(message);
    }
  });

  it('names the server as messages show it', () => {
    expect(describeServer(readSettings({ hostname: 'redis.internal', port: 6390 }))).toBe('redis.internal:6390');
    expect(describeServer(readSettings({ cluster: seeds }))).toBe('cluster 127.0.0.1:7100,127.0.0.1:7101');
    expect(describeServer(readSettings({ sentinels, sentinelName: 'main' }))).toBe('master main via sentinels 127.0.0.1:7110');
  });
});
