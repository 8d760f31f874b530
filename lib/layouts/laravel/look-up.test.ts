import { describe, expect, it } from 'vitest';
import { findLaravelJob, JOB_SEARCH_LIMIT, lookUpStep, QUEUES_LOOKED_IN_AT_ONCE } from './pages';
import { JOB_LOOK_UP_START, type JobLookUpCursor, type JobLookUpStep } from './scripts';
import { present, testLaravelFactory } from './test-laravel';
import type { SeenPlace } from '../../shapes/job-location';
import { watchCommands } from '../../redis/test-commands';

const openLaravel = testLaravelFactory();

type Laravel = Awaited<ReturnType<typeof openLaravel>>;

/** Payloads shaped as the real driver pushed one, each with an id of its own (`job{i}`) and `padding` bytes more in its command. */
async function payloadCopies({ layout, redis, laravel: driver }: Laravel, queue: string) {
  await driver.push('hay');
  const [template] = await redis.lrange(layout.keys.ready(queue), 0, 0);
  await redis.del(layout.keys.ready(queue), layout.keys.notify(queue));
  return (i: number, padding = 0) =>
    template!.replace(/"id":"\w+"/, `"id":"job${i}"`).replace('s:3:\\"hay\\"', `s:${3 + padding}:\\"hay${'y'.repeat(padding)}\\"`);
}

/** One step of looking `id` up in `queue` from `cursor`, reading at most `budget` payloads and about `byteBudget` bytes. */
function step({ layout }: Laravel, queue: string, id: string, cursor: JobLookUpCursor, budget = 200, byteBudget = 256 * 1024): Promise<JobLookUpStep> {
  return lookUpStep(layout.connection, layout.keys, { queue, id }, cursor, { budget, byteBudget });
}

function nextOf(step: JobLookUpStep): JobLookUpCursor {
  if (step.place !== 'more') throw new Error(`the step answered ${step.place}, not more`);
  return step.next;
}

/** A queue of `length` ready payloads (job0 at the head), and a look-up of its jobs, near where a page saw one where given. */
async function longList(queue: string, length = 6_000) {
  const laravel = await openLaravel(queue);
  const { layout, redis } = laravel;
  const payloadOf = await payloadCopies(laravel, queue);
  const key = layout.keys.ready(queue);
  await redis.rpush(key, ...Array.from({ length }, (_, i) => payloadOf(i)));
  const find = (id: string, near?: SeenPlace) => findLaravelJob(layout.connection, layout.keys, queue, id, near);
  return { layout, redis, key, payloadOf, find };
}

/** A queue of 5,000 ready payloads (job0 at the head), looked up a step of 200 at a time where a page saw the job: 2,000 places from the tail. */
async function seenNearTail(queue: string) {
  const { layout, redis, key, payloadOf } = await longList(queue, 5_000);
  const near = { from: 'tail', at: 2_000 } as const;
  const nearStep = (id: string, cursor: JobLookUpCursor) =>
    lookUpStep(layout.connection, layout.keys, { queue, id, near }, cursor, { budget: 200, byteBudget: 256 * 1024 });
  /** The steps from `cursor` on, until one answers (40 at most). */
  const walkOn = async (id: string, cursor: JobLookUpCursor) => {
    let answer = await nearStep(id, cursor);
    for (let steps = 0; answer.place === 'more' && steps < 40; steps++) answer = await nearStep(id, answer.next);
    return answer;
  };
  return { layout, redis, key, payloadOf, near, nearStep, walkOn };
}

describe('Looking a Laravel job up by its id', () => {
  it('reads a bounded step at a time, and finds a job far down the ready list at its place with its exact bytes', async () => {
    const laravel = await openLaravel('deep');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'deep');
    const ready = Array.from({ length: 1_600 }, (_, i) => payloadOf(i));
    await redis.rpush(layout.keys.ready('deep'), ...ready);

    const first = nextOf(await step(laravel, 'deep', 'job1500', JOB_LOOK_UP_START));
    expect(first).toMatchObject({ structure: 3, looked: 200, position: '199' });
    expect(first.anchor.toString()).toBe(ready[199]);

    const found = await findLaravelJob(layout.connection, layout.keys, 'deep', 'job1500');
    expect(found).toMatchObject({ place: 'ready', position: 1_500 });
    expect(found.place === 'ready' && found.payload.toString()).toBe(ready[1_500]);
  });

  it('skips no job when workers pop between two steps: it goes on after its last element, wherever that is now, or from the head once it was popped', async () => {
    const laravel = await openLaravel('busy');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'busy');
    await redis.rpush(layout.keys.ready('busy'), ...Array.from({ length: 900 }, (_, i) => payloadOf(i)));
    const key = layout.keys.ready('busy');

    let cursor = nextOf(await step(laravel, 'busy', 'job650', JOB_LOOK_UP_START));
    // 100 popped: the element read last (199) is at 99 now, and job200, unread, at 100; an offset would go on from 200 and skip 100 jobs.
    await redis.lpop(key, 100);
    cursor = nextOf(await step(laravel, 'busy', 'job650', cursor));
    expect(cursor.anchor.toString()).toBe(payloadOf(399));
    // The element read last popped too, with every one before it: the walk goes on from the head, where job450, unread, is now.
    await redis.lpop(key, 350);
    expect(await step(laravel, 'busy', 'job450', cursor)).toMatchObject({ place: 'ready', position: 0 });
    expect(await step(laravel, 'busy', 'job640', cursor)).toMatchObject({ place: 'ready', position: 190 });
  });

  it('finds a job in a long reserved or delayed set with its score', async () => {
    const laravel = await openLaravel('sets');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'sets');
    await redis.zadd(layout.keys.reserved('sets'), ...Array.from({ length: 700 }, (_, i) => [1_000 + i, payloadOf(i)]).flat());
    await redis.zadd(layout.keys.delayed('sets'), ...Array.from({ length: 700 }, (_, i) => [5_000 + i, payloadOf(1_000 + i)]).flat());

    expect(await findLaravelJob(layout.connection, layout.keys, 'sets', 'job650')).toMatchObject({ place: 'reserved', score: 1_650 });
    expect(await findLaravelJob(layout.connection, layout.keys, 'sets', 'job1650')).toMatchObject({ place: 'delayed', score: 5_650 });
    const gone = await findLaravelJob(layout.connection, layout.keys, 'sets', 'job9999');
    expect(gone).toMatchObject({ place: 'none', complete: true });
  });

  it('meets a job that a pop moves from the list to the reserved set between two steps, in its second look at the set', async () => {
    const laravel = await openLaravel('popped');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'popped');
    await redis.rpush(layout.keys.ready('popped'), ...Array.from({ length: 600 }, (_, i) => payloadOf(i)));

    let looking = await step(laravel, 'popped', 'job500', JOB_LOOK_UP_START);
    // A pop takes job500 once the walk has passed the reserved set (as Laravel's, with its attempts counted).
    await redis.lrem(layout.keys.ready('popped'), 1, payloadOf(500));
    await redis.zadd(layout.keys.reserved('popped'), 4_102_444_800, payloadOf(500).replace('"attempts":0', '"attempts":1'));
    while (looking.place === 'more') looking = await step(laravel, 'popped', 'job500', looking.next);
    expect(looking).toMatchObject({ place: 'reserved', score: 4_102_444_800 });
  });

  it('looks an id up in every queue, a few queues at a time, and lists each queue holding it', async () => {
    const laravel = await openLaravel('q0');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'q0');
    const names = Array.from({ length: 40 }, (_, n) => `q${n}`);
    for (const [n, name] of names.entries()) await redis.rpush(layout.keys.ready(name), payloadOf(n));
    // One payload pushed onto two queues: its id is in both.
    for (const name of ['q7', 'q33']) await redis.rpush(layout.keys.ready(name), payloadOf(9_999));
    const scripts = watchCommands(redis, ['evalsha', 'eval']);

    expect(await present(layout.jobSnapshot).read('job9999')).toEqual({ id: 'job9999', holders: ['q33', 'q7'], searched: [...names].sort() });
    expect(scripts.mostPending()).toBe(QUEUES_LOOKED_IN_AT_ONCE);
    expect(await present(layout.jobSnapshot).read('job21')).toMatchObject({ status: 'placed', queue: 'q21', places: [{ state: 'ready' }] });
  });

  it('looks at a small queue whole in one step, and says unsearched where a structure is longer than it looks', async () => {
    const laravel = await openLaravel('small');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'small');
    await redis.rpush(layout.keys.ready('small'), payloadOf(1), payloadOf(2));
    await redis.zadd(layout.keys.reserved('small'), 100, payloadOf(3));
    await redis.zadd(layout.keys.delayed('small'), 200, payloadOf(4));
    expect(await step(laravel, 'small', 'job4', JOB_LOOK_UP_START)).toMatchObject({ place: 'delayed', score: 200 });
    expect(await step(laravel, 'small', 'job9', JOB_LOOK_UP_START)).toMatchObject({ place: 'none', complete: true });

    await redis.rpush(layout.keys.ready('small'), ...Array.from({ length: JOB_SEARCH_LIMIT }, (_, i) => payloadOf(10 + i)));
    expect(await findLaravelJob(layout.connection, layout.keys, 'small', 'job9')).toMatchObject({ place: 'none', complete: false });
    expect(await present(layout.jobSnapshot).read('job9', 'small')).toMatchObject({ status: 'unsearched' });
  });

  it('finds a job deeper than its bound near where a page saw it, from the head or the tail, after pops and pushes moved it', async () => {
    const { layout, redis, key, payloadOf, find } = await longList('long');
    expect(await find('job4000')).toMatchObject({ place: 'none', complete: false });

    // Seen at head index 4,000 (the line's page); 1,500 popped since: it is at 2,500 now, and the walk from the tail reads around where it must be.
    await redis.lpop(key, 1_500);
    const fromHead = await find('job4000', { from: 'head', at: 4_000 });
    expect(fromHead).toMatchObject({ place: 'ready', position: 2_500 });
    expect(fromHead.place === 'ready' && fromHead.payload.toString()).toBe(payloadOf(4_000));

    // Seen 3,499 places from the tail (Find); 1,500 pushed since: 4,999 from the tail now, still 1,000 from the head.
    await redis.rpush(key, ...Array.from({ length: 1_500 }, (_, i) => payloadOf(10_000 + i)));
    expect(await find('job2500', { from: 'tail', at: 3_499 })).toMatchObject({ place: 'ready', position: 1_000 });
    // A removal behind it brought it a place nearer the tail than where it was seen.
    await redis.lrem(key, 1, payloadOf(10_500));
    expect(await find('job2500', { from: 'tail', at: 4_999 })).toMatchObject({ place: 'ready', position: 1_000 });

    // Not within the walk's reach of that place: unsearched, and the page says where it looked.
    expect(await find('job2500', { from: 'tail', at: 500 })).toMatchObject({ place: 'none', complete: false });
    expect(await present(layout.jobSnapshot).read('job2500', 'long', { from: 'tail', at: 500 })).toMatchObject({
      status: 'unsearched',
      statusText: expect.stringContaining('up to 4,000 elements of its queue’s ready list around place 501 from its tail'),
    });
    // Found near a place, its page hands a repair the place it is at now.
    expect(await present(layout.jobSnapshot).read('job2500', 'long', { from: 'tail', at: 4_998 })).toMatchObject({
      status: 'placed',
      near: { from: 'head', at: 1_000, length: 5_999 },
    });
  });

  it('counts a place seen with its list’s length further from the tail by as much as the list grew since, from the tail or the head', async () => {
    const { redis, key, payloadOf, find } = await longList('grown');

    // Seen 500 places from the tail of 6,000 (Find); 3,000 pushed since: 3,500 from the tail now, beyond the walk around 500.
    await redis.rpush(key, ...Array.from({ length: 3_000 }, (_, i) => payloadOf(10_000 + i)));
    expect(await find('job5499', { from: 'tail', at: 500 })).toMatchObject({ place: 'none', complete: false });
    expect(await find('job5499', { from: 'tail', at: 500, length: 6_000 })).toMatchObject({ place: 'ready', position: 5_499, length: 9_000 });

    // Seen at head index 4,000 of 9,000 (the line's page); 3,000 popped since: 4,999 from the tail still, where the list's length now puts 1,999.
    await redis.lpop(key, 3_000);
    expect(await find('job4000', { from: 'head', at: 4_000 })).toMatchObject({ place: 'none', complete: false });
    expect(await find('job4000', { from: 'head', at: 4_000, length: 9_000 })).toMatchObject({ place: 'ready', position: 1_000, length: 6_000 });
  });

  it('reads a bounded step at a time near a place, and skips no job when workers pop and push between two steps', async () => {
    const { redis, key, payloadOf, nearStep, walkOn } = await seenNearTail('near');
    let cursor = JOB_LOOK_UP_START;
    for (let i = 0; i < 3 && cursor.structure < 3; i++) cursor = nextOf(await nearStep('job1000', cursor));
    // The sets are empty: the first step reads 200 of the list, nearest the tail first, from 100 places nearer the tail than the place seen.
    expect(cursor).toMatchObject({ structure: 3, looked: 200, position: '2100' });
    // Pops move no place counted from the tail; pushes move the unread ones away from it, and the walk reads a few again.
    await redis.lpop(key, 500);
    await redis.rpush(key, ...Array.from({ length: 50 }, (_, i) => payloadOf(9_000 + i)));
    expect(await walkOn('job2700', cursor)).toMatchObject({ place: 'ready', position: 2_200 });
  });

  it('finds a job that more than 100 removals nearer the tail moved past where the walk away from the tail starts, walking back towards the tail', async () => {
    const { layout, redis, key, payloadOf, near } = await seenNearTail('removed');
    // Seen 2,000 places from the tail; 300 removed nearer the tail since: 1,700 from it now, 200 nearer than the walk away from it starts.
    await redis.rpop(key, 300);
    const found = await findLaravelJob(layout.connection, layout.keys, 'removed', 'job2999', near);
    expect(found).toMatchObject({ place: 'ready', position: 2_999 });
    expect(found.place === 'ready' && found.payload.toString()).toBe(payloadOf(2_999));
  });

  it('goes on from its last element read wherever removals or pushes nearer the tail moved it between two steps, in either direction', async () => {
    const { redis, key, payloadOf, nearStep, walkOn } = await seenNearTail('shifted');

    // Away from the tail: places 1,900 to 2,099 read. 20 removed nearer the tail move job2894, unread at 2,105, to 2,085: an offset going on at 2,100 would skip it.
    let cursor = JOB_LOOK_UP_START;
    while (cursor.structure < 3 || cursor.looked === 0) cursor = nextOf(await nearStep('job2894', cursor));
    expect(cursor).toMatchObject({ structure: 3, looked: 200, position: '2100' });
    await redis.rpop(key, 20);
    expect(await walkOn('job2894', cursor)).toMatchObject({ place: 'ready', position: 2_894 });

    // Towards the tail: job2999, seen at 2,000, is at 1,695 after 285 more removed, unread once the step stops a few places further from the
    // tail. 20 pushed move it past where that step stopped: an offset going on there would skip it.
    await redis.rpop(key, 285);
    cursor = JOB_LOOK_UP_START;
    while (cursor.structure < 4 || cursor.looked === 0) cursor = nextOf(await nearStep('job2999', cursor));
    expect(cursor.structure).toBe(4);
    expect(Number(cursor.position)).toBeGreaterThanOrEqual(1_695);
    expect(Number(cursor.position)).toBeLessThan(1_695 + 20);
    await redis.rpush(key, ...Array.from({ length: 20 }, (_, i) => payloadOf(9_000 + i)));
    expect(await walkOn('job2999', cursor)).toMatchObject({ place: 'ready', position: 2_999 });
  });

  it('walks towards the tail from the first element the walk away read, wherever pushes and removals moved it meanwhile', async () => {
    const { redis, key, payloadOf, nearStep, walkOn } = await seenNearTail('between');

    // job2999, seen at 2,000, is at 1,899 after 101 removed nearer the tail: next to job2998, at 1,900, where the walk away from the tail starts.
    await redis.rpop(key, 101);
    const first = nextOf(await nearStep('job2999', JOB_LOOK_UP_START));
    expect(first).toMatchObject({ structure: 3, looked: 200, position: '2100' });
    expect(first.boundary.toString()).toBe(payloadOf(2_998));
    // 20 pushed move both 20 places from the tail; 3 removed among those the walk read leave it 3 places nearer the tail than its count says.
    await redis.rpush(key, ...Array.from({ length: 20 }, (_, i) => payloadOf(9_000 + i)));
    for (const removed of [2_946, 2_947, 2_948]) await redis.lrem(key, 1, payloadOf(removed));
    expect(await walkOn('job2999', first)).toMatchObject({ place: 'ready', position: 2_996 });
  });

  it('looks first at the score a page saw a job at, so that one of a set larger than its bound, which ZSCAN reads in no order, is found in one step', async () => {
    const laravel = await openLaravel('sets');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'sets');
    const key = layout.keys.delayed('sets');
    // 3,000 delayed, each due a second after the one before; 60 more due at the same second as job2500.
    await redis.zadd(key, ...Array.from({ length: 3_000 }, (_, i) => [4_000_000_000 + i, payloadOf(i)]).flat());
    await redis.zadd(key, ...Array.from({ length: 60 }, (_, i) => [4_000_002_500, payloadOf(5_000 + i)]).flat());
    const atScore = { from: 'score', at: 4_000_002_500 } as const;
    const nearStep = (id: string, cursor: JobLookUpCursor, budget: number) =>
      lookUpStep(layout.connection, layout.keys, { queue: 'sets', id, near: atScore }, cursor, { budget, byteBudget: 256 * 1024 });

    // The reserved set holds none at that score; the delayed set's members at it are read first: found, with its score.
    expect(await nearStep('job2500', JOB_LOOK_UP_START, 100)).toMatchObject({ place: 'delayed', score: 4_000_002_500 });
    // Its page says so, for a repair to look there too; Run now finds it the same way.
    expect(await present(layout.jobSnapshot).read('job2500', 'sets', atScore)).toMatchObject({ status: 'placed', near: atScore });
    expect(await present(present(layout.lineRepairs).runDelayedNow)('sets', 'job2500', { near: atScore })).toBe(true);
    expect(await redis.lrange(layout.keys.ready('sets'), 0, -1)).toEqual([payloadOf(2500)]);
    // A score another producer wrote that is no whole second is looked at as it is.
    await redis.zadd(key, '4000000000.25', payloadOf(7_000));
    const fractional = { from: 'score', at: 4_000_000_000.25 } as const;
    expect(
      await lookUpStep(layout.connection, layout.keys, { queue: 'sets', id: 'job7000', near: fractional }, JOB_LOOK_UP_START, {
        budget: 100,
        byteBudget: 256 * 1024,
      }),
    ).toMatchObject({
      place: 'delayed',
      score: 4_000_000_000.25,
    });
  });

  it('walks the set as before when more share the score than its look reads, and a step spent on that look does not look again', async () => {
    const laravel = await openLaravel('same');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'same');
    // 60 due in the same second: members of one score come in byte order, job5059 the last of them, past the 50 the look reads.
    await redis.zadd(layout.keys.delayed('same'), ...Array.from({ length: 60 }, (_, i) => [4_000_000_000, payloadOf(5_000 + i)]).flat());
    const atScore = { from: 'score', at: 4_000_000_000 } as const;
    const nearStep = (cursor: JobLookUpCursor, budget: number) =>
      lookUpStep(layout.connection, layout.keys, { queue: 'same', id: 'job5059', near: atScore }, cursor, { budget, byteBudget: 256 * 1024 });

    const cursor = nextOf(await nearStep(JOB_LOOK_UP_START, 10));
    expect(cursor).toMatchObject({ structure: 2, looked: 0, position: '0' });
    expect(await nearStep(cursor, 100)).toMatchObject({ place: 'delayed', score: 4_000_000_000 });
    expect(await findLaravelJob(layout.connection, layout.keys, 'same', 'job5059', atScore)).toMatchObject({ place: 'delayed' });
  });

  it('stops a step of large payloads at about its byte budget, having read the first one to learn their size', async () => {
    const laravel = await openLaravel('large');
    const { layout, redis } = laravel;
    const payloadOf = await payloadCopies(laravel, 'large');
    await redis.rpush(layout.keys.ready('large'), ...Array.from({ length: 40 }, (_, i) => payloadOf(i, 100 * 1024)));

    // The first one read tells their size: four more fit the budget, then one (the budget then holds less than one).
    const large = nextOf(await step(laravel, 'large', 'job30', JOB_LOOK_UP_START, 200, 600 * 1024));
    expect(large).toMatchObject({ structure: 3, looked: 6 });
    expect(await findLaravelJob(layout.connection, layout.keys, 'large', 'job30')).toMatchObject({ place: 'ready', position: 30 });
  });
});
