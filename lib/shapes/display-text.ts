/**
 * Job data is bytes written by somebody else's code: these turn a value read
 * as a Buffer into text fit to show, without mojibake and without loading a
 * 10 MB value into a page.
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Length of the valid UTF-8 sequence starting at `index`, or 0 when the byte there starts none. */
function validSequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  if (lead < 0x80) return 1;
  let length: number;
  let min = 0x80;
  let max = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) min = 0xa0; // overlong
    if (lead === 0xed) max = 0x9f; // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) min = 0x90; // overlong
    if (lead === 0xf4) max = 0x8f; // past U+10FFFF
  } else return 0;
  for (let offset = 1; offset < length; offset++) {
    const byte = bytes[index + offset];
    if (byte === undefined) return 0;
    if (offset === 1 ? byte < min || byte > max : byte < 0x80 || byte > 0xbf) return 0;
  }
  return length;
}

/** UTF-8 text as is; each byte that is not part of valid UTF-8 as a `\xNN` escape. */
export function bytesToText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let text = '';
    let runStart = 0;
    let index = 0;
    while (index < bytes.length) {
      const length = validSequenceLength(bytes, index);
      if (length > 0) {
        index += length;
        continue;
      }
      text += strictUtf8.decode(bytes.subarray(runStart, index)) + `\\x${bytes[index]!.toString(16).toUpperCase().padStart(2, '0')}`;
      index += 1;
      runStart = index;
    }
    return text + strictUtf8.decode(bytes.subarray(runStart));
  }
}

export interface DisplayValue {
  /** the text to show, cut at the display limit */
  text: string;
  /** the stored value's size */
  bytes: number;
  /** true when `text` is only the beginning of the value */
  truncated: boolean;
}

/** Values larger than this are shown cut, with a way to download the whole. */
export const DISPLAY_LIMIT_BYTES = 64 * 1024;

/** A stored value as text to show: the first DISPLAY_LIMIT_BYTES of it at most. */
export function toDisplayValue(bytes: Uint8Array, limit = DISPLAY_LIMIT_BYTES): DisplayValue {
  return displayValueOf(bytes.length > limit ? bytes.subarray(0, limit) : bytes, bytes.length);
}

/**
 * A value of which only the first bytes were read (lua/shared/read-job-1.lua cuts
 * it inside Redis), as text to show, with the stored length `bytes`.
 */
export function displayValueOf(prefix: Uint8Array, bytes: number): DisplayValue {
  // Cutting may split a character; bytesToText then shows the torn bytes as escapes.
  return { text: bytesToText(prefix), bytes, truncated: bytes > prefix.length };
}
