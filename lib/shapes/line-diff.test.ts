import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

const kinds = (before: string, after: string) => lineDiff(before, after)?.map(({ kind, text }) => `${{ same: ' ', removed: '-', added: '+' }[kind]}${text}`);

describe('a line diff', () => {
  it('keeps the shared lines and marks what was removed and added, in order', () => {
    expect(kinds('a\nb\nc\nd', 'a\nc\nx\nd')).toEqual([' a', '-b', ' c', '+x', ' d']);
    expect(kinds('{\n  "n": 1\n}', '{\n  "n": 2,\n  "skip": [159]\n}')).toEqual([' {', '-  "n": 1', '+  "n": 2,', '+  "skip": [159]', ' }']);
    expect(kinds('same', 'same')).toEqual([' same']);
  });

  it('gives up on a middle too long to compare, and not on a small edit of a long text', () => {
    const long = Array.from({ length: 5000 }, (_, n) => `line ${n}`);
    expect(lineDiff(long.join('\n'), long.map((line) => `${line}!`).join('\n'))).toBeNull();
    const edited = [...long];
    edited[2500] = 'changed';
    expect(lineDiff(long.join('\n'), edited.join('\n'))?.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'line 2500' },
      { kind: 'added', text: 'changed' },
    ]);
  });
});
