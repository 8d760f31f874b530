import { describe, expect, it } from 'vitest';
import { compareStreamIds, streamIdMs } from './stream-ids';

describe('compareStreamIds', () => {
  it('orders by time, then sequence, as numbers rather than text', () => {
    expect(compareStreamIds('9-0', '10-0')).toBe(-1);
    expect(compareStreamIds('10-2', '10-10')).toBe(-1);
    expect(compareStreamIds('10-10', '10-2')).toBe(1);
    expect(compareStreamIds('1780000000123-0', '1780000000123-0')).toBe(0);
    expect(compareStreamIds('18446744073709551615-1', '18446744073709551615-0')).toBe(1);
  });
});

describe('streamIdMs', () => {
  it('reads the time part of an id, and NaN from what is not one', () => {
    expect(streamIdMs('1785649677469-3')).toBe(1785649677469);
    expect(streamIdMs('not-an-id')).toBeNaN();
  });
});
