import { describe, expect, it } from 'vitest';
import { formatPollInterval, MIN_POLL_MS, parsePollInterval, pollChoices, serializePollInterval } from './poll-interval';

describe('poll intervals', () => {
  it('reads ms, and 0 or off as no polling', () => {
    expect(parsePollInterval('2000')).toBe(2000);
    expect(parsePollInterval(' 750 ')).toBe(750);
    expect(parsePollInterval('off')).toBe(false);
    expect(parsePollInterval('OFF')).toBe(false);
    expect(parsePollInterval('0')).toBe(false);
  });

  it('leaves anything else to the default', () => {
    for (const text of [undefined, null, '', 'fast', '2s', '-1000', '1e3', '1500.5', String(MIN_POLL_MS - 1), '99999999999999999999']) {
      expect(parsePollInterval(text)).toBeUndefined();
    }
  });

  it('round-trips what it stores', () => {
    for (const interval of [1000, 2500, false] as const) expect(parsePollInterval(serializePollInterval(interval))).toBe(interval);
  });

  it('offers the configured default and the current choice among the fixed ones, off last', () => {
    expect(pollChoices(2000, 2000)).toEqual([1000, 2000, 5000, 10000, false]);
    expect(pollChoices(3000, 750)).toEqual([750, 1000, 2000, 3000, 5000, 10000, false]);
    expect(pollChoices(false, false)).toEqual([1000, 2000, 5000, 10000, false]);
    expect(pollChoices(2000, 1500).map(formatPollInterval)).toEqual(['1 s', '1.5 s', '2 s', '5 s', '10 s', 'Off']);
  });
});
