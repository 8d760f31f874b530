import { describe, expect, it } from 'vitest';
import { lineRepairOffer, lineRepairOrThrow, READY_REMOVAL_REACH } from '../line-repairs';
import { PAGE_ROWS, type JobLineReader, type LineRepairs } from '../pages';
import { MARKO_MOVES_DUE_JOBS } from './absent';
import { MAIL_JOB, present, testMarkoFactory } from './test-layout';

const openMarko = testMarkoFactory();

describe('marko’s line repairs, with a worker popping the way marko’s pop does', () => {
  it('removes a job from wherever it waits and its hash, so the next pop takes the job behind it; false once it is gone', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const remove = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'remove');
    const first = await worker.push('mail', MAIL_JOB);
    const second = await worker.push('mail', MAIL_JOB);
    const delayed = await worker.later(600, 'mail', MAIL_JOB);
    expect(await remove('mail', first)).toBe(true);
    expect(await redis.exists(keys.job(first))).toBe(0);
    expect(await remove('mail', delayed)).toBe(true);
    expect(await redis.zcard(keys.delayed('mail'))).toBe(0);
    expect((await worker.pop('mail'))!.id).toBe(second);
    // Reserved: out of the reserved set, and the worker's own delete() then finds nothing.
    expect(await remove('mail', second)).toBe(true);
    expect(await redis.zcard(keys.reserved('mail'))).toBe(0);
    expect(await worker.complete('mail', second)).toBe(false);
    expect(await remove('mail', second)).toBe(false);
    expect(await worker.pop('mail')).toBeNull();
  });

  it('takes an id from the end of a long ready list it is near, and refuses one deeper than a removal looks, changing nothing', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const remove = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'remove');
    const ready = keys.ready('mail');
    const filler = (from: number) => Array.from({ length: READY_REMOVAL_REACH + 1_000 }, (_, i) => `filler-${from + i}`);
    const nearHead = await worker.push('mail', MAIL_JOB);
    await redis.rpush(ready, ...filler(0));
    const middle = await worker.push('mail', MAIL_JOB);
    await redis.rpush(ready, ...filler(READY_REMOVAL_REACH + 1_000));
    const nearTail = await worker.push('mail', MAIL_JOB);
    const delayed = await worker.later(600, 'mail', MAIL_JOB);
    const length = await redis.llen(ready);
    expect(await redis.lpos(ready, middle)).toBe(READY_REMOVAL_REACH + 1_001);

    await expect(remove('mail', middle)).rejects.toThrow(/not near either end of .*mail.*nothing was changed/);
    expect(await redis.llen(ready)).toBe(length);
    // Its row on the line says why in place of a Remove; a row near an end offers it.
    const line = present<JobLineReader>(layout.jobLine);
    const rowsAround = async (index: number) => (await line.read('mail', { page: Math.floor(index / PAGE_ROWS) + 1 })).sections[0]!.rows;
    expect((await rowsAround(READY_REMOVAL_REACH + 1_001)).find((row) => row.id === middle)).toMatchObject({
      unremovable: expect.stringContaining('a removal looks for a job among the 5,000 nearest either end of its list'),
    });
    expect((await rowsAround(0)).filter((row) => row.unremovable !== undefined)).toEqual([]);
    expect(await redis.exists(keys.job(middle))).toBe(1);
    for (const id of [nearHead, nearTail, delayed]) expect(await remove('mail', id)).toBe(true);
    expect(await redis.llen(ready)).toBe(length - 2);
    // Gone (no hash, in no set): nothing deeper to lose, so false rather than refused.
    expect(await remove('mail', nearHead)).toBe(false);
    // Once the workers bring it within reach of the head, it goes.
    await redis.ltrim(ready, 1_001, -1);
    expect(await remove('mail', middle)).toBe(true);
    expect(await redis.lpos(ready, middle)).toBeNull();
  });

  it('puts an expired reservation back so the next pop takes it again with its attempts; refuses a live one, and answers false when it is no longer reserved', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const release = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'releaseExpired');
    const now = await worker.now();
    const live = await worker.push('mail', MAIL_JOB);
    const stuck = await worker.push('mail', MAIL_JOB);
    // Popped at an earlier second last (a pop at a later one would put it back itself): reserved 200 s ago with retry_after 90, expired 110 s ago.
    expect((await worker.pop('mail', { now }))!.id).toBe(live);
    expect((await worker.pop('mail', { now: now - 200 }))!.id).toBe(stuck);
    await expect(release('mail', live)).rejects.toThrow(/has not run out yet/);
    expect(await redis.zscore(keys.reserved('mail'), live)).toBe(String(now + 90));

    expect(await release('mail', stuck)).toBe(true);
    expect(await redis.zscore(keys.reserved('mail'), stuck)).toBeNull();
    expect(Number(await redis.zscore(keys.delayed('mail'), stuck))).toBeLessThan(now + 1);
    const again = (await worker.pop('mail'))!;
    expect(again).toMatchObject({ id: stuck, attempts: 1 });
    await worker.complete('mail', stuck);
    expect(await release('mail', stuck)).toBe(false);
  });

  it('ends a live reservation so the next pop takes the job again; false when it is not reserved', async () => {
    const { layout, worker } = await openMarko();
    const reclaim = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'reclaim');
    const id = await worker.push('mail', MAIL_JOB);
    await worker.pop('mail');
    expect(await worker.pop('mail')).toBeNull();
    expect(await reclaim('mail', id)).toBe(true);
    expect(await worker.pop('mail')).toMatchObject({ id, attempts: 1 });
    await worker.complete('mail', id);
    expect(await reclaim('mail', id)).toBe(false);
  });

  it('makes a delayed job due so the next pop takes it, leaves the others delayed, and answers false for a job no longer delayed', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const runNow = lineRepairOrThrow(present<LineRepairs>(layout.lineRepairs), 'runDelayedNow');
    const soon = await worker.later(600, 'mail', MAIL_JOB);
    const wanted = await worker.later(3600, 'mail', MAIL_JOB);
    expect(await worker.pop('mail')).toBeNull();
    expect(await runNow('mail', wanted)).toBe(true);
    expect((await worker.pop('mail'))!.id).toBe(wanted);
    expect(await redis.zrange(keys.delayed('mail'), '0', '-1')).toEqual([soon]);
    expect(await runNow('mail', wanted)).toBe(false);
  });

  it('leaves moving due jobs to marko’s pop and says why, and refuses a queue the connection does not name', async () => {
    const { layout } = await openMarko({ queues: ['mail'] });
    const repairs = present<LineRepairs>(layout.lineRepairs);
    expect(lineRepairOffer(repairs)).toEqual({ remove: null, releaseExpired: null, reclaim: null, runDelayedNow: null, moveDueJobs: MARKO_MOVES_DUE_JOBS });
    expect(() => lineRepairOrThrow(repairs, 'moveDueJobs')).toThrow(`${MARKO_MOVES_DUE_JOBS}.`);
    await expect(lineRepairOrThrow(repairs, 'remove')('sms', 'x')).rejects.toThrow('This connection reads no marko queue named sms');
  });
});
