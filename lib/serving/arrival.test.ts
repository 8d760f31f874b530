import { describe, expect, it } from 'vitest';
import { waitedMs } from './arrival';

describe('waitedMs', () => {
  it('is how long ago the server stamped the request, and 0 for no stamp, a stamp that is no time, or one in the future', () => {
    expect(waitedMs('1000', 1_250)).toBe(250);
    expect(waitedMs(null, 1_250)).toBe(0);
    expect(waitedMs('', 1_250)).toBe(0);
    expect(waitedMs('soon', 1_250)).toBe(0);
    expect(waitedMs('1e3', 1_250)).toBe(0);
    expect(waitedMs('1.5', 1_250)).toBe(0);
    expect(waitedMs('2000', 1_250)).toBe(0);
  });
});
