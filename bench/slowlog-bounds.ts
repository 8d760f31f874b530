/** The largest batch QueueLens reads in one command (a SCAN COUNT, a range). */
const MAX_BATCH = 1000;

/** Commands whose cost does not grow with the key they read (a job hash has a fixed set of fields; INFO sections are fixed). */
const CONSTANT_COST = new Set(['get', 'hget', 'hmget', 'hexists', 'hlen', 'exists', 'type', 'zscore', 'zcard', 'xlen', 'scard', 'llen', 'sismember', 'time', 'ping', 'echo', 'select', 'info']);

/**
 * What bounds a command SLOWLOG logged, or null when nothing visible does.
 * On this shared machine the kernel can pause redis-server in the middle of
 * a command that costs microseconds (an HMGET of one hash) long enough to
 * cross 5 ms, and SLOWLOG measures wall time: such an entry is the machine's
 * load, not the command's cost (INFO commandstats shows what they really
 * cost). An entry this returns null for is one to look into.
 */
export function boundOf(args: readonly string[]): string | null {
  const [name = '', ...rest] = args.map((arg) => arg.toLowerCase());
  const upTo = (count: number, what: string) => (count <= MAX_BATCH ? what : null);
  const countAfter = (word: string, distance = 1) => {
    const at = rest.lastIndexOf(word);
    return at >= 0 ? Number(rest[at + distance]) : NaN;
  };
  if (CONSTANT_COST.has(name)) return 'constant cost';
  switch (name) {
    case 'zcount':
      return 'O(log n)';
    case 'scan':
    case 'sscan':
    case 'hscan':
    case 'zscan':
      return upTo(countAfter('count'), `COUNT ${countAfter('count')}`);
    case 'xrange':
    case 'xrevrange':
      // [key, start, end, COUNT n]: start and end the same id is a lookup of one entry.
      if (rest[1] !== undefined && rest[1] === rest[2]) return 'one entry';
      return upTo(countAfter('count'), `COUNT ${countAfter('count')}`);
    case 'zrangebyscore':
    case 'zrevrangebyscore':
      // LIMIT offset count
      return upTo(countAfter('limit', 2), `LIMIT ${countAfter('limit', 2)}`);
    case 'zrange':
    case 'zrevrange': {
      if (rest.includes('byscore') || rest.includes('bylex')) return upTo(countAfter('limit', 2), `LIMIT ${countAfter('limit', 2)}`);
      const [start, stop] = [Number(rest[1]), Number(rest[2])];
      return start >= 0 && stop >= start ? upTo(stop - start + 1, `${stop - start + 1} ranks`) : null;
    }
    case 'xpending':
      // [key, group] is the summary; [key, group, start, end, count] a page.
      return rest.length === 2 ? 'summary' : upTo(Number(rest[4]), `COUNT ${rest[4]}`);
    default:
      return null;
  }
}
