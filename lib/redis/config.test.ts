import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, settingsFromEnv, settingsFromUrl } from './config';
import { QueueError } from './errors';

describe('settings', () => {
  it('testSettingArrayIgnoresAnEntryThatIsNotABlockOfSettings', () => {
    for (const notABlock of ['localhost:6379', ['127.0.0.1', 6380], null, undefined, 6379, true]) {
      expect(readSettings(notABlock)).toEqual(DEFAULT_SETTINGS);
    }
  });

  it('fills a partial block with the defaults, as connect() does', () => {
    expect(readSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ port: 6380, prefix: 'app:' })).toEqual({ ...DEFAULT_SETTINGS, port: 6380, prefix: 'app:' });
  });

  it('falls back to the default for a value of the wrong type instead of throwing', () => {
    expect(readSettings({ hostname: 42, port: 'not a port', database: 'three', password: null, username: [], timeout: 'soon', prefix: 7, group: '' })).toEqual(
      DEFAULT_SETTINGS,
    );
    expect(readSettings({ port: 70000, database: -1, timeout: 0 })).toEqual(DEFAULT_SETTINGS);
  });

  it('accepts numeric strings where PHP would, and reads the shipped config file block', () => {
    expect(readSettings({ port: '6380', database: '3', timeout: '1.5' })).toMatchObject({ port: 6380, database: 3, timeout: 1.5 });
    expect(readSettings({ hostname: '127.0.0.1', port: 6379, database: 3, password: null, timeout: 2, prefix: 'queue:', group: 'workers' })).toEqual({
      ...DEFAULT_SETTINGS,
      database: 3,
    });
  });

  it('reads redis:// and rediss:// URLs', () => {
    expect(settingsFromUrl('redis://user:p%40ss@redis.internal:6390/4')).toEqual({
      ...DEFAULT_SETTINGS,
      hostname: 'redis.internal',
      port: 6390,
      database: 4,
      username: 'user',
      password: 'p@ss',
    });
    expect(settingsFromUrl('rediss://[::1]')).toMatchObject({ hostname: '::1', port: 6379, tls: true });
    expect(() => settingsFromUrl('http://localhost')).toThrow(QueueError);
    expect(() => settingsFromUrl('not a url')).toThrow(QueueError);
  });

  it('takes REDIS_URL, QUEUE_PREFIX and QUEUE_GROUP from the environment', () => {
    expect(settingsFromEnv({})).toEqual(DEFAULT_SETTINGS);
    expect(settingsFromEnv({ REDIS_URL: 'redis://127.0.0.1:6381/2', QUEUE_PREFIX: 'shop:', QUEUE_GROUP: 'shop-workers' })).toEqual({
      ...DEFAULT_SETTINGS,
      port: 6381,
      database: 2,
      prefix: 'shop:',
      group: 'shop-workers',
    });
  });

  it('reads the cluster, Sentinel and TLS keys, each falling back whole when malformed', () => {
    const nodes = [
      { host: '127.0.0.1', port: 7100 },
      { host: 'redis-2.internal', port: '7101' },
    ];
    expect(readSettings({ cluster: nodes, tls: true, tlsCa: '/etc/redis/ca.pem' })).toMatchObject({
      cluster: [
        { host: '127.0.0.1', port: 7100 },
        { host: 'redis-2.internal', port: 7101 },
      ],
      tls: true,
      tlsCa: '/etc/redis/ca.pem',
    });
    expect(readSettings({ sentinels: nodes, sentinelName: 'main' })).toMatchObject({
      sentinels: [nodes[0], { ...nodes[1], port: 7101 }],
      sentinelName: 'main',
    });
    for (const malformed of ['127.0.0.1:7100', [{ host: '127.0.0.1' }], [{ host: '', port: 7100 }], [{ host: 'a', port: 70000 }], [nodes[0], 'b:1'], {}]) {
      expect(readSettings({ cluster: malformed, sentinels: malformed })).toEqual(DEFAULT_SETTINGS);
    }
    expect(readSettings({ tls: 'yes', tlsCa: 42, sentinelName: ['main'] })).toEqual(DEFAULT_SETTINGS);
    // Its own output reads back the same: callers spread settings into a new block.
    const settings = readSettings({ cluster: nodes, prefix: '{q}:', tls: true, tlsCa: '/ca.pem' });
    expect(readSettings({ ...settings })).toEqual(settings);
  });

  it('takes seed nodes, sentinels and the TLS CA from the environment', () => {
    expect(
      settingsFromEnv({
        REDIS_URL: 'rediss://:secret@ignored:1/0',
        REDIS_CLUSTER_NODES: 'redis-1.internal:7000, [::1]:7001',
        REDIS_TLS_CA: '/ca.pem',
        QUEUE_PREFIX: '{q}:',
      }),
    ).toMatchObject({
      cluster: [
        { host: 'redis-1.internal', port: 7000 },
        { host: '::1', port: 7001 },
      ],
      password: 'secret',
      tls: true,
      tlsCa: '/ca.pem',
      prefix: '{q}:',
    });
    expect(settingsFromEnv({ REDIS_SENTINELS: 'sentinel-1:26379,sentinel-2:26379', REDIS_SENTINEL_NAME: 'main' })).toMatchObject({
      sentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'sentinel-2', port: 26379 },
      ],
      sentinelName: 'main',
      cluster: [],
    });
    for (const malformed of ['127.0.0.1', '127.0.0.1:0', 'a:1,,b:2', '::1:7000']) {
      expect(() => settingsFromEnv({ REDIS_CLUSTER_NODES: malformed }), malformed).toThrow('REDIS_CLUSTER_NODES must list host:port pairs');
    }
  });
});
