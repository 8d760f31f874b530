import type { FindQuery } from '../shapes/find';

/**
 * The text a search looks for as the TypeScript side matches it (yii2's
 * decoded messages, and every layout's snippet highlight): its UTF-8 bytes,
 * and whether ASCII letters match in either case. The Lua side folds the
 * same way (lua/includes/find.lua), so what Redis found is what is shown.
 */
export interface FindNeedle {
  readonly bytes: Buffer;
  readonly ignoreCase: boolean;
}

export function needleOf(query: Pick<FindQuery, 'text' | 'ignoreCase'>): FindNeedle {
  return { bytes: Buffer.from(query.text, 'utf8'), ignoreCase: query.ignoreCase };
}

const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const CASE_BIT = 0x20;

const isUpperAscii = (byte: number) => byte >= UPPER_A && byte <= UPPER_Z;
const isLowerAscii = (byte: number) => byte >= LOWER_A && byte <= LOWER_Z;

/** `byte` in lower case when it is an ASCII capital; any other byte (a UTF-8 letter's bytes too) as it is. */
const foldByte = (byte: number) => (isUpperAscii(byte) ? byte | CASE_BIT : byte);

/** `bytes` with each ASCII letter in `letterCase`, every other byte as it is. */
export function asciiCased(bytes: Buffer, letterCase: 'lower' | 'upper'): Buffer {
  return Buffer.from(bytes.map((byte) => (letterCase === 'lower' ? foldByte(byte) : isLowerAscii(byte) ? byte & ~CASE_BIT : byte)));
}

/**
 * Where `needle` first is in `haystack`, -1 when it is not. Under ignoreCase
 * only ASCII letters are folded, byte by byte in place: a message of 64 KiB
 * is not copied to be lower-cased.
 */
export function indexOfNeedle(haystack: Buffer, needle: FindNeedle): number {
  if (!needle.ignoreCase) return haystack.indexOf(needle.bytes);
  const folded = needle.bytes.map(foldByte);
  const last = haystack.length - folded.length;
  const first = folded[0];
  if (first === undefined) return 0;
  candidates: for (let at = 0; at <= last; at++) {
    if (foldByte(haystack[at]!) !== first) continue;
    for (let offset = 1; offset < folded.length; offset++) {
      if (foldByte(haystack[at + offset]!) !== folded[offset]) continue candidates;
    }
    return at;
  }
  return -1;
}
