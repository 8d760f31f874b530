/** Stream entry ids (`{ms}-{seq}`): the ms part is when the entry was added, by the Redis server's clock. */

/** The ms an entry id `1785649677469-0` was added at; NaN for something that is not an id. */
export function streamIdMs(id: string): number {
  return Number(id.split('-', 1)[0]);
}

/** Orders two stream ids (`{ms}-{seq}`) as Redis does: negative when `a` is older than `b`, 0 when they are the same. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs = '0', aSeq = '0'] = a.split('-');
  const [bMs = '0', bSeq = '0'] = b.split('-');
  // BigInt: both parts are unsigned 64-bit numbers, past what a double holds exactly.
  const difference = BigInt(aMs) - BigInt(bMs) || BigInt(aSeq) - BigInt(bSeq);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

const UINT64_MAX = 2n ** 64n - 1n;

/** Whether `text` is an unsigned 64-bit whole number as Redis writes one (SCAN cursors, the parts of an entry id). */
export function isUint64(text: string): boolean {
  return /^\d{1,20}$/.test(text) && BigInt(text) <= UINT64_MAX;
}

/** Whether `text` is a stream entry id `{ms}-{seq}` that Redis accepts. */
export function isStreamId(text: string): boolean {
  const [ms, seq, ...rest] = text.split('-');
  return rest.length === 0 && ms !== undefined && seq !== undefined && isUint64(ms) && isUint64(seq);
}

/** Whether `text` is a cursor SCAN accepts: an unsigned 64-bit whole number (Redis answers "invalid cursor" past it). */
export function isScanCursor(text: string): boolean {
  return isUint64(text);
}
