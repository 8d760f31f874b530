import { describe, expect, it } from 'vitest';
import { formatCount, plural } from './format-count';

describe('formatCount', () => {
  it('prints whole numbers as Intl does in English, without making a formatter', () => {
    const intl = new Intl.NumberFormat('en');
    for (const value of [0, -0, 1, 12, 999, 1000, 1234, 99_999, 100_000, 1_234_567, -1, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(formatCount(value), String(value)).toBe(intl.format(value));
    }
  });

  it('leaves what is not a whole number to Intl', () => {
    const intl = new Intl.NumberFormat('en');
    for (const value of [0.5, 1234.5678, -1234.5, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatCount(value), String(value)).toBe(intl.format(value));
    }
  });
});

describe('plural', () => {
  it('names one and many', () => {
    expect(plural(1, 'job')).toBe('1 job');
    expect(plural(1234, 'job')).toBe('1,234 jobs');
  });
});
