import { describe, expect, it } from 'vitest';
import { QueueError } from '../queue/errors';
import { testQueueFactory } from '../queue/test-redis';
import { censusStep, readKeyContents, readKeyLayout, specKeyOf, type CensusStep, type KeyContents } from './key-layout';

const openQueue = testQueueFactory();

describe('readKeyLayout', () => {
  it('lists the spec’s keys of a queue the driver wrote, with types, sizes and the consumer group', async () => {
    const queue = await openQueue();
    const k = queue.keys;
    await queue.pushMany([0, 0, 0, 5].map((priority, index) => ({ queue: 'mail', name: `n${index}`, payload: {}, options: { priority } })));
    await queue.push('mail', 'later', {}, { delaySeconds: 600 });
    await queue.push('reports', 'r', {}, { priority: -2 });
    // Takes the level-5 job, then one from level 0: level 0's group delivered 1.
    await queue.reserve(['mail'], 'w:1', 60);
    const held = (await queue.reserve(['mail'], 'w:1', 60))!;
    await queue.fail((await queue.reserve(['reports'], 'w:1', 60))!, 'no');

    const layout = await readKeyLayout(queue);

    expect(layout.keys.map((view) => view.key)).toEqual([
      k.queues, k.seq, k.failed,
      k.levels('mail'), k.delayed('mail'), k.stream('mail', 5), k.stream('mail', 0),
      k.levels('reports'), k.delayed('reports'), k.stream('reports', -2),
    ]);
    const byKey = new Map(layout.keys.map((view) => [view.key, view]));
    expect(byKey.get(k.queues)).toMatchObject({ type: 'set', expectedType: 'set', size: 2, mismatch: false, ttlSeconds: null });
    expect(byKey.get(k.seq)).toMatchObject({ type: 'string', size: 1 });
    expect(byKey.get(k.failed)).toMatchObject({ type: 'zset', size: 1 });
    expect(byKey.get(k.levels('mail'))).toMatchObject({ type: 'zset', size: 2, queue: 'mail' });
    expect(byKey.get(k.delayed('mail'))).toMatchObject({ type: 'zset', size: 1 });
    // The reports queue never had a delayed job: the key is absent, which is not a mismatch.
    expect(byKey.get(k.delayed('reports'))).toMatchObject({ type: 'none', size: null, memoryBytes: null, mismatch: false });
    const level0 = byKey.get(k.stream('mail', 0))!;
    expect(level0).toMatchObject({ type: 'stream', level: '0', size: 3, group: { pending: 1, lastDeliveredId: held.entry } });
    expect(level0.memoryBytes).toBeGreaterThan(0);
    // Failing acknowledged and deleted the entry; the group stays.
    expect(byKey.get(k.stream('reports', -2))).toMatchObject({ size: 0, group: { pending: 0 } });
    expect(layout).toMatchObject({ queueCount: 2, queuesShown: 2, levelsCut: [], mismatches: 0, withTtl: 0, group: 'workers' });
  });

  it('says when a stream has no consumer group yet, and never creates one', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    const layout = await readKeyLayout(queue);
    expect(layout.keys.find((view) => view.role === 'stream')).toMatchObject({ size: 1, group: null });
    expect(await queue.redis.xinfo('GROUPS', queue.keys.stream('mail', 0))).toEqual([]);
  });

  it('flags a key of the wrong type and a key with a TTL, and still reads the rest', async () => {
    const queue = await openQueue();
    const k = queue.keys;
    await queue.push('mail', 'a', {});
    await queue.redis.set(k.delayed('mail'), 'not a sorted set');
    await queue.redis.expire(k.levels('mail'), 3600);

    const layout = await readKeyLayout(queue);

    const byKey = new Map(layout.keys.map((view) => [view.key, view]));
    expect(byKey.get(k.delayed('mail'))).toMatchObject({ type: 'string', expectedType: 'zset', mismatch: true, size: 16 });
    const levels = byKey.get(k.levels('mail'))!;
    expect(levels.mismatch).toBe(false);
    expect(levels.ttlSeconds).toBeGreaterThan(3500);
    expect(byKey.get(k.stream('mail', 0))).toMatchObject({ type: 'stream', size: 1 });
    expect(layout).toMatchObject({ mismatches: 1, withTtl: 1 });
  });

  it('flags a queues key of the wrong type and lists no queue from it', async () => {
    const queue = await openQueue();
    await queue.redis.set(queue.keys.queues, 'mail');
    const layout = await readKeyLayout(queue);
    expect(layout.keys.map((view) => view.role)).toEqual(['queues', 'seq', 'failed']);
    expect(layout.keys[0]).toMatchObject({ type: 'string', mismatch: true, size: 4 });
    expect(layout).toMatchObject({ queueCount: 0, mismatches: 1 });
  });

  it('reads at most the queue and level limits, and says what it cut', async () => {
    const queue = await openQueue();
    await queue.pushMany(['a', 'b', 'c'].flatMap((name) => [0, 1, 2].map((priority) => ({ queue: name, name: 'x', payload: {}, options: { priority } }))));
    const layout = await readKeyLayout(queue, { queueLimit: 2, levelLimit: 2 });
    expect(layout).toMatchObject({ queueCount: 3, queuesShown: 2 });
    expect(layout.levelsCut).toHaveLength(2);
    // The highest levels, the ones reserve takes from first.
    expect(layout.keys.filter((view) => view.role === 'stream').map((view) => view.level)).toEqual(['2', '1', '2', '1']);
  });
});

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
    expect(pages.flatMap((page) => (page.type === 'list' ? page.items.map((item) => item.text) : []))).toEqual(
      Array.from({ length: 12 }, (_, i) => `i${i}`),
    );
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

describe('censusStep', () => {
  it('counts jobs and unique keys and lists strangers across several SCAN steps', async () => {
    const queue = await openQueue();
    const p = queue.keys.prefix;
    for (let i = 0; i < 30; i++) await queue.push('mail', 'x', {}, { uniqueKey: i % 3 === 0 ? `u${i}` : '' });
    await queue.redis.set(`${p}stranger:one`, 'x');
    await queue.redis.hset(`${p}j:abc`, 'a', '1');
    await queue.redis.rpush(`${p}legacy-list`, 'x');
    await queue.redis.set(queue.keys.job(999), 'a string, not a hash');

    const steps: CensusStep[] = [];
    let cursor = '0';
    do {
      // COUNT 5 over a shared server: many short steps, each bounded.
      const step = await censusStep(queue, cursor, 5);
      steps.push(step);
      cursor = step.cursor;
    } while (!steps.at(-1)!.done && steps.length < 100_000);

    expect(steps.length).toBeGreaterThan(1);
    const sum = (pick: (step: CensusStep) => number) => steps.reduce((total, step) => total + pick(step), 0);
    // SCAN may repeat a key; with nothing changing meanwhile on a small set it does not here.
    expect(sum((step) => step.jobs)).toBe(30);
    expect(sum((step) => step.uniques)).toBe(10);
    // queues, seq, levels, stream
    expect(sum((step) => step.structural)).toBe(4);
    expect(steps.flatMap((step) => step.strangers).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: `${p}j:abc`, raw: null, type: 'hash' },
      { key: `${p}legacy-list`, raw: null, type: 'list' },
      { key: `${p}stranger:one`, raw: null, type: 'string' },
    ]);
    expect(sum((step) => step.strangerCount)).toBe(3);
    expect(steps.flatMap((step) => step.wrongType)).toEqual([{ key: queue.keys.job(999), raw: null, type: 'string' }]);
    expect(steps[0]!.dbSize).toBeGreaterThanOrEqual(48);
  });

  it('knows the spec’s key list, queue names with colons included', () => {
    expect(specKeyOf('q:a:b:s:-3')).toMatchObject({ type: 'stream' });
    expect(specKeyOf('q:a:b:levels')).toMatchObject({ type: 'zset' });
    expect(specKeyOf('q:a\nb:levels')).toMatchObject({ type: 'zset' });
    expect(specKeyOf('q:a\nb:delayed')).toMatchObject({ type: 'zset' });
    expect(specKeyOf('q:a\nb:s:0')).toMatchObject({ type: 'stream' });
    expect(specKeyOf('u:any key:at all')).toMatchObject({ kind: 'unique' });
    expect(specKeyOf('j:0')).toBeNull();
    expect(specKeyOf('queues:extra')).toBeNull();
    expect(specKeyOf('q:mail:s:x')).toBeNull();
  });

  it('refuses a cursor that is not one, as the request’s fault', async () => {
    const queue = await openQueue();
    await expect(censusStep(queue, '12; FLUSHALL')).rejects.toThrow(QueueError);
    await expect(censusStep(queue, '18446744073709551616')).rejects.toMatchObject({ invalidRequest: true });
  });

  it('counts the keys of a queue whose name holds a newline as the driver’s, and lists a key whose name is not UTF-8 so that it can be opened', async () => {
    const queue = await openQueue();
    const p = queue.keys.prefix;
    await queue.push('two\nlines', 'x', {});
    const odd = Buffer.concat([Buffer.from(`${p}bytes:`), Buffer.from([0xff, 0xfe, 0x41])]);
    await queue.redis.set(odd, 'kept');
    let cursor = '0';
    const steps: CensusStep[] = [];
    do {
      const step = await censusStep(queue, cursor, 50);
      steps.push(step);
      cursor = step.cursor;
    } while (!steps.at(-1)!.done);
    // queues, seq, the queue's levels and stream; the job; and the one stranger
    expect(steps.reduce((total, step) => total + step.structural, 0)).toBe(4);
    const strangers = steps.flatMap((step) => step.strangers);
    expect(strangers).toEqual([{ key: `${p}bytes:\\xFF\\xFEA`, raw: odd.toString('base64url'), type: 'string' }]);
    const opened = await readKeyContents(queue, Buffer.from(strangers[0]!.raw!, 'base64url'));
    expect(opened).toMatchObject({ type: 'string', key: `${p}bytes:\\xFF\\xFEA`, raw: odd.toString('base64url'), value: { text: 'kept' } });
    await expect(readKeyContents(queue, Buffer.from([0xff, 0x3a]))).rejects.toMatchObject({ invalidRequest: true, message: expect.stringMatching(/Only keys under the prefix/) });
  });
});
