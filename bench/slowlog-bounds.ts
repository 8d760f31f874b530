import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expandIncludes } from '../lib/redis/lua-script';

/** The largest batch QueueLens reads in one command (a SCAN COUNT, a range). */
const MAX_BATCH = 1000;

/** The SHA EVALSHA names a script of lua/ by, as ioredis computes it. */
function shaOf(file: string): string {
  const lua = expandIncludes(readFileSync(new URL(`../lua/${file}`, import.meta.url), 'utf8'));
  return createHash('sha1').update(lua).digest('hex');
}

/** SLOWLOG keeps 32 arguments and says how many more there were. */
function argumentCount(args: readonly string[]): number {
  const more = /^\.\.\. \((\d+) more arguments\)$/.exec(args.at(-1) ?? '');
  return more ? args.length - 1 + Number(more[1]) : args.length;
}

/**
 * QueueLens' read scripts, by SHA, and what bounds a call of each, from its
 * arguments after `EVALSHA sha 1 key` (their contract blocks in lua/).
 */
const READ_SCRIPTS = new Map<string, (argv: readonly string[], argc: number) => string | null>([
  // prefix, queue, start, count, limit
  [shaOf('read-failed-of-queue-1.lua'), (argv) => (Number(argv[3]) <= MAX_BATCH ? `${argv[3]} failed ids` : null)],
  // prefix, group, then the queue names: a few commands per queue and two per level stream of each
  [shaOf('read-counts-1.lua'), (_argv, argc) => (argc - 2 <= MAX_BATCH ? `${argc - 2} queues' counts` : null)],
  // prefix, group, wait seconds, held ms, held per stream, then the queue names: a few commands per queue and three per level stream of each
  [shaOf('read-queue-figures-1.lua'), (_argv, argc) => (argc - 5 <= MAX_BATCH ? `${argc - 5} queues' counts and waiting figures` : null)],
  // prefix, since, limit, bytes kept
  [shaOf('read-recent-failures-1.lua'), (argv) => (Number(argv[2]) <= MAX_BATCH ? `${argv[2]} recent failures` : null)],
  // prefix, now, ids per queue, field count n, n fields, then the queue names
  [
    shaOf('read-parked-1.lua'),
    (argv, argc) => {
      const ids = Number(argv[2]) * (argc - 4 - Number(argv[3]));
      return ids <= MAX_BATCH ? `${ids} delayed ids` : null;
    },
  ],
  // prefix, field count n, n fields, then a triple per entry
  [
    shaOf('read-reservation-jobs-1.lua'),
    (argv, argc) => {
      const entries = (argc - 2 - Number(argv[1])) / 3;
      return entries <= MAX_BATCH ? `${entries} entries` : null;
    },
  ],
]);

/** Commands whose cost does not grow with the key they read (a job hash has a fixed set of fields; INFO sections are fixed). */
const CONSTANT_COST = new Set([
  'get',
  'hget',
  'hmget',
  'hexists',
  'hlen',
  'exists',
  'type',
  'zscore',
  'zcard',
  'xlen',
  'scard',
  'llen',
  'sismember',
  'time',
  'ping',
  'echo',
  'select',
  'info',
]);

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
    case 'evalsha':
      return READ_SCRIPTS.get(rest[0] ?? '')?.(args.slice(4), argumentCount(args) - 4) ?? null;
    case 'xpending':
      // [key, group] is the summary; [key, group, start, end, count] a page.
      return rest.length === 2 ? 'summary' : upTo(Number(rest[4]), `COUNT ${rest[4]}`);
    default:
      return null;
  }
}
