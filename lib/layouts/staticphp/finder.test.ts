import { describe, expect, it, vi } from 'vitest';
import { isAbsent } from '../adapter';
import { readJobsChunk, type HitReading } from '../find-in-jobs';
import { CHUNKS_PER_STEP, FIND_JOBS_CHUNK, FIRST_CHUNK, JOBS_CHUNK_BUDGET, PARTS_READ_AT_ONCE } from '../find-steps';
import type { FindStep } from '../../shapes/find';
import { watchCommands } from '../../redis/test-commands';
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
import { staticphpLayout } from './layout';
import { testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

async function openFinder() {
  const queue = await openQueue();
  const finder = staticphpLayout(queue).finder;
  if (isAbsent(finder)) throw new Error(finder.absent);
  return { queue, finder };
}

describe('Find on StaticPHP', () => {
  it('tells "about M" from the counts its caller holds (the served app: the overview’s latest tick), else from the layout’s own', async () => {
    const { queue, finder } = await openFinder();
    await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-1' });
    await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-2' }, { delaySeconds: 3600 });
    const held = { queues: [{ queue: 'mail', pending: 40, delayed: 2, reserved: 1, total: 43 }], failed: 7 };
    expect((await finder.step(payloadQuery('order'), null, 0, { counts: held })).about).toBe(50);
    expect((await finder.step(payloadQuery('order', { states: ['ready'] }), null, 0, { counts: held })).about).toBe(40);
    expect((await finder.step(payloadQuery('order'), null)).about).toBe(2);
  });

  it('finds a job by a piece of its payload in each state: ready, held, delayed and failed', async () => {
    const { queue, finder } = await openFinder();
    const push = (delaySeconds = 0, marker = 'order-12345') => queue.push('mail', 'App\\Jobs\\Ship', { order: marker }, { delaySeconds });
    const reserved = await push();
    const failed = await push();
    const ready = await push();
    const delayed = await push(3600);
    const other = await push(0, 'order-99');
    await queue.reserve(['mail'], 'w1', 300);
    await queue.fail((await queue.reserve(['mail'], 'w1', 300))!, 'boom: order-12345 was refused');

    const { matches, looked, about } = await findAll(finder, payloadQuery('order-12345'));
    expect(statesById(matches)).toEqual({ [ready]: 'ready', [reserved]: 'reserved', [delayed]: 'delayed', [failed]: 'failed' });
    expect(matches.find((match) => match.id === String(ready))?.snippet).toEqual({ before: '{"order":"', match: 'order-12345', after: '"}' });
    expect(String(other) in statesById(matches)).toBe(false);
    expect(looked).toBe(5);
    expect(about).toBeGreaterThanOrEqual(5);

    const errors = await findAll(finder, { ...payloadQuery('was refused'), field: 'error' });
    expect(statesById(errors.matches)).toEqual({ [failed]: 'failed' });
    const byId = await findAll(finder, { ...payloadQuery(String(delayed)), field: 'id' });
    expect(statesById(byId.matches)).toEqual({ [delayed]: 'delayed' });
    const scoped = await findAll(finder, payloadQuery('order-12345', { states: ['failed', 'delayed'] }));
    expect(statesById(scoped.matches)).toEqual({ [delayed]: 'delayed', [failed]: 'failed' });
    expect((await findAll(finder, payloadQuery('order-12345', { queue: 'other' }))).matches).toEqual([]);
  });

  it('ignores the case of ASCII letters only when asked; a NUL or a pattern character in the text stands for itself in the Lua', async () => {
    const { queue, finder } = await openFinder();
    await expectIgnoreCaseRules(finder, async (text) => String(await queue.push('mail', 'App\\Jobs\\Ship', { note: text })));

    // The hits of the Lua alone: the finder checks each again in TypeScript, which would hide a pattern that matches too much.
    const everyHit: HitReading = {
      spellings: () => [],
      matchOf: (hit) => ({ id: hit.id, queue: hit.queue, state: hit.state, name: '', field: hit.field, snippet: { before: '', match: '', after: '' } }),
    };
    const options = {
      jobPrefix: queue.keys.job(''),
      fields: { queue: 'queue', name: 'name', payload: 'payload', errors: [], reserved: '' },
      reading: everyHit,
    };
    const part = { states: ['delayed'] as const, key: queue.keys.delayed('raw'), kind: 'zset' };
    const luaHits = async (text: string) => {
      const chunk = await readJobsChunk(queue, options, part, '', payloadQuery(text, { ignoreCase: true }), part.states, undefined);
      return chunk.matches.map((match) => match.id);
    };
    for (const [id, payload] of [
      [901, Buffer.from('a\0Bc')],
      [902, Buffer.from('50 x then y')],
    ] as const) {
      await queue.redis.hset(queue.keys.job(id), 'queue', 'raw', 'name', 'Raw', 'payload', payload);
      await queue.redis.zadd(queue.keys.delayed('raw'), 9999999999, String(id));
    }
    expect(await luaHits('A\0b')).toEqual(['901']);
    // Read as the end of the pattern (Lua 5.1 does, unless it is %z), the NUL would leave `[aA]`, which 901 holds.
    expect(await luaHits('A\0d')).toEqual([]);
    // Read as a pattern, this text would match 902.
    expect(await luaHits('50% (x).*[y]')).toEqual([]);
  });

  it('reads a bounded chunk per step and resumes from the cursor, finding each job once', async () => {
    const { queue, finder } = await openFinder();
    const count = FIND_JOBS_CHUNK * 2 + 7;
    await queue.pushMany(
      Array.from({ length: count }, (_, i) => ({ queue: 'bulk', name: 'App\\Jobs\\Noise', payload: { tag: i % 50 === 0 ? 'needle' : 'hay' } })),
    );
    // A few first, then FIND_JOBS_CHUNK of jobs this small.
    const first = await finder.step(payloadQuery('needle'), null);
    expect(first.looked).toBe(FIRST_CHUNK);
    expect((await finder.step(payloadQuery('needle'), first.cursor)).looked - first.looked).toBe(FIND_JOBS_CHUNK);
    const { matches, steps, looked } = await findAll(finder, payloadQuery('needle'));
    expect(looked).toBe(count);
    expect(steps).toBeGreaterThanOrEqual(3);
    expect(new Set(matches.map((match) => match.id)).size).toBe(matches.length);
    expect(matches).toHaveLength(Math.ceil(count / 50));
  });

  it('reads fewer large jobs a step, sized by the bytes the step before read, and as many small ones again after them', async () => {
    const { queue, finder } = await openFinder();
    // 8 KB payloads in "a-large", walked first; then 120 small jobs in "b-small".
    const large = 'x'.repeat(8 * 1024);
    await queue.pushMany(Array.from({ length: 30 }, (_, i) => ({ queue: 'a-large', name: 'App\\Jobs\\Noise', payload: { tag: `needle-${i}`, large } })));
    await queue.pushMany(Array.from({ length: 120 }, (_, i) => ({ queue: 'b-small', name: 'App\\Jobs\\Noise', payload: { tag: `needle-${30 + i}` } })));
    const perStep: number[] = [];
    const found = new Set<string>();
    let step = await finder.step(payloadQuery('needle'), null);
    for (let before = 0; ; step = await finder.step(payloadQuery('needle'), step.cursor)) {
      perStep.push(step.looked - before);
      before = step.looked;
      for (const match of step.matches) found.add(match.id);
      if (step.cursor === null) break;
    }
    expect(found.size).toBe(150);
    // The first step reads FIRST_CHUNK large jobs; each step after it over "a-large" no more than fit JOBS_CHUNK_BUDGET's bytes.
    expect(perStep[0]).toBe(FIRST_CHUNK);
    // A step reads one part: those over "a-large" began before its 30 jobs were read.
    const readBefore = perStep.map((_, at) => perStep.slice(0, at).reduce((sum, looked) => sum + looked, 0));
    const overLarge = perStep.filter((_, at) => readBefore[at]! < 30);
    expect(overLarge.reduce((sum, looked) => sum + looked, 0)).toBe(30);
    // 32 KiB a step: four 8 KB jobs at most.
    expect(JOBS_CHUNK_BUDGET.bytes).toBe(32 * 1024);
    expect(Math.max(...overLarge.slice(1))).toBeLessThanOrEqual(4);
    // Small jobs: FIND_JOBS_CHUNK a step again once one step has read them.
    expect(perStep.slice(overLarge.length)).toContain(FIND_JOBS_CHUNK);
  });

  it('asks for a queue’s levels once, when its walk begins, and walks the levels it found though one is added meanwhile', async () => {
    const { queue, finder } = await openFinder();
    const count = FIND_JOBS_CHUNK + 5;
    const job = (i: number, priority: number) => ({ queue: 'levels', name: 'App\\Jobs\\Noise', payload: { tag: `needle-${i}` }, options: { priority } });
    await queue.pushMany(Array.from({ length: count * 2 }, (_, i) => job(i, i < count ? 0 : 5)));
    const levels = vi.spyOn(queue.redis, 'zrange');
    try {
      const first = await finder.step(payloadQuery('needle'), null);
      expect(first.looked).toBe(FIRST_CHUNK);
      // A higher level sorts first; the walk goes on over the two it found.
      await queue.push('levels', 'App\\Jobs\\Noise', { tag: 'needle-late' }, { priority: 9 });
      let step = first;
      const ids = new Set(first.matches.map((match) => match.id));
      while (step.cursor !== null) {
        step = await finder.step(payloadQuery('needle'), step.cursor);
        for (const match of step.matches) ids.add(match.id);
      }
      expect(ids.size).toBe(count * 2);
      expect(step.looked).toBe(count * 2);
      expect(levels.mock.calls.filter(([key]) => key === queue.keys.levels('levels'))).toHaveLength(1);
    } finally {
      levels.mockRestore();
    }
  });

  it('reads many small queues several a round trip, their levels asked together, each job once and in order', async () => {
    const { queue, finder } = await openFinder();
    const names = Array.from({ length: 60 }, (_, n) => `q${String(n).padStart(2, '0')}`);
    await queue.pushMany(names.map((name, n) => ({ queue: name, name: 'App\\Jobs\\Noise', payload: { tag: n % 20 === 7 ? `needle-${n}` : `hay-${n}` } })));
    const scripts = watchCommands(queue.redis, ['evalsha', 'eval']);
    let levelsAskedThisStep: string[] = [];
    const levelsAskedTwiceInAStep: string[] = [];
    const levels = watchCommands(queue.redis, ['zrange'], (command) => {
      if (command.name !== 'zrange') return;
      const key = String(command.args[0]);
      if (levelsAskedThisStep.includes(key)) levelsAskedTwiceInAStep.push(key);
      levelsAskedThisStep.push(key);
    });
    const findingThenNewStep = (finding: Promise<FindStep>) => finding.finally(() => (levelsAskedThisStep = []));
    const { matches, steps, looked } = await findAll({ ...finder, step: (...args) => findingThenNewStep(finder.step(...args)) }, payloadQuery('needle'));
    expect(matches.map((match) => match.queue)).toEqual(['q07', 'q27', 'q47']);
    expect(looked).toBe(60);
    // 120 parts (a stream and a delayed set a queue): a step goes on past each that ends with no match, several parts a round trip.
    expect(steps).toBeLessThanOrEqual(3 + Math.ceil(120 / CHUNKS_PER_STEP));
    expect(scripts.mostPending()).toBe(PARTS_READ_AT_ONCE);
    // The queues' levels are asked for as many at once, and kept for the step: a queue's again only by a later step that looks ahead where an earlier one did.
    expect(levels.mostPending()).toBe(PARTS_READ_AT_ONCE);
    expect(levelsAskedTwiceInAStep).toEqual([]);
    expect(levels.sent('zrange')).toBeLessThanOrEqual(names.length + PARTS_READ_AT_ONCE * steps);
  });

  it('asks no sizes of the parts after one read over several chunks: the next is most likely as large, and is read alone', async () => {
    const { queue, finder } = await openFinder();
    await queue.pushMany(Array.from({ length: FIND_JOBS_CHUNK * 2 }, (_, i) => ({ queue: 'big', name: 'App\\Jobs\\Noise', payload: { tag: `hay-${i}` } })));
    // Watched after the first step, which reads the counts (the failed set's ZCARD among them).
    let step = await finder.step(payloadQuery('needle'), null);
    const commands = watchCommands(queue.redis);
    while (step.cursor !== null) step = await finder.step(payloadQuery('needle'), step.cursor);

    expect(step.looked).toBe(FIND_JOBS_CHUNK * 2);
    // The stream's last chunk is followed by its delayed set and the failed set, read one by one. The delayed set, read whole from its
    // start, would look ahead, but only the failed set is after it.
    expect(commands.sent('xlen', 'zcard')).toBe(0);
  });

  it('reads a queue whose levels cannot be read alone, when the walk comes to it: the match before it is found, then its error', async () => {
    const { queue, finder } = await openFinder();
    await queue.push('a', 'App\\Jobs\\Noise', { tag: 'hay-a' });
    await queue.push('b', 'App\\Jobs\\Noise', { tag: 'needle-b' });
    await queue.push('c', 'App\\Jobs\\Noise', { tag: 'hay-c' });
    await queue.redis.del(queue.keys.levels('c'));
    await queue.redis.set(queue.keys.levels('c'), 'not a sorted set');

    // a's stream is read alone and ends with no match; b's parts are read together; c, whose levels the look-ahead could not read, is not.
    const first = await finder.step(payloadQuery('needle'), null, 0, { counts: NO_COUNTS });
    expect(first.matches.map((match) => match.queue)).toEqual(['b']);
    await expect(finder.step(payloadQuery('needle'), first.cursor)).rejects.toThrow(/type|WRONGTYPE/i);
  });

  it('matches bytes that are no UTF-8 byte for byte and shows them escaped; refuses a cursor it did not write', async () => {
    const { queue, finder } = await openFinder();
    await queue.redis.hset(queue.keys.job(900), 'queue', 'raw', 'name', 'Raw', 'payload', Buffer.from([0x41, 0xff, 0x42]), 'entry', '', 'reserved_until', '0');
    await queue.redis.zadd(queue.keys.delayed('raw'), 9999999999, '900');
    await queue.redis.sadd(queue.keys.queues, 'raw');
    const { matches } = await findAll(finder, payloadQuery('B'));
    expect(matches.map((match) => match.snippet)).toEqual([{ before: 'A\\xFF', match: 'B', after: '' }]);
    await expect(finder.step(payloadQuery('B'), 'not-a-cursor')).rejects.toThrow('The search cursor cannot be read');
    const elsewhere = Buffer.from(JSON.stringify({ q: 'raw', p: 0, at: '', looked: 0, about: 1 })).toString('base64url');
    await expect(finder.step(payloadQuery('B', { queue: 'mail' }), elsewhere)).rejects.toThrow('The search cursor cannot be read');
    expect((await finder.step(payloadQuery('B', { queue: 'raw' }), elsewhere)).matches).toHaveLength(1);
  });

  it('retries every failed match, over more than one step: each once, through the failed list’s retry; nothing else is touched', async () => {
    const { queue, finder } = await openFinder();
    const layout = staticphpLayout(queue);
    const failing = 470;
    await queue.pushMany(
      Array.from({ length: failing }, (_, i) => ({ queue: 'bulk', name: 'App\\Jobs\\Ship', payload: { order: i < 20 ? 'other-order' : `bulk-order-${i}` } })),
    );
    const failedIds: string[] = [];
    for (let i = 0; i < failing; i++) {
      const job = (await queue.reserve(['bulk'], 'w1', 300))!;
      await queue.fail(job, 'boom');
      if (i >= 20) failedIds.push(String(job.id));
    }
    const ready = await queue.pushMany(
      Array.from({ length: 30 }, (_, i) => ({ queue: 'mail', name: 'App\\Jobs\\Ship', payload: { order: `bulk-order-r${i}` } })),
    );
    const delayed = await queue.push('mail', 'App\\Jobs\\Ship', { order: 'bulk-order-d' }, { delaySeconds: 3600 });
    const unmatched = (await queue.redis.zrange(queue.keys.failed, '0', '-1')).filter((id) => !failedIds.includes(id));
    expect(unmatched).toHaveLength(20);

    // A search over every state: the retry walks the failed set alone, so the jobs it puts back in line are not met again.
    const done = await actOnEveryMatch(layout, 'retry', payloadQuery('bulk-order-'));
    expect(done).toMatchObject({ matched: 450, acted: 450, movedOn: 0, refused: 0 });
    expect(done.steps).toBeGreaterThanOrEqual(2);
    // Every failed job looked at; ZSCAN may give a member twice when the retries shrink the set and Redis rehashes it meanwhile (471 seen once).
    expect(done.looked).toBeGreaterThanOrEqual(failing);
    expect((await queue.redis.zrange(queue.keys.failed, '0', '-1')).sort()).toEqual(unmatched.sort());
    // Each retried job is in line once, as the driver's retry puts it: attempts back to 0.
    const inLine: string[] = [];
    for (const level of await queue.redis.zrange(queue.keys.levels('bulk'), '0', '-1'))
      for (const [, fields] of await queue.redis.xrange(queue.keys.stream('bulk', level), '-', '+')) inLine.push(fields[fields.indexOf('job') + 1]!);
    expect(inLine.sort()).toEqual([...failedIds].sort());
    for (const id of failedIds.slice(0, 5)) expect(await queue.redis.hget(queue.keys.job(id), 'attempts')).toBe('0');
    // The ready and delayed matches were not the retry's: as they were.
    expect(statesById((await findAll(finder, payloadQuery('bulk-order-', { queue: 'mail' }))).matches)).toEqual({
      ...Object.fromEntries(ready.map((id) => [String(id), 'ready'])),
      [delayed]: 'delayed',
    });

    // A second run finds nothing left to retry; a search scoped to states a retry does not act on is refused.
    expect(await actOnEveryMatch(layout, 'retry', payloadQuery('bulk-order-'))).toMatchObject({ matched: 0, acted: 0 });
    await expect(actOnEveryMatch(layout, 'retry', payloadQuery('bulk-order-', { states: ['ready'] }))).rejects.toThrow('looks in no state a retry acts on');
  });

  it('re-checks the jobs a search listed before an action: one retried and failed again with another error, or gone, no longer matches', async () => {
    const { queue, finder } = await openFinder();
    const failNext = async (error: string) => {
      const job = (await queue.reserve(['mail'], 'w1', 300))!;
      await queue.fail(job, error);
      return String(job.id);
    };
    const listedFailed: string[] = [];
    for (let i = 0; i < 3; i++) {
      await queue.push('mail', 'App\\Jobs\\Ship', { order: `order-${i}` });
      listedFailed.push(await failNext('Timeout talking to the carrier'));
    }
    const [kept, failedAgain, gone] = listedFailed as [string, string, string];
    const query = { ...payloadQuery('TIMEOUT', { ignoreCase: true }), field: 'error' as const };
    expect((await findAll(finder, query)).matches.map((match) => match.id).sort()).toEqual([...listedFailed].sort());

    await queue.retryFailed([Number(failedAgain)]);
    expect(await failNext('Out of memory')).toBe(failedAgain);
    await queue.forgetFailedIds([Number(gone)]);
    expect(await finder.stillMatching(query, 'failed', listedFailed)).toEqual(new Set([kept]));
    expect(await finder.stillMatching({ ...query, ignoreCase: false }, 'failed', listedFailed)).toEqual(new Set());

    // Live jobs by their payload, more than one script call's worth; an id that is no job's is no match.
    const live = (
      await queue.pushMany(
        Array.from({ length: FIND_JOBS_CHUNK + 20 }, (_, i) => ({ queue: 'bulk', name: 'App\\Jobs\\Ship', payload: { order: `bulk-${i}` } })),
      )
    ).map(String);
    const matching = await finder.stillMatching(payloadQuery('bulk-'), 'live', [...live, '999999999']);
    expect([...matching].sort()).toEqual([...live].sort());
  });

  it('takes a time range in every state, by the time each index records: a stream entry’s ms, the delayed and failed sets’ seconds', async () => {
    const { queue, finder } = await openFinder();
    const placed: PlacedJob[] = [];
    let next = 1;
    // Placed by hand, so each time is known: a stream's ids are the ms Redis added each entry, which a push cannot set.
    const place = async (state: PlacedJob['state'], ms: number) => {
      const id = String(next++);
      await queue.redis.hset(queue.keys.job(id), 'queue', 'timed', 'name', 'App\\Jobs\\Ship', 'payload', '{"order":"ranged-7"}', 'error', 'boom');
      if (state === 'ready' || state === 'reserved') {
        const entry = await queue.redis.xadd(queue.keys.stream('timed', 0), `${ms}-${id}`, 'job', id);
        await queue.redis.hset(queue.keys.job(id), 'entry', entry!, 'reserved_until', state === 'reserved' ? String(ms / 1000 + 300) : '0');
      }
      if (state === 'delayed') await queue.redis.zadd(queue.keys.delayed('timed'), ms / 1000, id);
      if (state === 'failed') await queue.redis.zadd(queue.keys.failed, ms / 1000, id);
      placed.push({ id, state, ms });
    };
    await queue.redis.sadd(queue.keys.queues, 'timed');
    await queue.redis.zadd(queue.keys.levels('timed'), 0, '0');
    // A stream's ids only grow: its entries are placed in time order.
    for (const ms of [NOON - HOUR, NOON + HOUR]) for (const state of ['ready', 'reserved', 'delayed', 'failed'] as const) await place(state, ms);
    await expectRangeRules(finder, 'ranged-7', placed);
  });

  it('retries every failed match inside a time range alone', async () => {
    const { queue } = await openFinder();
    const layout = staticphpLayout(queue);
    const [early, late] = await queue.pushMany(
      ['early', 'late'].map((order) => ({ queue: 'mail', name: 'App\\Jobs\\Ship', payload: { order: `range-order-${order}` } })),
    );
    for (let i = 0; i < 2; i++) await queue.fail((await queue.reserve(['mail'], 'w1', 300))!, 'timeout');
    await queue.redis.zadd(queue.keys.failed, 'XX', (NOON - HOUR) / 1000, String(early));
    await queue.redis.zadd(queue.keys.failed, 'XX', (NOON + HOUR) / 1000, String(late));

    const done = await actOnEveryMatch(layout, 'retry', { ...payloadQuery('range-order-'), field: 'any', range: { from: NOON, until: null } });
    expect(done).toMatchObject({ matched: 1, acted: 1, movedOn: 0 });
    expect(await queue.redis.zrange(queue.keys.failed, '0', '-1')).toEqual([String(early)]);
  });
});
