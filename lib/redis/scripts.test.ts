import { describe, expect, it } from 'vitest';
import { formatUtcSeconds } from '../layouts/dates';
import { expandIncludes } from './lua-script';
import { testQueueFactory } from '../layouts/staticphp/test-redis';

const openQueue = testQueueFactory();

describe('lua/includes/server-time.lua', () => {
  it('formats unix seconds as Y-m-d H:i:s in UTC like the PHP driver, leap days and centuries included', async () => {
    const { redis } = await openQueue();
    const format = expandIncludes(
      'local rcall = redis.call\n-- @include server-time\nlocal out = {}\nfor i = 1, #ARGV do out[i] = formatUtc(tonumber(ARGV[i])) end\nreturn out',
    );
    const samples = [
      0,
      951782399,
      951782400,
      951868800,
      1709164800,
      1709251199,
      4107542400,
      4102444799,
      1785649677,
      ...Array.from({ length: 500 }, () => Math.floor(Math.random() * 6_000_000_000)),
    ];
    expect(await redis.eval(format, 0, ...samples)).toEqual(samples.map(formatUtcSeconds));
  });
});
