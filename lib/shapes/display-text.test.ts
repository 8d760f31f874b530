import { describe, expect, it } from 'vitest';
import { bytesToText, toDisplayValue } from './display-text';

describe('bytesToText', () => {
  it('passes valid UTF-8 through', () => {
    expect(bytesToText(Buffer.from('naïve 日本語 🚀 <b>'))).toBe('naïve 日本語 🚀 <b>');
  });

  it('shows bytes that are not UTF-8 as escapes, keeping the valid text around them', () => {
    expect(bytesToText(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\\xFFb');
    expect(bytesToText(Buffer.from([0xc3]))).toBe('\\xC3'); // a character cut short
    expect(bytesToText(Buffer.from([0xe0, 0x80, 0x80]))).toBe('\\xE0\\x80\\x80'); // overlong
    expect(bytesToText(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\\xED\\xA0\\x80'); // a surrogate
    expect(bytesToText(Buffer.concat([Buffer.from('é'), Buffer.from([0x80]), Buffer.from('€')]))).toBe('é\\x80€');
  });
});

describe('toDisplayValue', () => {
  it('cuts a large value at the limit and says so', () => {
    const value = toDisplayValue(Buffer.alloc(10 * 1024 * 1024, 'a'), 1000);
    expect(value).toEqual({ text: 'a'.repeat(1000), bytes: 10 * 1024 * 1024, truncated: true });
    expect(toDisplayValue(Buffer.from('short'))).toEqual({ text: 'short', bytes: 5, truncated: false });
  });
});
