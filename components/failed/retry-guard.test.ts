import { describe, expect, it } from 'vitest';
import { sameErrorWarning } from './retry-guard';

describe('sameErrorWarning', () => {
  it('names the error every job failed with, and how many', () => {
    expect(sameErrorWarning(Array(69).fill('row 159 has 7 columns'))).toBe("all 69 failed with 'row 159 has 7 columns': a retry will likely fail again");
  });

  it('names the error most jobs failed with, out of how many', () => {
    expect(sameErrorWarning([...Array(61).fill('SMTP said no'), ...Array(8).fill('timeout')])).toBe(
      "61 of 69 failed with 'SMTP said no': a retry will likely fail again",
    );
  });

  it('says nothing when no error is shared by more than half, or the errors are empty', () => {
    expect(sameErrorWarning(['a', 'a', 'b', 'b'])).toBeNull();
    expect(sameErrorWarning(['', '', 'x'])).toBeNull();
    expect(sameErrorWarning([])).toBeNull();
  });

  it('cuts a long error', () => {
    expect(sameErrorWarning(['x'.repeat(200)])).toBe(`all 1 failed with '${'x'.repeat(79)}…': a retry will likely fail again`);
  });
});
