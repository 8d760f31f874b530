import { describe, expect, it } from 'vitest';
import { utcAxisLabels, utcLegendMoment } from './utc-axis';

// 2026-12-01 13:05:00 UTC: 1 pm, so a 12-hour clock would say 1:05 PM.
const AFTERNOON = Date.UTC(2026, 11, 1, 13, 5, 0) / 1000;

describe('utcAxisLabels', () => {
  it('writes minutes on a 24-hour clock in UTC', () => {
    expect(utcAxisLabels([AFTERNOON, AFTERNOON + 300], 300)).toEqual(['13:05', '13:10']);
  });

  it('writes seconds when ticks are seconds apart', () => {
    expect(utcAxisLabels([AFTERNOON, AFTERNOON + 15], 15)).toEqual(['13:05:00', '13:05:15']);
  });

  it('writes month and day when ticks are days apart', () => {
    expect(utcAxisLabels([AFTERNOON - 13 * 3600 - 300, AFTERNOON + 86_400 - 13 * 3600 - 300], 86_400)).toEqual(['12-01', '12-02']);
  });

  it('marks midnight with its day when hourly ticks cross days', () => {
    const evening = Date.UTC(2026, 11, 1, 22, 0, 0) / 1000;
    expect(utcAxisLabels([evening, evening + 7200, evening + 14_400], 7200)).toEqual(['22:00', '12-02', '02:00']);
  });

  it('keeps midnight as a time when the ticks stay within one day', () => {
    const midnight = Date.UTC(2026, 11, 2, 0, 0, 0) / 1000;
    expect(utcAxisLabels([midnight, midnight + 3600], 3600)).toEqual(['00:00', '01:00']);
  });
});

describe('utcLegendMoment', () => {
  it('gives the date and the 24-hour time in UTC', () => {
    expect(utcLegendMoment(AFTERNOON)).toBe('2026-12-01 13:05:00 UTC');
  });
});
