import { describe, expect, it } from 'vitest';
import { detectLayouts } from '../detect';
import { isAbsent } from '../adapter';
import { isJobIdAcrossQueues, type JobSnapshot, type LineRepairs } from '../pages';
import { patternUnder } from '../../redis/scan-keys';
import { trashArguments } from '../trash';
import { findLaravelJob } from './pages';
import { remove } from './scripts';
import { READY_REMOVAL_REACH } from '../line-repairs';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory();

function repairs(lineRepairs: LineRepairs | { absent: string }) {
  const all = present(lineRepairs);
  const { remove, runDelayedNow, releaseExpired } = all;
  if (isAbsent(remove) || isAbsent(runDelayedNow) || isAbsent(releaseExpired)) throw new Error('a Laravel line repair is absent');
  return { remove, runDelayedNow, releaseExpired };
}

describe('Laravel’s RedisQueue, run for real (Debian’s Laravel 8.83, phpredis), read and repaired by QueueLens', () => {
  it('counts, lines, reservations and the delayed timeline agree with what Laravel wrote and its size()', async () => {
    const { layout, redis, prefix, laravel } = await openLaravel();
    const [a, b, c] = [await laravel.push('a'), await laravel.push('b'), await laravel.push('c')];
    expect(await laravel.pop(60)).toMatchObject({ id: a, attempts: 1, name: 'a' });
    // A retry_after in the past: b's reservation has expired already, and no pop has put it back.
    expect(await laravel.pop(-10)).toMatchObject({ id: b, attempts: 1, name: 'b' });
    const d = await laravel.later(600);
    const e = await laravel.later(-5);

    const counts = await layout.counts();
    expect(counts.failed).toBeNull();
    expect(counts.queues).toHaveLength(1);
    const [queue] = counts.queues;
    expect(queue).toMatchObject({ queue: 'default', pending: 2, delayed: 1, reserved: 2, total: 5, dueDelayed: 1, expiredReserved: 1, notifyTokens: 1 });
    expect(queue!.statistics.size).toBe(await laravel.size());

    const written = [];
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', patternUnder(prefix), 'COUNT', 250);
      written.push(...keys);
      if ((cursor = next) === '0') break;
    }
    const table = await present(layout.keyTable).read();
    expect(table.mismatches).toBe(0);
    expect(table.keys.filter((row) => row.type !== 'none').map((row) => row.key)).toEqual(expect.arrayContaining(written));
    expect(written).toHaveLength(4);

    const line = await present(layout.jobLine).read('default', { page: 1 });
    // Each row says where it is, and in a list how long, for its page and repairs to look there.
    expect(line.sections[0]!.rows).toEqual([
      { place: 1, id: c, name: 'HarnessJob', attempts: 0, priority: null, note: null, near: { from: 'head', at: 0, length: 1 } },
    ]);

    const reservations = await present(layout.expiringReservations).read({ queue: 'default', page: 1 });
    expect(reservations.queues[0]).toMatchObject({ total: 2, live: 1, expired: 1 });
    // Told which queues to look in (a count found reservations in), it reads those alone.
    expect((await present(layout.expiringReservations).read({ page: 1, among: ['default'] })).queues.map((each) => each.queue)).toEqual(['default']);
    expect((await present(layout.expiringReservations).read({ page: 1, among: [] })).queues).toEqual([]);
    expect(reservations.queues[0]!.rows.map(({ id, attempts, expired }) => ({ id, attempts, expired }))).toEqual([
      { id: b, attempts: 1, expired: true },
      { id: a, attempts: 1, expired: false },
    ]);
    for (const row of reservations.queues[0]!.rows) expect(row.near).toEqual({ from: 'score', at: row.expiresAt });

    const timeline = await present(layout.dueTimeline).read('default');
    expect(timeline).toMatchObject({ total: 2, overdue: 1 });
    expect(timeline.next.map((job) => job.id)).toEqual([e, d]);
    for (const job of timeline.next) expect(job.near).toEqual({ from: 'score', at: job.dueAt });

    const snapshot = (await present(layout.jobSnapshot).read(c, 'default')) as JobSnapshot;
    expect(snapshot).toMatchObject({ status: 'placed', name: 'HarnessJob', attempts: 0, places: [{ state: 'ready' }] });
    expect(snapshot.message!.data.kind).toBe('php');
    expect(JSON.stringify(snapshot.message!.data)).toContain('<b>not markup</b>');
    const byIdAlone = await present(layout.jobSnapshot).read(b);
    expect(isJobIdAcrossQueues(byIdAlone)).toBe(false);
    expect(byIdAlone).toMatchObject({ queue: 'default', places: [{ state: 'reserved' }], attempts: 1 });

    const detection = await detectLayouts(redis, { match: patternUnder(prefix.slice(0, -'laravel_database_'.length)), ownPrefix: `${prefix}ql:` });
    expect(detection.found).toEqual([expect.objectContaining({ layout: 'laravel', prefix, queues: ['default'] })]);
  });

  it('repairs from QueueLens, then the real pop runs every job that is left exactly once and loses none', async () => {
    const { layout, laravel } = await openLaravel();
    const { remove, runDelayedNow, releaseExpired } = repairs(layout.lineRepairs);
    const [a, b, c] = [await laravel.push('a'), await laravel.push('b'), await laravel.push('c')];
    await laravel.pop(60);
    await laravel.pop(-10);
    const [d, f] = [await laravel.later(600), await laravel.push('f')];
    const g = await laravel.later(600);

    await expect(releaseExpired('default', a)).rejects.toThrow(/has not run out|live|not expired/i);
    expect(await releaseExpired('default', b)).toBe(true);
    expect(await releaseExpired('default', b)).toBe(false);
    expect(await runDelayedNow('default', d)).toBe(true);
    expect(await runDelayedNow('default', d)).toBe(false);
    expect(await remove('default', c)).toBe(true);
    expect(await remove('default', c)).toBe(false);
    expect(await remove('default', g)).toBe(true);
    // a's worker still holds it; removing its reservation leaves its own delete a no-op.
    expect(await remove('default', a)).toBe(true);
    const counted = (await layout.counts()).queues[0]!;
    expect(counted.statistics.size).toBe(await laravel.size());
    expect(counted.notifyTokens).toBe(4);

    const ran = await laravel.drain();
    // f was in line before the repairs; the released b and the run-now d joined the tail in that order, as Laravel's migrate appends.
    expect(ran.map((job) => job.id)).toEqual([f, b, d]);
    expect(ran.find((job) => job.id === b)!.attempts).toBe(2);
    expect(await laravel.size()).toBe(0);
    // Only the notify token of the removed ready job c is left: a blocking pop wakes once for nothing.
    expect((await layout.counts()).queues).toEqual([expect.objectContaining({ queue: 'default', total: 0, notifyTokens: 1 })]);
  });

  it('ends a live reservation as expired: the next pop runs it again, unless its worker settles it first', async () => {
    const { layout, laravel, redis } = await openLaravel();
    const reclaim = present(layout.lineRepairs).reclaim;
    if (isAbsent(reclaim)) throw new Error(`absent: ${reclaim.absent}`);
    const [dead, alive] = [await laravel.push('dead'), await laravel.push('alive')];
    await laravel.pop(600);
    await laravel.pop(600);
    // Both were reserved in the same second, so their order in the set is their bytes': pick alive's by its id.
    const reserved = await redis.zrangeBuffer(layout.keys.reserved('default'), '0', '-1');
    const aliveBytes = reserved.find((member) => (JSON.parse(member.toString()) as { id: string }).id === alive);
    expect(await reclaim('default', dead)).toBe(true);
    expect(await reclaim('default', dead)).toBe(false);
    expect(await reclaim('default', alive)).toBe(true);
    // alive's worker finishes before any pop: Laravel's deleteReserved is a ZREM of the exact reserved bytes, done here by hand.
    expect(await redis.zrem(layout.keys.reserved('default'), aliveBytes!)).toBe(1);
    const ran = await laravel.drain();
    expect(ran.map((job) => [job.id, job.attempts])).toEqual([[dead, 2]]);
    expect(await laravel.size()).toBe(0);
    expect(await reclaim('default', dead)).toBe(false);
  });

  it('moves due delayed jobs in bounded steps as the pop’s migrate would, and the real pop runs each once', async () => {
    const { layout, laravel, redis } = await openLaravel();
    const moveDueJobs = present(layout.lineRepairs).moveDueJobs;
    if (isAbsent(moveDueJobs)) throw new Error(`absent: ${moveDueJobs.absent}`);
    const due = [await laravel.later(-30), await laravel.later(-20), await laravel.later(-10)];
    const later = await laravel.later(3600);
    const dueBytes = await redis.zrangebyscoreBuffer(layout.keys.delayed('default'), '-inf', '+inf');

    expect(await moveDueJobs('default')).toEqual({ moved: 3, stillDue: 0 });
    expect(await moveDueJobs('default')).toEqual({ moved: 0, stillDue: 0 });
    // The exact bytes, earliest due first, each with a token: as Laravel's migrate appends them.
    expect(await redis.lrangeBuffer(layout.keys.ready('default'), 0, -1)).toEqual(dueBytes.slice(0, 3));
    expect(await redis.llen(layout.keys.notify('default'))).toBe(3);
    expect((await laravel.drain()).map((job) => job.id)).toEqual(due);
    expect(await redis.zcard(layout.keys.delayed('default'))).toBe(1);
    expect(await findLaravelJob(layout.connection, layout.keys, 'default', later)).toMatchObject({ place: 'delayed' });
  });

  it('shows a job the real worker released in the delayed timeline with its attempts, and loses sight of one it deleted', async () => {
    const { layout, laravel } = await openLaravel();
    const [kept, done] = [await laravel.push('kept'), await laravel.push('done')];
    expect(await laravel.release(kept, 300)).toBe(true);
    expect(await laravel.delete(done)).toBe(true);
    const timeline = await present(layout.dueTimeline).read('default');
    expect(timeline.next).toEqual([expect.objectContaining({ id: kept, attempts: 1, note: 'released back after a run: its attempts count it' })]);
    expect(await present(layout.jobSnapshot).read(done, 'default')).toMatchObject({ status: 'gone' });
    expect((await layout.counts()).queues[0]).toMatchObject({ pending: 0, delayed: 1, reserved: 0, total: await laravel.size() });
  });

  it('acts only on the exact bytes it read: a payload the real pop re-encoded in between is left alone, and nothing is trashed', async () => {
    const { layout, redis, prefix, laravel } = await openLaravel();
    const id = await laravel.push('raced');
    const seen = await findLaravelJob(layout.connection, layout.keys, 'default', id);
    expect(seen.place).toBe('ready');
    expect(await laravel.pop(60)).toMatchObject({ id, attempts: 1 });
    const call = { ready: layout.keys.ready('default'), delayed: layout.keys.delayed('default'), reserved: layout.keys.reserved('default') };
    const trash = { dashboardPrefix: `${prefix}ql:`, keepSeconds: 3600, maxEntries: 100, maxBytes: 1 << 30, who: 'alice', via: 'dashboard' };
    const kept = trashArguments(prefix, trash);
    expect(
      await remove.run(redis, { ...call, payload: (seen as { payload: Buffer }).payload, id, queue: 'default', ...kept, reach: READY_REMOVAL_REACH }),
    ).toBe(false);
    expect((await layout.counts()).queues[0]).toMatchObject({ reserved: 1, total: 1 });
    expect(await redis.exists(kept.trashIndex)).toBe(0);
  });

  it('refuses an id that is not Laravel’s before it reaches Redis, and answers false for one that is nowhere', async () => {
    const { layout, laravel } = await openLaravel();
    await laravel.push('x');
    const { remove } = repairs(layout.lineRepairs);
    await expect(remove('default', '"id":"*')).rejects.toThrow(/letters, digits and dashes/);
    expect(await remove('default', 'A'.repeat(32))).toBe(false);
    expect(await present(layout.jobSnapshot).read('A'.repeat(32), 'default')).toMatchObject({ status: 'gone' });
    await expect(present(layout.jobLine).read('made-up', { page: 1 })).rejects.toMatchObject({
      notFound: true,
      message: expect.stringMatching(/^No queue "made-up" on this connection.*Laravel keeps no list/),
    });
  });
});
