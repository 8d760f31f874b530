import { describe, expect, it } from 'vitest';
import type { FindQuery } from '../../shapes/find';
import type { TrashWrite } from '../../shapes/trash';
import { isAbsent } from '../adapter';
import { CHUNKS_PER_STEP, FIND_CHUNK, FIRST_CHUNK, PARTS_READ_AT_ONCE } from '../find-steps';
import { PAGE_ROWS, type JobFinder } from '../pages';
import { actOnEveryMatch, expectIgnoreCaseRules, findAll, NO_COUNTS, payloadQuery, statesById } from '../test-find';
import { jsonSpellings, readableJson } from './finder';
import { JOB_SEARCH_LIMIT, NO_ID } from './pages';
import { readLaravelPayload } from './payload';
import { LaravelHarness } from './php-harness';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { present, testLaravelFactory } from './test-laravel';
import { onceAnswered, watchCommands } from '../../redis/test-commands';

const openLaravel = testLaravelFactory();

type Laravel = Awaited<ReturnType<typeof openLaravel>>;

function finderOf({ layout }: Laravel): JobFinder {
  if (isAbsent(layout.finder)) throw new Error(layout.finder.absent);
  return layout.finder;
}

/** The PHP serialization inside data.command, as a user reads it on the job page: Laravel's JSON stores it as `s:4:\"name\"…`. */
const ORDER = 's:4:"name";s:11:"order-12345"';

/**
 * Jobs in every state, by the real driver: two pushes popped (reserved, PHP's
 * payload re-encoded by cjson), one released back with a delay (delayed, the
 * cjson copy), one left ready, and one pushed with `later` (delayed, as PHP
 * wrote it).
 */
async function jobsInEveryState(laravel: Laravel) {
  const driver = laravel.laravel;
  const reserved = await driver.push('order-12345', 'App\\Jobs\\SendMail');
  const reservedCafe = await driver.push('café/crème');
  const released = await driver.push('order-12345', 'App\\Jobs\\SendMail');
  const ready = await driver.push('order-12345', 'App\\Jobs\\SendMail');
  const noise = await driver.push('order-99', 'App\\Jobs\\SendMail');
  expect((await driver.pop(600))!.id).toBe(reserved);
  expect((await driver.pop(600))!.id).toBe(reservedCafe);
  expect(await driver.release(released, 3600)).toBe(true);
  const later = await driver.later(3600);
  return { reserved, reservedCafe, released, ready, noise, later };
}

/** Copies of a payload the real driver pushed to `queue` (left empty again), each with its own id `job{i}` and its command carrying `needle` or `hay`. */
async function payloadCopies({ layout, redis, laravel: driver }: Laravel, queue: string) {
  await driver.push('hay');
  const [template] = await redis.lrange(layout.keys.ready(queue), 0, 0);
  await redis.del(layout.keys.ready(queue), layout.keys.notify(queue));
  return (i: number, needle: boolean) =>
    template!.replace(/"id":"\w+"/, `"id":"job${i}"`).replace('s:3:\\"hay\\"', needle ? 's:6:\\"needle\\"' : 's:3:\\"hay\\"');
}

describe('Find on Laravel', () => {
  it('finds a piece of the command as the user reads it, though Laravel’s JSON escapes it, in each state, and shows it unescaped', async () => {
    const laravel = await openLaravel('mail');
    const { reserved, released, ready } = await jobsInEveryState(laravel);
    const finder = finderOf(laravel);

    const { matches, looked, about } = await findAll(finder, payloadQuery(ORDER));
    expect(statesById(matches)).toEqual({ [reserved]: 'reserved', [released]: 'delayed', [ready]: 'ready' });
    expect(looked).toBe(6);
    expect(about).toBe(6);
    for (const match of matches) {
      expect(match).toMatchObject({ queue: 'mail', name: 'App\\Jobs\\SendMail', field: 'payload', snippet: { match: ORDER } });
      expect(match.idNote).toBeUndefined();
      expect(match.snippet.before).toMatch(/"App\\Jobs\\SendMail":2:\{$/);
      expect(match.snippet.after).toMatch(/^;s:4:"html";s:28:"<b>not markup<\/b> & "quoted"";\}/);
    }
    // `/` is `\/` in the JSON, and UTF-8 as it is (PHP's JSON_UNESCAPED_UNICODE, and cjson in the reserved copy).
    const html = await findAll(finder, payloadQuery('<b>not markup</b>'));
    expect(html.matches).toHaveLength(6);
    const cafe = await findAll(finder, payloadQuery('"café/crème"'));
    expect(cafe.matches.map(({ id, state, name }) => ({ id, state, name }))).toEqual([{ id: expect.any(String), state: 'reserved', name: 'HarnessJob' }]);
  });

  it('finds by name typed with single backslashes, by the id the job page opens, and scoped to states', async () => {
    const laravel = await openLaravel('mail');
    const { reserved, reservedCafe, released, ready, noise, later } = await jobsInEveryState(laravel);
    const finder = finderOf(laravel);

    const names = await findAll(finder, { ...payloadQuery('App\\Jobs\\SendMail'), field: 'name' });
    expect(statesById(names.matches)).toEqual({ [reserved]: 'reserved', [released]: 'delayed', [ready]: 'ready', [noise]: 'ready' });
    for (const match of names.matches) expect(match.snippet).toEqual({ before: '', match: 'App\\Jobs\\SendMail', after: '' });
    const scoped = await findAll(finder, { ...payloadQuery('Jobs\\Send'), field: 'name', states: ['delayed', 'reserved'] });
    expect(statesById(scoped.matches)).toEqual({ [reserved]: 'reserved', [released]: 'delayed' });
    expect(scoped.looked).toBe(4);

    for (const [id, state] of [
      [reservedCafe, 'reserved'],
      [released, 'delayed'],
      [later, 'delayed'],
      [ready, 'ready'],
    ] as const) {
      const { matches } = await findAll(finder, { ...payloadQuery(id), field: 'any' });
      // The ready job is one place from the tail of the list of two (the job pushed after it, `noise`, is at the tail); a set's member is at its score.
      const near = { near: state === 'ready' ? { from: 'tail', at: 1, length: 2 } : { from: 'score', at: expect.any(Number) } };
      expect(matches).toEqual([{ id, queue: 'mail', state, name: expect.any(String), field: 'id', snippet: { before: '', match: id, after: '' }, ...near }]);
      // The job page opens it by that id, where Find found it.
      const snapshot = await present(laravel.layout.jobSnapshot).read(id, 'mail', matches[0]!.near);
      expect(snapshot).toMatchObject({ id, status: 'placed', places: [{ state }] });
    }
    // An id is equal or nothing: a piece of one finds no job by id.
    expect((await findAll(finder, { ...payloadQuery(ready.slice(0, 10)), field: 'id' })).matches).toEqual([]);
  });

  it('ignores the case of ASCII letters in a payload, its JSON spellings and a name only when asked; an id stays exact', async () => {
    const laravel = await openLaravel('mail');
    const finder = finderOf(laravel);
    await expectIgnoreCaseRules(finder, (text) => laravel.laravel.push(text));
    const ignoringCase = (text: string, field: FindQuery['field']) => ({ ...payloadQuery(text, { ignoreCase: true }), field });
    // `\\` and `\/` are how the payload's JSON spells the typed text, folded as the text is.
    const sent = await laravel.laravel.push('a/B', 'App\\Jobs\\SendMail');
    const names = await findAll(finder, ignoringCase('app\\jobs\\sendmail', 'name'));
    expect(names.matches.map(({ id, snippet }) => ({ id, match: snippet.match }))).toEqual([{ id: sent, match: 'App\\Jobs\\SendMail' }]);
    const escaped = await findAll(finder, ignoringCase('"A/b"', 'payload'));
    expect(escaped.matches.map(({ id, snippet }) => ({ id, match: snippet.match }))).toEqual([{ id: sent, match: '"a/B"' }]);
    const otherCase = sent === sent.toUpperCase() ? sent.toLowerCase() : sent.toUpperCase();
    expect(otherCase).not.toBe(sent);
    expect((await findAll(finder, ignoringCase(otherCase, 'id'))).matches).toEqual([]);
    expect((await findAll(finder, ignoringCase(sent, 'id'))).matches.map((match) => match.id)).toEqual([sent]);
  });

  it('removes the jobs it found by the ids it found them by, from every state', async () => {
    const laravel = await openLaravel('mail');
    const { reserved, released, ready, noise } = await jobsInEveryState(laravel);
    const { matches } = await findAll(finderOf(laravel), payloadQuery(ORDER));
    const trash: TrashWrite = {
      dashboardPrefix: `${laravel.prefix}ql:`,
      keepSeconds: 3600,
      maxEntries: 100,
      maxBytes: 1 << 30,
      who: 'alice',
      via: 'dashboard',
    };
    const remove = present(laravel.layout.lineRepairs).remove;
    if (isAbsent(remove)) throw new Error(remove.absent);

    for (const match of matches) expect(await remove(match.queue, match.id, trash)).toBe(true);
    expect((await findAll(finderOf(laravel), payloadQuery(ORDER))).matches).toEqual([]);
    expect(matches.map((match) => match.id).sort()).toEqual([reserved, released, ready].sort());
    // What is left runs as Laravel runs it: the noise job (the reserved café job and the later one are not due).
    expect((await laravel.laravel.drain()).map((job) => job.id)).toEqual([noise]);
  });

  it('walks only the queue it is scoped to, and counts the jobs it will look at from the layout’s figures', async () => {
    const laravel = await openLaravel('mail');
    const other = new LaravelHarness(laravel.prefix, 'other');
    await laravel.laravel.push('order-12345');
    const elsewhere = await other.push('order-12345');
    await other.push('order-99');
    const finder = finderOf(laravel);

    const everywhere = await findAll(finder, payloadQuery(ORDER));
    expect(everywhere.matches.map((match) => match.queue).sort()).toEqual(['mail', 'other']);
    const first = await finder.step(payloadQuery(ORDER, { queue: 'other' }), null);
    expect(first.about).toBe(2);
    const scoped = await findAll(finder, payloadQuery(ORDER, { queue: 'other' }));
    expect(scoped.matches.map(({ id, queue }) => ({ id, queue }))).toEqual([{ id: elsewhere, queue: 'other' }]);
    expect(scoped.looked).toBe(2);
  });

  it('lists the queues once for a search over many, and reads many small queues a step, each once and in order', async () => {
    const laravel = await openLaravel('q00');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'q00');
    const names = Array.from({ length: 60 }, (_, n) => `q${String(n).padStart(2, '0')}`);
    for (const [n, name] of names.entries()) await redis.rpush(layout.keys.ready(name), payloadOf(n, n % 20 === 7));
    const commands = watchCommands(redis, ['evalsha', 'eval']);
    const finder = finderOf(laravel);

    // The counts a served app's sampler holds, so that the first step reads none (their read is a script a queue, all at once).
    let step = await finder.step(payloadQuery('needle'), null, 0, { counts: NO_COUNTS });
    const scansOfOneListing = commands.sent('scan');
    expect(scansOfOneListing).toBeGreaterThan(0);
    const matches = [...step.matches];
    let steps = 1;
    for (; step.cursor !== null; steps++) {
      step = await finder.step(payloadQuery('needle'), step.cursor);
      matches.push(...step.matches);
    }
    expect(matches.map(({ id, queue }) => `${queue} ${id}`)).toEqual(['q07 job7', 'q27 job27', 'q47 job47']);
    expect(step.looked).toBe(60);
    // 180 parts (a list and two sets a queue), most of them empty: a step goes on past each that ends with no match, and stops at one with.
    expect(steps).toBeLessThanOrEqual(3 + Math.ceil(180 / CHUNKS_PER_STEP));
    // Listing again at the end of each queue's walk would SCAN the database 60 times over.
    expect(commands.sent('scan')).toBe(scansOfOneListing);
    // The parts after one read to its end are read several in one round trip.
    expect(commands.mostPending()).toBe(PARTS_READ_AT_ONCE);

    expect(await actOnEveryMatch(layout, 'remove', payloadQuery('needle'))).toMatchObject({ looked: 60, matched: 3, acted: 3 });
    expect((await findAll(finder, payloadQuery('hay'))).matches).toHaveLength(57);
    // A queue made just now is walked by the next search: its first step lists the queues again.
    await redis.rpush(layout.keys.ready('q60'), payloadOf(60, true));
    expect((await findAll(finder, payloadQuery('needle'))).matches.map(({ id, queue }) => `${queue} ${id}`)).toEqual(['q60 job60']);
  });

  it('lists a member that is no JSON, or names no usable id, by its bytes, with why it cannot be opened; and finds what another producer escaped', async () => {
    const laravel = await openLaravel('mail');
    const { layout, redis } = laravel;
    await redis.rpush(layout.keys.ready('mail'), Buffer.from('not json: order-12345 \xff', 'latin1'));
    await redis.rpush(layout.keys.ready('mail'), '{"id":"a b","displayName":"App\\\\Jobs\\\\Odd","data":{"command":"order-12345"}}');
    // json_encode's default flags: every non-ASCII character as \uXXXX (UTF-16, lowercase), a surrogate pair for an emoji.
    await redis.zadd(
      layout.keys.delayed('mail'),
      4102444800,
      '{"uuid":"u-1","displayName":"Caf\\u00e9","data":{"command":"s:1:\\"x\\";s:4:\\"\\ud83d\\ude00\\";"}}',
    );
    const finder = finderOf(laravel);

    const { matches } = await findAll(finder, payloadQuery('order-12345'));
    expect(matches.map(({ id, idNote, name, snippet }) => ({ id, idNote, name, snippet }))).toEqual([
      { id: '', idNote: NO_ID, name: '', snippet: { before: 'not json: ', match: 'order-12345', after: ' \\xFF' } },
      {
        id: 'a b',
        idNote: expect.stringContaining('cannot be opened'),
        name: 'App\\Jobs\\Odd',
        snippet: { before: expect.stringMatching(/"displayName":"App\\Jobs\\Odd","data":\{"command":"$/), match: 'order-12345', after: '"}}' },
      },
    ]);
    const cafe = await findAll(finder, payloadQuery('é', { field: 'name' }));
    expect(cafe.matches).toEqual([
      {
        id: 'u-1',
        queue: 'mail',
        state: 'delayed',
        name: 'Café',
        field: 'name',
        snippet: { before: 'Caf', match: 'é', after: '' },
        near: { from: 'score', at: 4102444800 },
      },
    ]);
    const emoji = await findAll(finder, payloadQuery('"😀"'));
    expect(emoji.matches.map((match) => match.snippet.match)).toEqual(['"😀"']);
  });

  it('names each job by its top-level id and name as the job page reads them, whether it is of the shape Laravel’s PHP writes or not', async () => {
    const laravel = await openLaravel('mail');
    const { layout, redis, laravel: driver } = laravel;
    await driver.push('zz-needle', 'App\\Jobs\\SendMail');
    const [real] = await redis.lrange(layout.keys.ready('mail'), 0, -1);
    const tail = (id: string) => `,"id":"${id}","attempts":0}`;
    const shaped = (name: string, data: string, id: string) =>
      `{"uuid":"0c5a2e3b-7f1d-4a7e-9b1e-2f3c4d5e6f70","displayName":${name},"job":"x","data":${data}${tail(id)}`;
    const payloads = [
      real!,
      // An inner `id` and `displayName` before the top level's: the shape's ends name the job, not the first of each.
      shaped('"App\\\\Jobs\\\\Caf\\u00e9"', '{"id":"inner","displayName":"Inner","command":"zz-needle"}', 'Outer1'),
      // An id Str::random never writes, a name that is no string, no displayName: decoded whole.
      shaped('"Odd"', '{"command":"zz-needle"}', 'a-b'),
      shaped('null', '{"commandName":"App\\\\Jobs\\\\Named","command":"zz-needle"}', 'Nulled2'),
      `{"uuid":"u-9","data":{"commandName":"Only","command":"zz-needle"}${tail('NoDisplay3')}`,
      // The pop's cjson copy: its keys in another order.
      `{"attempts":1,"id":"Popped4","data":{"command":"zz-needle"},"displayName":"Popped","uuid":"u-4"}`,
    ];
    await redis.del(layout.keys.ready('mail'), layout.keys.notify('mail'));
    await redis.rpush(layout.keys.ready('mail'), ...payloads);

    const { matches } = await findAll(finderOf(laravel), payloadQuery('zz-needle', { field: 'any' }));
    const read = payloads.map((payload) => readLaravelPayload(Buffer.from(payload)));
    expect(read.map(({ id, name }) => [id, name])).toEqual([
      [read[0]!.id, 'App\\Jobs\\SendMail'],
      ['Outer1', 'App\\Jobs\\Café'],
      ['a-b', 'Odd'],
      ['Nulled2', 'App\\Jobs\\Named'],
      ['NoDisplay3', 'Only'],
      ['Popped4', 'Popped'],
    ]);
    expect(matches.map(({ id, name }) => [id, name]).sort()).toEqual(read.map(({ id, name }) => [id, name]).sort());
  });

  /** Queues a, b and c of one ready job each, b's the only one holding "needle". */
  async function threeSmallQueues() {
    const laravel = await openLaravel('a');
    const payloadOf = await payloadCopies(laravel, 'a');
    for (const [n, queue] of ['a', 'b', 'c'].entries()) await laravel.redis.rpush(laravel.layout.keys.ready(queue), payloadOf(n, queue === 'b'));
    return laravel;
  }

  it('reads small queues several in one round trip, and stops at a key of another type only where the walk reaches it, after the matches before it', async () => {
    const laravel = await threeSmallQueues();
    const { layout, redis } = laravel;
    await redis.set(layout.keys.delayed('c'), 'not a sorted set');
    const commands = watchCommands(redis, ['evalsha', 'eval']);
    const finder = finderOf(laravel);

    // a's ready list, read alone, ends with no match; the six small parts after it are read in one round trip. c's delayed set, whose size
    // cannot be read, would be read alone.
    const first = await finder.step(payloadQuery('needle'), null, 0, { counts: NO_COUNTS });
    expect(commands.mostPending()).toBe(6);
    expect(first.matches.map(({ id, queue }) => `${queue} ${id}`)).toEqual(['b job1']);
    expect(first.looked).toBe(2);
    let cursor = first.cursor;
    const wrongType = `The key ${layout.keys.delayed('c')} holds the wrong Redis type`;
    await expect(
      (async () => {
        for (let steps = 0; cursor !== null && steps < 10; steps++) cursor = (await finder.step(payloadQuery('needle'), cursor)).cursor;
      })(),
    ).rejects.toThrow(wrongType);
  });

  it('holds the error of a part read together that changed type after its size was read, until the walk reaches it', async () => {
    const laravel = await threeSmallQueues();
    const { layout, redis } = laravel;
    const changing = layout.keys.delayed('c');
    // Right after the round trip that reads the parts' sizes, and before the one that reads them, c's delayed set becomes a string.
    onceAnswered(redis, 'memory', changing, () => redis.set(changing, 'not a sorted set'));
    const finder = finderOf(laravel);

    const first = await finder.step(payloadQuery('needle'), null, 0, { counts: NO_COUNTS });
    expect(first.matches.map(({ id, queue }) => `${queue} ${id}`)).toEqual(['b job1']);
    expect(await redis.type(changing)).toBe('string');
    await expect(finder.step(payloadQuery('needle'), first.cursor)).rejects.toThrow(`The key ${changing} holds the wrong Redis type`);
  });

  it('refuses a queue key of another type with its name', async () => {
    const laravel = await openLaravel('mail');
    await laravel.laravel.push('order-12345');
    await laravel.redis.set(laravel.layout.keys.delayed('mail'), 'not a sorted set');
    const finder = finderOf(laravel);
    await expect(findAll(finder, payloadQuery(ORDER))).rejects.toThrow(`The key ${laravel.layout.keys.delayed('mail')} holds the wrong Redis type`);
    // The states asked for alone are read: the ready list answers.
    expect((await findAll(finder, payloadQuery(ORDER, { states: ['ready'] }))).matches).toHaveLength(1);
  });

  it('removes every live match of the ready list read by offset, over more than one step: none skipped, each once; an element naming no id is refused', async () => {
    const laravel = await openLaravel('bulk');
    const { layout, redis } = laravel;
    // Two payloads in three carry the needle, so each chunk read by offset loses most of its jobs before the next is read.
    const payloadOf = await payloadCopies(laravel, 'bulk');
    const ready = Array.from({ length: 450 }, (_, i) => payloadOf(i, i % 3 !== 0));
    await redis.rpush(layout.keys.ready('bulk'), ...ready, 'not json: s:6:"needle"');
    await redis.zadd(layout.keys.delayed('bulk'), ...Array.from({ length: 30 }, (_, i) => [4102444800, payloadOf(1000 + i, true)]).flat());

    const removed = await actOnEveryMatch(layout, 'remove', payloadQuery('s:6:"needle"'));
    expect(removed).toMatchObject({ matched: 331, acted: 330, movedOn: 0, refused: 1 });
    expect(removed.steps).toBeGreaterThanOrEqual(2);
    expect(await redis.lrange(layout.keys.ready('bulk'), 0, -1)).toEqual([...ready.filter((_, i) => i % 3 === 0), 'not json: s:6:"needle"']);
    expect(await redis.zcard(layout.keys.delayed('bulk'))).toBe(0);
  });

  it('tells where in the list it found a job, so that its page and a removal from the list find one deeper than a look-up from the head reaches', async () => {
    const laravel = await openLaravel('far');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'far');
    const deep = JOB_SEARCH_LIMIT + 500;
    await redis.rpush(layout.keys.ready('far'), ...Array.from({ length: JOB_SEARCH_LIMIT + 1_000 }, (_, i) => payloadOf(i, i === deep)));
    await redis.zadd(layout.keys.delayed('far'), 4102444800, payloadOf(9_000, true));
    const { matches } = await findAll(finderOf(laravel), payloadQuery('s:6:"needle"'));
    // 499 places from the tail, of a list of 3,000; a set's member at its score.
    expect(matches.map(({ id, state, near }) => ({ id, state, near }))).toEqual([
      { id: `job${deep}`, state: 'ready', near: { from: 'tail', at: 499, length: JOB_SEARCH_LIMIT + 1_000 } },
      { id: 'job9000', state: 'delayed', near: { from: 'score', at: 4102444800 } },
    ]);
    const [found] = matches;
    const snapshots = present(layout.jobSnapshot);
    expect(await snapshots.read(found!.id, 'far')).toMatchObject({ status: 'unsearched' });
    expect(await snapshots.read(found!.id, 'far', found!.near)).toMatchObject({ status: 'placed', near: { from: 'head', at: deep } });

    const remove = present(present(layout.lineRepairs).remove);
    expect(await remove('far', found!.id)).toBe(false);
    expect(await remove('far', found!.id, undefined, { near: found!.near })).toBe(true);
    expect(await redis.lpos(layout.keys.ready('far'), payloadOf(deep, true))).toBeNull();
    expect(await redis.llen(layout.keys.ready('far'))).toBe(JOB_SEARCH_LIMIT + 999);
  });

  it('removes every match by the bytes its step read: a job further down the list than a look-up by id reaches, and not a copy that changed since', async () => {
    const laravel = await openLaravel('deep');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'deep');
    // The needle deeper than the 2,000 elements the job page and a removal by id look through.
    const ready = Array.from({ length: JOB_SEARCH_LIMIT + 100 }, (_, i) => payloadOf(i, i === JOB_SEARCH_LIMIT + 50));
    await redis.rpush(layout.keys.ready('deep'), ...ready);
    const remove = present(present(layout.lineRepairs).remove);
    expect(await remove('deep', `job${JOB_SEARCH_LIMIT + 50}`)).toBe(false);

    expect(await actOnEveryMatch(layout, 'remove', payloadQuery('s:6:"needle"'))).toMatchObject({ matched: 1, acted: 1, movedOn: 0 });
    expect(await redis.llen(layout.keys.ready('deep'))).toBe(JOB_SEARCH_LIMIT + 99);

    // A delayed copy whose bytes changed between the step and the removal (a release rewrites attempts) is another job to the removal: left.
    const delayed = payloadOf(9_000, true);
    await redis.zadd(layout.keys.delayed('deep'), 4102444800, delayed);
    const finder = finderOf(laravel);
    const [found] = (await finder.step(payloadQuery('s:6:"needle"', { states: ['delayed'] }), null, 0, { bytes: true })).matches;
    expect(found?.bytes?.toString()).toBe(delayed);
    await redis.zrem(layout.keys.delayed('deep'), delayed);
    await redis.zadd(layout.keys.delayed('deep'), 4102444800, delayed.replace('"attempts":0', '"attempts":1'));
    expect(await remove('deep', found!.id, undefined, { bytes: found!.bytes })).toBe(false);
    expect(await redis.zcard(layout.keys.delayed('deep'))).toBe(1);
    // A step not asked for bytes sends none.
    expect((await finder.step(payloadQuery('s:6:"needle"', { states: ['delayed'] }), null)).matches[0]?.bytes).toBeUndefined();
  });

  it('removes a ready job only near an end of a long list, and refuses one deeper, changing nothing', async () => {
    const laravel = await openLaravel('long');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'long');
    const length = 2 * READY_REMOVAL_REACH + 2_000;
    // Needles near the head, in the middle (beyond reach of both ends) and near the tail.
    const [nearHead, middle, nearTail] = [READY_REMOVAL_REACH - 1, length / 2, length - READY_REMOVAL_REACH];
    const needles = new Set([nearHead, middle, nearTail]);
    const ready = layout.keys.ready('long');
    for (let from = 0; from < length; from += 2_000)
      await redis.rpush(ready, ...Array.from({ length: 2_000 }, (_, i) => payloadOf(from + i, needles.has(from + i))));

    const step = await actOnEveryMatch(layout, 'remove', payloadQuery('s:6:"needle"'));
    // Found from the tail: the one near it is removed, the middle one refused, and the one after the refusal removed still.
    expect(step).toMatchObject({
      matched: 3,
      acted: 2,
      movedOn: 0,
      refused: 1,
      why: expect.stringMatching(/not near either end of .*long.*nothing was changed/),
    });
    expect(await redis.llen(ready)).toBe(length - 2);
    expect(await redis.lpos(ready, payloadOf(middle, true))).toBe(middle - 1);

    const remove = present(present(layout.lineRepairs).remove);
    const seen = (await findAll(finderOf(laravel), payloadQuery('s:6:"needle"'))).matches[0]!;
    await expect(remove('long', seen.id, undefined, { near: seen.near })).rejects.toThrow(/not near either end/);
    // Its page and its row on the line say why in place of a Remove; a row near the head offers it.
    const beyondReach = expect.stringContaining('a removal looks for a job among the 5,000 nearest either end of its list');
    const snapshots = present(layout.jobSnapshot);
    expect(await snapshots.read(seen.id, 'long', seen.near)).toMatchObject({ status: 'placed', unremovable: beyondReach });
    const line = present(layout.jobLine);
    const rowsOfPage = async (page: number) => (await line.read('long', { page })).sections[0]!.rows;
    expect((await rowsOfPage(Math.floor((middle - 1) / PAGE_ROWS) + 1)).find((row) => row.id === seen.id)).toMatchObject({ unremovable: beyondReach });
    expect((await rowsOfPage(1)).filter((row) => row.unremovable !== undefined)).toEqual([]);
    // Once the workers bring it within reach of the head, it goes.
    await redis.ltrim(ready, middle - READY_REMOVAL_REACH, -1);
    expect(await snapshots.read(seen.id, 'long', seen.near)).not.toHaveProperty('unremovable');
    expect(await remove('long', seen.id, undefined, { near: seen.near })).toBe(true);
    expect(await redis.lpos(ready, payloadOf(middle, true))).toBeNull();
  });

  it('reads a bounded chunk of the ready list or a sorted set per step, and resumes from the cursor', async () => {
    const laravel = await openLaravel('bulk');
    const { layout, redis } = laravel;
    const count = FIND_CHUNK + 30;
    // Every 50th carries the needle.
    const copyOf = await payloadCopies(laravel, 'bulk');
    const payloadOf = (i: number) => copyOf(i, i % 50 === 0);
    const ids = Array.from({ length: count }, (_, i) => `job${i}`);
    await redis.rpush(layout.keys.ready('bulk'), ...ids.map((_, i) => payloadOf(i)));
    await redis.zadd(layout.keys.delayed('bulk'), ...ids.flatMap((_, i) => [4102444800, payloadOf(count + i)]));
    const finder = finderOf(laravel);
    const query = payloadQuery('s:6:"needle"');

    // A few first, then as many payloads of this size as FIND_CHUNK allows.
    const first = await finder.step(query, null);
    expect(first.looked).toBe(FIRST_CHUNK);
    expect(first.about).toBe(count * 2);
    expect((await finder.step(query, first.cursor)).looked - first.looked).toBe(FIND_CHUNK);
    const { matches, looked, steps } = await findAll(finder, query);
    expect(looked).toBe(count * 2);
    expect(steps).toBeGreaterThanOrEqual(4);
    const wanted = Array.from({ length: count * 2 }, (_, i) => i).filter((i) => i % 50 === 0);
    expect(matches.map((match) => match.id).sort()).toEqual(wanted.map((i) => `job${i}`).sort());
    expect(statesById(matches)[`job${count + 20}`]).toBe('delayed');
  });
});

describe('the JSON spellings of a text, and JSON read back', () => {
  it('spells the text as json_encode and cjson write it, then as typed, each once', () => {
    expect(jsonSpellings('order-12345').map(String)).toEqual(['order-12345']);
    expect(jsonSpellings('App\\Jobs/é "x"\x7f').map(String)).toEqual([
      'App\\\\Jobs\\/é \\"x\\"\x7f',
      'App\\\\Jobs\\/é \\"x\\"\\u007f',
      'App\\\\Jobs\\/\\u00e9 \\"x\\"\x7f',
      'App\\Jobs/é "x"\x7f',
    ]);
    expect(String(jsonSpellings('😀')[1])).toBe('\\ud83d\\ude00');
  });

  it('reads escapes back, and leaves one the window cuts as it is', () => {
    const read = (json: string) => readableJson(Buffer.from(json, 'latin1')).toString('utf8');
    expect(read('"App\\\\Jobs\\\\Ship","a\\/b \\"q\\" \\u00e9 \\ud83d\\ude00 \\n"')).toBe('"App\\Jobs\\Ship","a/b "q" é 😀 \n"');
    expect(read('cut \\u00')).toBe('cut \\u00');
    expect(read('cut \\')).toBe('cut \\');
    expect(read('lone \\udc00 \\ud83d.')).toBe('lone \\udc00 \\ud83d.');
  });
});
