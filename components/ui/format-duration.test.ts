import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration';

describe('formatDuration', () => {
  it('gives the two largest units, leaving out a zero second one', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(302)).toBe('5 min 2 s');
    expect(formatDuration(3_600 + 59)).toBe('1 h');
    expect(formatDuration(93_784)).toBe('1 d 2 h');
    expect(formatDuration(86_400 * 400 + 1)).toBe('400 d');
  });

  it('reads nonsense as no time at all', () => {
    expect(formatDuration(-5)).toBe('0 s');
    expect(formatDuration(12.9)).toBe('12 s');
  });
});
