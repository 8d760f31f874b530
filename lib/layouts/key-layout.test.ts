import { describe, expect, it } from 'vitest';
import { QueueError } from '../redis/errors';
import { testQueueFactory } from './staticphp/test-redis';
import { readKeyContents, type KeyContents } from './key-layout';

const openQueue = testQueueFactory();

describe('readKeyContents', () => {
  async function allPages(read: (cursor: string) => Promise<KeyContents>): Promise<KeyContents[]> {
    const pages: KeyContents[] = [];
    let cursor = '';
    for (let guard = 0; guard < 100; guard++) {
      const page = await read(cursor);
      pages.push(page);
      if (page.next === null) return pages;
      cursor = page.next;
    }
    throw new Error('the pager never ended');
  }

  it('pages a sorted set by rank with scores', async () => {
    const queue = await openQueue();
    const key = queue.keys.delayed('mail');
    await queue.redis.zadd(key, ...Array.from({ length: 25 }, (_, i) => [i * 10, `m${String(i).padStart(2, '0')}`]).flat());
    const pages = await allPages((cursor) => readKeyContents(queue, key, cursor, 10));
    expect(pages.map((page) => (page.type === 'zset' ? page.entries.length : -1))).toEqual([10, 10, 5]);
    const first = pages[0]!;
    expect(first).toMatchObject({ type: 'zset', size: 25, cursor: '', next: '10' });
    if (first.type === 'zset') expect(first.entries[1]).toEqual({ member: { text: 'm01', bytes: 3, truncated: false }, score: '10' });
  });

  it('pages a set and a hash by SCAN cursor, every member once or more, each page bounded', async () => {
    const queue = await openQueue();
    const set = `${queue.keys.prefix}some-set`;
    const hash = queue.keys.job(1);
    // Large enough to be a real hash table, so SCAN pages instead of answering all at once.
    await queue.redis.sadd(set, ...Array.from({ length: 600 }, (_, i) => `s${i}`));
    await queue.redis.hset(hash, Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f${i}`, `v${i}`])));

    const setPages = await allPages((cursor) => readKeyContents(queue, set, cursor, 50));
    expect(setPages.length).toBeGreaterThan(1);
    const members = new Set(setPages.flatMap((page) => (page.type === 'set' ? page.members.map((member) => member.text) : [])));
    expect(members.size).toBe(600);
    for (const page of setPages) if (page.type === 'set') expect(page.members.length).toBeLessThan(200);

    const hashPages = await allPages((cursor) => readKeyContents(queue, hash, cursor, 50));
    expect(hashPages.length).toBeGreaterThan(1);
    const fields = new Map(hashPages.flatMap((page) => (page.type === 'hash' ? page.fields.map((f) => [f.name.text, f.value.text] as const) : [])));
    expect(fields.size).toBe(600);
    expect(fields.get('f7')).toBe('v7');
  });

  it('pages a stream from an entry id, without skipping or repeating', async () => {
    const queue = await openQueue();
    const ids = await queue.pushMany(Array.from({ length: 23 }, () => ({ queue: 'mail', name: 'x', payload: {} })));
    const key = queue.keys.stream('mail', 0);
    const pages = await allPages((cursor) => readKeyContents(queue, key, cursor, 10));
    expect(pages).toHaveLength(3);
    const jobs = pages.flatMap((page) => (page.type === 'stream' ? page.entries.map((entry) => entry.fields) : []));
    expect(jobs.map((fields) => [fields[0]!.name.text, Number(fields[0]!.value.text)])).toEqual(ids.map((id) => ['job', id]));
    expect(pages[1]!.cursor).toMatch(/^\d+-\d+$/);
  });

  it('shows a string’s first 64 KiB and a list by index, with non-UTF-8 bytes as escapes', async () => {
    const queue = await openQueue();
    const big = `${queue.keys.prefix}big`;
    await queue.redis.set(big, Buffer.concat([Buffer.from([0xff, 0x41]), Buffer.alloc(70_000, 0x61)]));
    const string = await readKeyContents(queue, big);
    expect(string.type).toBe('string');
    if (string.type === 'string') {
      expect(string.value).toMatchObject({ bytes: 70_002, truncated: true });
      expect(string.value.text.startsWith('\\xFFAaaa')).toBe(true);
      expect(string.value.text.length).toBe(64 * 1024 + 3);
    }
    const list = `${queue.keys.prefix}list`;
    await queue.redis.rpush(list, ...Array.from({ length: 12 }, (_, i) => `i${i}`));
    const pages = await allPages((cursor) => readKeyContents(queue, list, cursor, 5));
    expect(pages.flatMap((page) => (page.type === 'list' ? page.items.map((item) => item.text) : []))).toEqual(Array.from({ length: 12 }, (_, i) => `i${i}`));
  });

  it('answers for a key that is gone, and refuses keys outside the prefix and bad cursors', async () => {
    const queue = await openQueue();
    expect(await readKeyContents(queue, `${queue.keys.prefix}nothing`)).toMatchObject({ type: 'none', size: null, next: null });
    const outside = `elsewhere:${queue.keys.prefix}`;
    await queue.redis.set(outside, 'secret');
    try {
      await expect(readKeyContents(queue, outside)).rejects.toThrow(QueueError);
      await expect(readKeyContents(queue, outside)).rejects.toThrow(/Only keys under the prefix/);
      await expect(readKeyContents(queue, outside)).rejects.toMatchObject({ invalidRequest: true });
      await expect(readKeyContents(queue, queue.keys.prefix)).rejects.toThrow(QueueError);
      await queue.redis.zadd(queue.keys.failed, 1, '1');
      await expect(readKeyContents(queue, queue.keys.failed, '-3')).rejects.toThrow(/not a page offset/);
      await queue.redis.sadd(queue.keys.queues, 'a');
      await expect(readKeyContents(queue, queue.keys.queues, 'abc')).rejects.toThrow(/not a SCAN cursor/);
    } finally {
      await queue.redis.del(outside);
    }
  });
});
