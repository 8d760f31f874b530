import { describe, expect, it } from 'vitest';
import { DEFAULT_YII2_NG_SETTINGS, layoutSettingsFromEnv } from './settings';

describe('layoutSettingsFromEnv', () => {
  it('reads StaticPHP when nothing is set, and yii2 channels from QUEUE_CHANNELS (default queue)', () => {
    expect(layoutSettingsFromEnv({})).toEqual({ layout: 'staticphp' });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: '' })).toEqual({ layout: 'staticphp' });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2' })).toEqual({ layout: 'yii2', channels: ['queue'] });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2-ng', QUEUE_CHANNELS: 'mail, {jobs}' })).toEqual({
      layout: 'yii2-ng',
      channels: ['mail', '{jobs}'],
      ng: DEFAULT_YII2_NG_SETTINGS,
    });
  });

  it('reads laravel with Laravel 8–10’s default prefix and queues to be found, unless set', () => {
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'laravel' })).toEqual({ layout: 'laravel', prefix: 'laravel_database_', queues: null, horizonPrefix: null });
    expect(
      layoutSettingsFromEnv({ QUEUE_LAYOUT: 'laravel', QUEUE_PREFIX: 'shop-database-', QUEUE_NAMES: 'default,{mail}', HORIZON_PREFIX: 'shop_horizon:' }),
    ).toEqual({
      layout: 'laravel',
      prefix: 'shop-database-',
      queues: ['default', '{mail}'],
      horizonPrefix: 'shop_horizon:',
    });
  });

  it('reads marko with its own default prefix, retry_after unknown and queues to be found, unless set', () => {
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'marko' })).toEqual({ layout: 'marko', prefix: 'marko:', retryAfter: null, queues: null });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'marko', QUEUE_PREFIX: 'app:', QUEUE_RETRY_AFTER: '120', QUEUE_NAMES: 'emails, default' })).toEqual({
      layout: 'marko',
      prefix: 'app:',
      retryAfter: 120,
      queues: ['emails', 'default'],
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'bull' })).toThrow('QUEUE_LAYOUT must be one of staticphp, yii2, yii2-ng, marko, laravel, not "bull"');
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'marko', QUEUE_RETRY_AFTER: '1.5' })).toThrow(
      'QUEUE_RETRY_AFTER must be a whole number of seconds above 0 (marko\'s queue.retry_after), not "1.5"',
    );
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'marko', QUEUE_NAMES: 'a,' })).toThrow(
      'QUEUE_NAMES must list queue names separated by commas, not "a,"',
    );
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2', QUEUE_CHANNELS: 'a,,b' })).toThrow(
      'QUEUE_CHANNELS must list channel names separated by commas, not "a,,b"',
    );
  });
});
