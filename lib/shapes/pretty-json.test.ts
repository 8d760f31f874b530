import { describe, expect, it } from 'vitest';
import { prettyJson } from './pretty-json';

describe('prettyJson', () => {
  it('indents objects and arrays, keeping values exactly as stored', () => {
    expect(prettyJson('{"id":12345678901234567890,"to":["a","b"],"e":{},"l":[ ],"s":"x, y: {z}","u":"\\u00e9\\""}')).toBe(
      [
        '{',
        '  "id": 12345678901234567890,',
        '  "to": [',
        '    "a",',
        '    "b"',
        '  ],',
        '  "e": {},',
        '  "l": [],',
        '  "s": "x, y: {z}",',
        '  "u": "\\u00e9\\""',
        '}',
      ].join('\n'),
    );
    expect(prettyJson('42')).toBe('42');
    expect(prettyJson('[]')).toBe('[]');
  });

  it('answers null for text that is not JSON', () => {
    expect(prettyJson('{"unterminated')).toBeNull();
    expect(prettyJson('')).toBeNull();
  });
});
