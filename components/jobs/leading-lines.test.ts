import { describe, expect, it } from 'vitest';
import { leadingLines } from './leading-lines';

describe('leadingLines', () => {
  it('keeps a short error whole', () => {
    expect(leadingLines('SMTP refused\n  at send (mail.php:12)\n')).toEqual({ text: 'SMTP refused\n  at send (mail.php:12)', cut: false });
  });

  it('keeps the first lines of a long trace and says it cut the rest', () => {
    const trace = Array.from({ length: 40 }, (_, n) => `#${n} frame`).join('\n');
    expect(leadingLines(trace, { lines: 3 })).toEqual({ text: '#0 frame\n#1 frame\n#2 frame', cut: true });
  });

  it('cuts one very long line at the character limit', () => {
    expect(leadingLines('x'.repeat(50), { chars: 10 })).toEqual({ text: `${'x'.repeat(9)}…`, cut: true });
  });
});
