import { describe, expect, it } from 'vitest';
import { formatRelative, formatUtc, isoOf } from './format-moment';

// 2026-08-02 12:00:00 UTC
const NOON = Date.UTC(2026, 7, 2, 12) / 1000;

describe('formatUtc', () => {
  it('gives the time alone on the same UTC day, and the date too on another', () => {
    expect(formatUtc(NOON + 3, NOON)).toBe('12:00:03 UTC');
    expect(formatUtc(NOON + 12 * 3600 - 1, NOON)).toBe('23:59:59 UTC');
    expect(formatUtc(NOON + 12 * 3600, NOON)).toBe('2026-08-03 00:00:00 UTC');
    expect(formatUtc(NOON - 86_400 * 400, NOON)).toBe('2025-06-28 12:00:00 UTC');
  });

  it('drops fractions of a second', () => {
    expect(formatUtc(NOON + 3.999, NOON)).toBe('12:00:03 UTC');
    expect(isoOf(NOON + 0.5)).toBe('2026-08-02T12:00:00.000Z');
  });
});

describe('formatRelative', () => {
  it('says how long until, or how long ago', () => {
    expect(formatRelative(NOON + 25, NOON)).toBe('in 25 s');
    expect(formatRelative(NOON - 180, NOON)).toBe('3 min ago');
    expect(formatRelative(NOON - 3_725, NOON)).toBe('1 h 2 min ago');
    expect(formatRelative(NOON, NOON)).toBe('now');
  });

  it('measures whole seconds, so a moment read in the same second is now', () => {
    expect(formatRelative(NOON + 0.9, NOON)).toBe('now');
    expect(formatRelative(NOON + 1, NOON + 0.2)).toBe('in 1 s');
  });
});
