import { describe, expect, it } from 'vitest';
import { readKeyContents } from '../key-layout';
import { QueueError } from '../../redis/errors';
import type { RedisQueue } from './redis-queue';
import { testQueueFactory } from './test-redis';
import type { LayoutCensusStep } from '../pages';
import { specKeyOf, staticphpKeyTable } from './key-table';

const openQueue = testQueueFactory();

/** Every step of a census from the start, `scanKeys` keys a step. */
async function census(queue: RedisQueue, scanKeys: number): Promise<LayoutCensusStep[]> {
  const reader = staticphpKeyTable(queue, { censusScanKeys: scanKeys });
  const steps: LayoutCensusStep[] = [];
  let cursor = '0';
  do {
    const step = await reader.censusStep(cursor);
    steps.push(step);
    cursor = step.cursor;
  } while (!steps.at(-1)!.done && steps.length < 100_000);
  return steps;
}

const tally = (steps: readonly LayoutCensusStep[], label: string) => steps.reduce((total, step) => total + (step.tallies[label] ?? 0), 0);

describe('staticphpKeyTable read', () => {
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

    const layout = await staticphpKeyTable(queue).read();

    expect(layout.keys.map((row) => row.key)).toEqual([
      k.queues,
      k.seq,
      k.failed,
      k.levels('mail'),
      k.delayed('mail'),
      k.stream('mail', 5),
      k.stream('mail', 0),
      k.levels('reports'),
      k.delayed('reports'),
      k.stream('reports', -2),
    ]);
    const byKey = new Map(layout.keys.map((row) => [row.key, row]));
    expect(byKey.get(k.queues)).toMatchObject({
      type: 'set',
      expectedType: 'set',
      size: 2,
      mismatch: false,
      ttlSeconds: null,
      holds: 'queue names',
      queue: null,
    });
    expect(byKey.get(k.queues)).not.toHaveProperty('group');
    expect(byKey.get(k.seq)).toMatchObject({ type: 'string', size: 1 });
    expect(byKey.get(k.failed)).toMatchObject({ type: 'zset', size: 1 });
    expect(byKey.get(k.levels('mail'))).toMatchObject({ type: 'zset', size: 2, queue: 'mail' });
    expect(byKey.get(k.delayed('mail'))).toMatchObject({ type: 'zset', size: 1 });
    // The reports queue never had a delayed job: the key is absent, which is not a mismatch.
    expect(byKey.get(k.delayed('reports'))).toMatchObject({ type: 'none', size: null, memoryBytes: null, mismatch: false });
    const level0 = byKey.get(k.stream('mail', 0))!;
    expect(level0).toMatchObject({ type: 'stream', holds: 'ready ids, level 0', size: 3, group: { pending: 1, lastDeliveredId: held.entry } });
    expect(level0.memoryBytes).toBeGreaterThan(0);
    // Failing acknowledged and deleted the entry; the group stays.
    expect(byKey.get(k.stream('reports', -2))).toMatchObject({ size: 0, group: { pending: 0 } });
    expect(layout).toMatchObject({ cut: null, mismatches: 0, ttlWrong: 0, consumerGroup: 'workers', censusScope: `${k.prefix}*` });
    expect(layout.scope).toBe(`prefix ${k.prefix}, consumer group workers; 2 queues`);
  });

  it('says when a stream has no consumer group yet, and never creates one', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    const layout = await staticphpKeyTable(queue).read();
    expect(layout.keys.find((row) => row.expectedType === 'stream')).toMatchObject({ size: 1, group: null });
    expect(await queue.redis.xinfo('GROUPS', queue.keys.stream('mail', 0))).toEqual([]);
  });

  it('flags a key of the wrong type and a key with a TTL, and still reads the rest', async () => {
    const queue = await openQueue();
    const k = queue.keys;
    await queue.push('mail', 'a', {});
    await queue.redis.set(k.delayed('mail'), 'not a sorted set');
    await queue.redis.expire(k.levels('mail'), 3600);

    const layout = await staticphpKeyTable(queue).read();

    const byKey = new Map(layout.keys.map((row) => [row.key, row]));
    expect(byKey.get(k.delayed('mail'))).toMatchObject({ type: 'string', expectedType: 'zset', mismatch: true, size: 16 });
    const levels = byKey.get(k.levels('mail'))!;
    expect(levels).toMatchObject({ mismatch: false, expires: false, ttlWrong: true });
    expect(levels.ttlSeconds).toBeGreaterThan(3500);
    expect(byKey.get(k.stream('mail', 0))).toMatchObject({ type: 'stream', size: 1 });
    expect(layout).toMatchObject({ mismatches: 1, ttlWrong: 1 });
  });

  it('flags a queues key of the wrong type and lists no queue from it', async () => {
    const queue = await openQueue();
    await queue.redis.set(queue.keys.queues, 'mail');
    const layout = await staticphpKeyTable(queue).read();
    expect(layout.keys.map((row) => row.key)).toEqual([queue.keys.queues, queue.keys.seq, queue.keys.failed]);
    expect(layout.keys[0]).toMatchObject({ type: 'string', mismatch: true, size: 4 });
    expect(layout).toMatchObject({ mismatches: 1 });
    expect(layout.scope).toMatch(/; 0 queues$/);
  });

  it('reads at most the queue and level limits, and says what it cut', async () => {
    const queue = await openQueue();
    await queue.pushMany(['a', 'b', 'c'].flatMap((name) => [0, 1, 2].map((priority) => ({ queue: name, name: 'x', payload: {}, options: { priority } }))));
    const layout = await staticphpKeyTable(queue, { queueLimit: 2, levelLimit: 2 }).read();
    expect(layout.scope).toMatch(/; 3 queues$/);
    expect(layout.cut).toBe('Only the first 2 of 3 queues, by name, are listed. Only the highest levels of 2 queues with many levels are listed.');
    // The highest levels, the ones reserve takes from first.
    expect(layout.keys.filter((row) => row.expectedType === 'stream').map((row) => row.holds)).toEqual([
      'ready ids, level 2',
      'ready ids, level 1',
      'ready ids, level 2',
      'ready ids, level 1',
    ]);
  });

  it('opens a key under the prefix and refuses any other', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    const reader = staticphpKeyTable(queue);
    expect(await reader.contents(queue.keys.queues, '')).toMatchObject({ type: 'set', members: [{ text: 'mail' }] });
    await expect(reader.contents('elsewhere:queues', '')).rejects.toMatchObject({
      invalidRequest: true,
      message: expect.stringMatching(/Only keys under the prefix/),
    });
  });
});

describe('staticphpKeyTable censusStep', () => {
  it('counts jobs and unique keys and lists strangers across several SCAN steps', async () => {
    const queue = await openQueue();
    const p = queue.keys.prefix;
    for (let i = 0; i < 30; i++) await queue.push('mail', 'x', {}, { uniqueKey: i % 3 === 0 ? `u${i}` : '' });
    await queue.redis.set(`${p}stranger:one`, 'x');
    await queue.redis.hset(`${p}j:abc`, 'a', '1');
    await queue.redis.rpush(`${p}legacy-list`, 'x');
    await queue.redis.set(queue.keys.job(999), 'a string, not a hash');

    // 5 keys a step over a shared server: many short steps, each bounded.
    const steps = await census(queue, 5);

    expect(steps.length).toBeGreaterThan(1);
    // SCAN may repeat a key; with nothing changing meanwhile on a small set it does not here.
    expect(tally(steps, 'Job hashes')).toBe(30);
    expect(tally(steps, 'Unique keys')).toBe(10);
    // queues, seq, levels, stream
    expect(tally(steps, 'Queue structures')).toBe(4);
    expect(steps.flatMap((step) => step.strangers).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: `${p}j:abc`, type: 'hash' },
      { key: `${p}legacy-list`, type: 'list' },
      { key: `${p}stranger:one`, type: 'string' },
    ]);
    expect(steps.reduce((total, step) => total + step.strangerCount, 0)).toBe(3);
    expect(steps.flatMap((step) => step.wrongType)).toEqual([{ key: queue.keys.job(999), type: 'string' }]);
    expect(steps[0]!.dbSize).toBeGreaterThanOrEqual(48);
    expect(Object.keys(steps[0]!.tallies)).toEqual(['Job hashes', 'Unique keys', 'Queue structures']);
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
    const reader = staticphpKeyTable(await openQueue());
    await expect(reader.censusStep('12; FLUSHALL')).rejects.toThrow(QueueError);
    await expect(reader.censusStep('0-18446744073709551616')).rejects.toMatchObject({ invalidRequest: true });
    await expect(reader.censusStep('99999999999999999999')).rejects.toMatchObject({ invalidRequest: true });
  });

  it('counts the keys of a queue whose name holds a newline as the driver’s, and lists a key whose name is not UTF-8 so that it can be opened', async () => {
    const queue = await openQueue();
    const p = queue.keys.prefix;
    await queue.push('two\nlines', 'x', {});
    const odd = Buffer.concat([Buffer.from(`${p}bytes:`), Buffer.from([0xff, 0xfe, 0x41])]);
    await queue.redis.set(odd, 'kept');
    const steps = await census(queue, 50);
    // queues, seq, the queue's levels and stream; the job; and the one stranger
    expect(tally(steps, 'Queue structures')).toBe(4);
    const strangers = steps.flatMap((step) => step.strangers);
    expect(strangers).toEqual([{ key: `${p}bytes:\\xFF\\xFEA`, raw: odd.toString('base64url'), type: 'string' }]);
    const opened = await staticphpKeyTable(queue).contents(Buffer.from(strangers[0]!.raw!, 'base64url'), '');
    expect(opened).toMatchObject({ type: 'string', key: `${p}bytes:\\xFF\\xFEA`, raw: odd.toString('base64url'), value: { text: 'kept' } });
    await expect(readKeyContents(queue, Buffer.from([0xff, 0x3a]))).rejects.toMatchObject({
      invalidRequest: true,
      message: expect.stringMatching(/Only keys under the prefix/),
    });
  });
});
