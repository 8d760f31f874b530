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
