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
    expect(
      readSettings({ hostname: 42, port: 'not a port', database: 'three', password: null, username: [], timeout: 'soon', prefix: 7, group: '' }),
    ).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ port: 70000, database: -1, timeout: 0 })).toEqual(DEFAULT_SETTINGS);
  });

  it('accepts numeric strings where PHP would, and reads the shipped config file block', () => {
    expect(readSettings({ port: '6380', database: '3', timeout: '1.5' })).toMatchObject({ port: 6380, database: 3, timeout: 1.5 });
    expect(
      readSettings({ hostname: '127.0.0.1', port: 6379, database: 3, password: null, timeout: 2, prefix: 'queue:', group: 'workers' }),
    ).toEqual({ ...DEFAULT_SETTINGS, database: 3 });
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
});
