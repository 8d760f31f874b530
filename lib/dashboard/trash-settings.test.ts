import { describe, expect, it } from 'vitest';
import { DEFAULT_TRASH_MAX, DEFAULT_TRASH_MAX_BYTES, DEFAULT_TRASH_SECONDS, trashSettingsFromEnv } from './trash-settings';

describe('the trash settings from the environment', () => {
  it('keeps 24 hours, 10,000 jobs and 64 MiB unless told otherwise', () => {
    expect(trashSettingsFromEnv({})).toEqual({
      dashboardPrefix: 'queuelens:',
      keepSeconds: DEFAULT_TRASH_SECONDS,
      maxEntries: DEFAULT_TRASH_MAX,
      maxBytes: DEFAULT_TRASH_MAX_BYTES,
    });
  });

  it.each(['QUEUELENS_TRASH_SECONDS', 'QUEUELENS_TRASH_MAX', 'QUEUELENS_TRASH_MAX_BYTES'])('is off when %s is 0', (name) => {
    expect(trashSettingsFromEnv({ [name]: '0' }).keepSeconds).toBe(0);
  });

  it('refuses a bound that is no whole number, naming it, rather than turning the trash off', () => {
    expect(() => trashSettingsFromEnv({ QUEUELENS_TRASH_MAX_BYTES: '64M' })).toThrow(
      'QUEUELENS_TRASH_MAX_BYTES must be a whole number of 0 or more, got "64M"',
    );
  });
});
