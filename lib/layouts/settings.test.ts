import { describe, expect, it } from 'vitest';
import { DEFAULT_YII2_NG_SETTINGS, layoutSettingsFromEnv } from './settings';

describe('layoutSettingsFromEnv', () => {
  it('reads StaticPHP when nothing is set, and yii2 channels from QUEUE_CHANNELS (default queue)', () => {
    expect(layoutSettingsFromEnv({})).toEqual({ layout: 'staticphp' });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: '' })).toEqual({ layout: 'staticphp' });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2' })).toEqual({ layout: 'yii2', channels: ['queue'] });
    expect(layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2-ng', QUEUE_CHANNELS: 'mail, {jobs}' })).toEqual({ layout: 'yii2-ng', channels: ['mail', '{jobs}'], ng: DEFAULT_YII2_NG_SETTINGS });
  });

  it('names the variable that is wrong', () => {
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'bull' })).toThrow('QUEUE_LAYOUT must be one of staticphp, yii2, yii2-ng, not "bull"');
    expect(() => layoutSettingsFromEnv({ QUEUE_LAYOUT: 'yii2', QUEUE_CHANNELS: 'a,,b' })).toThrow('QUEUE_CHANNELS must list channel names separated by commas, not "a,,b"');
  });
});
