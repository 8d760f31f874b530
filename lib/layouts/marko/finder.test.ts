import { describe, expect, it } from 'vitest';
import { CHUNKS_PER_STEP, FIND_JOBS_CHUNK, PARTS_READ_AT_ONCE } from '../find-steps';
import { onceAnswered, watchCommands } from '../../redis/test-commands';
import { everyMatchStep } from '../every-match';
import {
  actOnEveryMatch,
  expectIgnoreCaseRules,
  expectRangeRules,
  findAll,
  HOUR,
  NO_COUNTS,
  NOON,
  payloadQuery,
  statesById,
  type PlacedJob,
} from '../test-find';
import { base64CaseFoldedPatterns, base64Spellings } from './finder';
import { isAbsent, type QueueLayout } from '../adapter';
import type { JobFinder } from '../pages';
import { testMarkoFactory } from './test-layout';

function finderOf(layout: Pick<QueueLayout, 'finder'>): JobFinder {
  if (isAbsent(layout.finder)) throw new Error(layout.finder.absent);
  return layout.finder;
}

const openMarko = testMarkoFactory();

describe('Find on marko', () => {
  it('finds a job by a piece of its signed payload, decoded, in each state: ready, delayed, reserved and failed', async () => {
    const { layout, worker } = await openMarko();
    const job = (order: string) => ({ className: 'App\\Jobs\\Ship', data: { order } });
    const reserved = await worker.push('ship', job('order-12345'));
    const failed = await worker.push('ship', job('order-12345'));
    const ready = await worker.push('ship', job('order-12345'));
    const delayed = await worker.later(3600, 'ship', job('order-12345'));
    await worker.push('ship', job('order-99'));
    expect((await worker.pop('ship'))!.id).toBe(reserved);
    expect((await worker.pop('ship'))!.id).toBe(failed);
    await worker.fail('ship', failed, 'RuntimeException: carrier refused order-12345');
    const finder = finderOf(layout);

    const { matches } = await findAll(finder, payloadQuery('order-12345'));
    expect(statesById(matches)).toEqual({ [ready]: 'ready', [reserved]: 'reserved', [delayed]: 'delayed', [failed]: 'failed' });
    for (const match of matches) {
      expect(match.name).toBe('App\\Jobs\\Ship');
      expect(match.snippet.match).toBe('order-12345');
      // The snippet is the decoded serialization, not its base64.
      expect(match.snippet.before).toMatch(/order";s:11:"$/);
    }
    const errors = await findAll(finder, { ...payloadQuery('carrier refused'), field: 'error' });
    expect(statesById(errors.matches)).toEqual({ [failed]: 'failed' });
    const names = await findAll(finder, { ...payloadQuery('App\\Jobs\\Ship'), field: 'name', states: ['delayed'] });
    expect(statesById(names.matches)).toEqual({ [delayed]: 'delayed' });
  });

  it('spells the text in base64 at each of its three alignments', () => {
    const serialized = Buffer.from('s:5:"order";s:11:"order-12345";');
    for (const lead of [0, 1, 2]) {
      const encoded = Buffer.from(Buffer.concat([Buffer.alloc(lead, 0x41), serialized]).toString('base64'));
      expect(base64Spellings(Buffer.from('order-12345')).some((spelling) => encoded.includes(spelling))).toBe(true);
    }
  });

  it('ignores the case of ASCII letters inside a signed payload’s base64 only when asked; an id stays exact', async () => {
    const { layout, worker } = await openMarko();
    const finder = finderOf(layout);
    await expectIgnoreCaseRules(finder, (text) => worker.push('ship', { className: 'App\\Jobs\\Ship', data: { note: text } }));
    const id = await worker.push('ship', { className: 'App\\Jobs\\Ship', data: { note: 'by id' } });
    const otherCase = id.toUpperCase();
    expect(otherCase).not.toBe(id);
    expect((await findAll(finder, { ...payloadQuery(otherCase, { ignoreCase: true }), field: 'id' })).matches).toEqual([]);
    expect((await findAll(finder, { ...payloadQuery(id, { ignoreCase: true }), field: 'id' })).matches.map((match) => match.id)).toEqual([id]);
  });

  it('spells the text in base64 with its letters in either case as Lua patterns: a class where the two casings differ', () => {
    const serialized = Buffer.from('s:5:"order";s:12:"Order ACME-42";');
    const patterns = base64CaseFoldedPatterns(Buffer.from('order acme-42'));
    // Each of the text's ASCII letters is one bit of its byte, and no base64 character holds that bit of two bytes.
    expect(patterns.every((pattern) => /^(?:[A-Za-z0-9/]|%\+|\[[A-Za-z0-9+/]{2}\])+$/.test(pattern))).toBe(true);
    for (const lead of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(lead, 0x41), serialized]).toString('base64');
      const asRegExp = (pattern: string) => new RegExp(pattern.replace(/%\+/g, '\\+'));
      expect(patterns.some((pattern) => asRegExp(pattern).test(encoded))).toBe(true);
    }
  });

  it('reads a bounded chunk of a ready list per step and resumes from the cursor', async () => {
    const { layout, worker } = await openMarko();
    const count = FIND_JOBS_CHUNK + 30;
    for (let i = 0; i < count; i++) await worker.push('bulk', { className: 'App\\Jobs\\Noise', data: { n: i === count - 1 ? 'last-one' : 'hay' } });
    const finder = finderOf(layout);
    const first = await finder.step(payloadQuery('last-one'), null);
    expect(first.looked).toBeLessThanOrEqual(FIND_JOBS_CHUNK);
    const { matches, looked } = await findAll(finder, payloadQuery('last-one'));
    expect(looked).toBe(count);
    expect(matches).toHaveLength(1);
  });

  it('removes every live match of a ready list read by offset, over more than one step: none skipped, each once; then forgets every failed one', async () => {
    const { layout, worker, keys, redis } = await openMarko();
    const job = (order: string) => ({ className: 'App\\Jobs\\Ship', data: { order } });
    // Two matches in three, so each chunk of the list read by offset loses most of its jobs before the next is read.
    const kept: string[] = [];
    for (let i = 0; i < 450; i++) {
      const id = await worker.push('bulk', job(i % 3 === 0 ? 'hay' : `bulk-order-${i}`));
      if (i % 3 === 0) kept.push(id);
    }
    for (let i = 0; i < 10; i++) await worker.later(3600, 'bulk', job(`bulk-order-d${i}`));
    const held = await worker.push('held', job('bulk-order-h'));
    expect((await worker.pop('held'))!.id).toBe(held);
    const failedIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = await worker.push('f', job(i < 5 ? `bulk-order-f${i}` : 'hay'));
      expect((await worker.pop('f'))!.id).toBe(id);
      await worker.fail('f', id, 'boom');
      if (i < 5) failedIds.push(id);
    }

    const removed = await actOnEveryMatch(layout, 'remove', payloadQuery('bulk-order-'));
    expect(removed).toMatchObject({ matched: 311, acted: 311, movedOn: 0, refused: 0 });
    expect(removed.steps).toBeGreaterThanOrEqual(2);
    expect((await redis.lrange(keys.ready('bulk'), 0, -1)).sort()).toEqual([...kept].sort());
    expect(await redis.zcard(keys.delayed('bulk'))).toBe(0);
    expect(await redis.zcard(keys.reserved('held'))).toBe(0);
    // The failed matches are not a remove's: all eight failed jobs are still there, and so is every job that did not match.
    expect(await redis.hlen(keys.failedJobs)).toBe(8);
    expect(statesById((await findAll(finderOf(layout), payloadQuery('hay'))).matches)).toEqual({
      ...Object.fromEntries(kept.map((id) => [id, 'ready'])),
      ...Object.fromEntries((await redis.hkeys(keys.failedJobs)).filter((id) => !failedIds.includes(id)).map((id) => [id, 'failed'])),
    });

    const forgotten = await actOnEveryMatch(layout, 'forget', payloadQuery('bulk-order-'));
    expect(forgotten).toMatchObject({ matched: 5, acted: 5, movedOn: 0 });
    expect((await redis.hkeys(keys.failedJobs)).filter((id) => failedIds.includes(id))).toEqual([]);
    expect(await redis.hlen(keys.failedJobs)).toBe(3);
    // marko retries its failed jobs itself: a retry is refused with the layout's sentence, before anything is read.
    await expect(actOnEveryMatch(layout, 'retry', payloadQuery('hay'))).rejects.toThrow(/marko/i);
  });

  it('removes every live match of a ready list while a worker pops its head between the steps: no job that was waiting is missed', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    // One job in three does not match, so that the walk's place in the list moves on.
    const matching: string[] = [];
    for (let i = 0; i < 600; i++) {
      const id = await worker.push('walk', { className: 'App\\Jobs\\Ship', data: { order: i % 3 === 0 ? 'hay' : `walk-order-${i}` } });
      if (i % 3 !== 0) matching.push(id);
    }
    const ran: string[] = [];
    let removed = 0;
    let from: { cursor: string | null; taken: number } = { cursor: null, taken: 0 };
    do {
      const step = await everyMatchStep(layout, 'remove', payloadQuery('walk-order-'), from);
      removed += step.acted;
      from = { cursor: step.cursor, taken: step.taken };
      // The worker takes jobs from the head meanwhile: each takes a place the walk counted from the head.
      for (let n = 0; n < 30; n++) {
        const popped = await worker.pop('walk');
        if (popped !== null && (await worker.complete('walk', popped.id))) ran.push(popped.id);
      }
    } while (from.cursor !== null);
    expect((await redis.lrange(keys.ready('walk'), 0, -1)).filter((id) => matching.includes(id))).toEqual([]);
    // Both took part, and each match went one way.
    const ranMatching = ran.filter((id) => matching.includes(id));
    expect(ranMatching.length).toBeGreaterThan(0);
    expect(removed + ranMatching.length).toBe(matching.length);
  });

  it('reads many small queues several a round trip, each job once and in order', async () => {
    const { layout, worker, redis } = await openMarko();
    const names = Array.from({ length: 40 }, (_, n) => `q${String(n).padStart(2, '0')}`);
    for (const [n, name] of names.entries())
      await worker.push(name, { className: 'App\\Jobs\\Noise', data: { tag: n % 20 === 7 ? `needle-${n}` : `hay-${n}` } });
    const scripts = watchCommands(redis, ['evalsha', 'eval']);
    const finder = finderOf(layout);

    // The counts a served app's sampler holds, so that the first step reads none (their read is a script a queue, all at once).
    const { matches, steps, looked } = await findAll(finder, payloadQuery('needle'), { counts: NO_COUNTS });
    expect(matches.map((match) => match.queue)).toEqual(['q07', 'q27']);
    expect(looked).toBe(40);
    // 120 parts (a list and two sets a queue): a step goes on past each that ends with no match, several parts a round trip.
    expect(steps).toBeLessThanOrEqual(2 + Math.ceil(120 / CHUNKS_PER_STEP));
    expect(scripts.mostPending()).toBe(PARTS_READ_AT_ONCE);
  });

  it('holds the error of a part read together until the walk reaches it: a set that changed type after its size was read', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    for (const name of ['a', 'b', 'c']) await worker.push(name, { className: 'App\\Jobs\\Noise', data: { tag: name === 'b' ? 'needle' : 'hay' } });
    const changing = keys.delayed('c');
    // Right after the round trip that reads the parts' sizes, and before the one that reads them, c's delayed set becomes a string.
    onceAnswered(redis, 'zcard', changing, () => redis.set(changing, 'not a sorted set'));
    const finder = finderOf(layout);

    // a's ready list is read alone and ends with no match; the parts after it are read in one round trip, c's delayed set among them.
    const first = await finder.step(payloadQuery('needle'), null, 0, { counts: NO_COUNTS });
    expect(first.matches.map((match) => match.queue)).toEqual(['b']);
    await expect(finder.step(payloadQuery('needle'), first.cursor)).rejects.toThrow(/type|WRONGTYPE/i);
  });

  it('re-checks the jobs a search listed before an action: a failed record written again with another exception no longer matches', async () => {
    const { layout, worker, keys, redis } = await openMarko();
    const job = (order: string) => ({ className: 'App\\Jobs\\Ship', data: { order } });
    const failedIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = await worker.push('f', job(`order-${i}`));
      expect((await worker.pop('f'))!.id).toBe(id);
      await worker.fail('f', id, 'Timeout talking to the carrier');
      failedIds.push(id);
    }
    const [kept, failedAgain] = failedIds as [string, string];
    const query = { ...payloadQuery('carrier'), field: 'error' as const };
    const finder = finderOf(layout);
    expect(await finder.stillMatching(query, 'failed', failedIds)).toEqual(new Set(failedIds));
    // The job was retried and failed again: marko's storeFailedJob() writes its record anew, under its id.
    const record = JSON.parse((await redis.hget(keys.failedJobs, failedAgain))!) as Record<string, unknown>;
    await redis.hset(keys.failedJobs, failedAgain, JSON.stringify({ ...record, exception: 'Out of memory' }));
    expect(await finder.stillMatching(query, 'failed', failedIds)).toEqual(new Set([kept]));

    // A live job by its signed payload, decoded; one that left its hash is no match.
    const ready = await worker.push('r', job('order-12345'));
    const done = await worker.push('r', job('order-12345'));
    expect((await worker.pop('r'))!.id).toBe(ready);
    expect(await worker.complete('r', ready)).toBe(true);
    expect(await finder.stillMatching(payloadQuery('order-12345'), 'live', [ready, done])).toEqual(new Set([done]));
  });

  it('takes a time range where marko records a time: when due, when a reservation expires, when it failed (its index); a ready job has none', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const job = { className: 'App\\Jobs\\Ship', data: { order: 'ranged-7' } };
    const placed: PlacedJob[] = [{ id: await worker.push('ship', job), state: 'ready', ms: null }];
    // Both popped before either's expiry is set: a pop puts an expired reservation back in line.
    await worker.push('held', job);
    await worker.push('held', job);
    const held = [(await worker.pop('held'))!.id, (await worker.pop('held'))!.id];
    for (const ms of [NOON - HOUR, NOON + HOUR]) {
      const seconds = ms / 1000;
      placed.push({ id: await worker.later(0, 'ship', job, seconds), state: 'delayed', ms });
      const reserved = held.shift()!;
      await redis.zadd(keys.reserved('held'), 'XX', seconds, reserved);
      placed.push({ id: reserved, state: 'reserved', ms });
      await worker.push('lost', job);
      const failed = (await worker.pop('lost'))!.id;
      await worker.fail('lost', failed, 'timeout', seconds);
      placed.push({ id: failed, state: 'failed', ms });
    }
    await expectRangeRules(finderOf(layout), 'ranged-7', placed);
  });
});
