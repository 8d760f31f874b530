import { describe, expect, it } from 'vitest';
import type { ReservedJob } from './job';
import { sleep, testQueueFactory } from './test-redis';
import { isAbsent } from '../adapter';
import { PAGE_ROWS } from '../pages';
import { staticphpLayout } from './layout';
import { findParkingHazard, pageOfReservations, readReservations, type ReservationRow, type Reservations } from './reservations';

const openQueue = testQueueFactory();

function rowOf(reservations: Reservations, jobId: number | null, entry?: string): ReservationRow {
  const row = reservations.holders
    .flatMap((group) => group.rows)
    .find((candidate) => candidate.jobId === jobId && (entry === undefined || candidate.entry === entry));
  if (!row) throw new Error(`no row for job ${jobId}`);
  return row;
}

describe('readReservations', () => {
  it('classifies running, overdue, tombstone and mismatch entries and groups them by holder', async () => {
    const queue = await openQueue();
    const [running, overdue, gone, parked, unmarked, deleted] = await queue.pushMany(
      ['running', 'overdue', 'gone', 'parked', 'unmarked', 'deleted'].map((name) => ({ queue: 'mail', name, payload: {} })),
    );
    const held = (await queue.reserve(['mail'], 'web-1:100', 300))!;
    expect(held.id).toBe(running);
    await queue.reserve(['mail'], 'web-2:200', 1);
    const goneJob = (await queue.reserve(['mail'], 'web-1:100', 300))!;
    const parkedJob = (await queue.reserve(['mail'], 'web-1:100', 300))!;
    const unmarkedJob = (await queue.reserve(['mail'], 'web-1:100', 300))!;
    const deletedJob = (await queue.reserve(['mail'], 'web-1:100', 300))!;
    // Pushed to and never reserved from: no group, nothing pending, no error.
    await queue.push('quiet', 'waiting', {});

    await queue.redis.del(queue.keys.job(gone!));
    await queue.redis.hset(queue.keys.job(parked!), 'entry', '');
    await queue.redis.hset(queue.keys.job(unmarked!), 'reserved_by', '', 'reserved_until', '0');
    // Deleted from the stream by hand; its pending record stays behind.
    await queue.redis.xdel(queue.keys.stream('mail', 0), deletedJob.entry);
    await sleep(1100);

    const reservations = await readReservations(queue);

    expect(reservations.counts).toEqual({ running: 1, overdue: 1, tombstone: 2, mismatch: 2 });
    expect(reservations.total).toBe(6);
    expect(reservations.errors).toEqual([]);
    expect(reservations.holders.map((group) => group.holder)).toEqual(['web-1:100', 'web-2:200', null]);
    expect(rowOf(reservations, running!)).toMatchObject({
      state: 'running',
      queue: 'mail',
      level: '0',
      stream: queue.keys.stream('mail', 0),
      entry: held.entry,
      name: 'running',
      reservedBy: 'web-1:100',
      reservedUntil: held.fields.reserved_until,
      attempts: '1',
      maxAttempts: '3',
      deliveries: 1,
      timeoutSeconds: 300,
    });
    expect(rowOf(reservations, running!).idleMs).toBeGreaterThanOrEqual(1000);
    expect(rowOf(reservations, overdue!)).toMatchObject({ state: 'overdue', reservedBy: 'web-2:200', timeoutSeconds: 1 });
    expect(rowOf(reservations, gone!)).toMatchObject({ state: 'tombstone', entry: goneJob.entry, name: null, reservedBy: '' });
    expect(rowOf(reservations, parked!)).toMatchObject({
      state: 'mismatch',
      entry: parkedJob.entry,
      mismatch: expect.stringContaining('no longer handed out'),
    });
    expect(rowOf(reservations, unmarked!)).toMatchObject({ state: 'mismatch', entry: unmarkedJob.entry, mismatch: 'the job says it is not reserved' });
    expect(rowOf(reservations, null, deletedJob.entry)).toMatchObject({ state: 'tombstone', jobId: null });
    expect(deleted).toBe(deletedJob.id);
    // 300 s against 1 s: a reclaim by web-2 would park web-1's jobs.
    expect(reservations.parkingHazard).toEqual({
      holders: [
        { holder: 'web-2:200', timeoutSeconds: 1 },
        { holder: 'web-1:100', timeoutSeconds: 300 },
      ],
    });
    // Reading changed nothing and created no group.
    expect(await queue.redis.exists(queue.keys.stream('quiet', 0))).toBe(1);
    await expect(queue.redis.xpending(queue.keys.stream('quiet', 0), queue.settings.group)).rejects.toThrow(/NOGROUP/);
  });

  it('pages through a pending list longer than one XPENDING page, and stops at its bound saying so', async () => {
    const queue = await openQueue();
    const ids = await queue.pushMany(Array.from({ length: 25 }, (_, n) => ({ queue: 'bulk', name: `job.${n}`, payload: { n }, options: { priority: n % 2 } })));
    await queue.push('other', 'one', {});
    for (let n = 0; n < 25; n++) await queue.reserve(['bulk'], 'web-1:1', 300);
    await queue.reserve(['other'], 'web-9:9', 300);

    const all = await readReservations(queue, { pageSize: 4, batchSize: 7 });
    expect(all.total).toBe(26);
    expect(all.truncated).toBe(false);
    expect(all.queuesRead).toBe(2);
    const bulk = all.holders.find((group) => group.holder === 'web-1:1')!;
    expect(bulk.rows.map((row) => row.jobId).sort((a, b) => Number(a) - Number(b))).toEqual(ids);
    expect(new Set(bulk.rows.map((row) => `${row.stream} ${row.entry}`)).size).toBe(25);
    expect(bulk.rows.every((row) => row.state === 'running')).toBe(true);
    expect(all.parkingHazard).toBeNull();

    const capped = await readReservations(queue, { pageSize: 4, maxEntries: 10 });
    expect(capped.total).toBe(10);
    expect(capped.truncated).toBe(true);
  });

  it('shares the entry budget among many streams and joins every entry to its job in bounded batches', async () => {
    const queue = await openQueue();
    // 40 queues with two levels each: 80 streams, 120 reserved jobs.
    const names = Array.from({ length: 40 }, (_, n) => `q${String(n).padStart(2, '0')}`);
    const ids = await queue.pushMany(
      names.flatMap((name) => [0, 5, 5].map((priority) => ({ queue: name, name: `${name}.p${priority}`, payload: {}, options: { priority } }))),
    );
    for (const [n, name] of names.entries()) for (let held = 0; held < 3; held++) await queue.reserve([name], `web-${n % 3}:1`, 300);
    const identity = (row: ReservationRow) => `${row.stream} ${row.entry} ${row.jobId} ${row.state} ${row.name} ${row.reservedBy}`;
    const rowsOf = (reservations: Reservations) => reservations.holders.flatMap((group) => group.rows);

    const all = await readReservations(queue);
    expect(all).toMatchObject({ total: 120, truncated: false, queuesRead: 40 });
    expect(
      rowsOf(all)
        .map((row) => row.jobId)
        .sort((a, b) => Number(a) - Number(b)),
    ).toEqual(ids);
    expect(rowsOf(all).every((row) => row.state === 'running' && row.name === `${row.queue}.p${row.level}`)).toBe(true);
    // Smaller join batches and XPENDING pages read the same rows.
    const batched = await readReservations(queue, { batchSize: 7, pageSize: 1 });
    expect(rowsOf(batched).map(identity).sort()).toEqual(rowsOf(all).map(identity).sort());

    // 80 entries to show from 80 streams: one of each, not the first streams' whole lists.
    const capped = await readReservations(queue, { maxEntries: 80 });
    expect(capped).toMatchObject({ total: 80, truncated: true });
    expect(new Set(rowsOf(capped).map((row) => row.stream)).size).toBe(80);
  });

  it('reads a job key of another type as a mismatch and a gone hash as a tombstone', async () => {
    const queue = await openQueue();
    const [kept, gone, overwritten] = await queue.pushMany(['kept', 'gone', 'overwritten'].map((name) => ({ queue: 'mail', name, payload: {} })));
    for (let n = 0; n < 3; n++) await queue.reserve(['mail'], 'web-1:1', 300);
    await queue.redis.del(queue.keys.job(gone!));
    await queue.redis.del(queue.keys.job(overwritten!));
    await queue.redis.set(queue.keys.job(overwritten!), 'not a hash');

    const reservations = await readReservations(queue);
    expect(reservations.counts).toEqual({ running: 1, overdue: 0, tombstone: 1, mismatch: 1 });
    expect(rowOf(reservations, kept!)).toMatchObject({ state: 'running', name: 'kept' });
    expect(rowOf(reservations, gone!)).toMatchObject({ state: 'tombstone', name: null, attempts: null });
    expect(rowOf(reservations, overwritten!)).toMatchObject({ state: 'mismatch', mismatch: `${queue.keys.job(overwritten!)} is not a hash`, name: null });
  });

  it('joins every entry of a stream to its job when entries that are not pending lie between them', async () => {
    const queue = await openQueue();
    const ids = await queue.pushMany(Array.from({ length: 5 }, (_, n) => ({ queue: 'mail', name: `job.${n}`, payload: {} })));
    const held: ReservedJob[] = [];
    for (let n = 0; n < 5; n++) held.push((await queue.reserve(['mail'], 'web-1:1', 300))!);
    // Acknowledged by hand and left in the stream: no longer pending, still between the others.
    await queue.redis.xack(queue.keys.stream('mail', 0), queue.settings.group, held[1]!.entry, held[3]!.entry);

    const reservations = await readReservations(queue, { batchSize: 2 });
    const rows = reservations.holders.flatMap((group) => group.rows);
    expect(rows.map((row) => [row.entry, row.jobId, row.name, row.state])).toEqual([0, 2, 4].map((n) => [held[n]!.entry, ids[n], `job.${n}`, 'running']));
  });

  it('reports a stream it cannot read and still reads the others', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'fine', {});
    await queue.reserve(['mail'], 'web-1:1', 60);
    await queue.redis.zadd(queue.keys.levels('mail'), 7, '7');
    await queue.redis.set(queue.keys.stream('mail', 7), 'not a stream');

    const reservations = await readReservations(queue);
    expect(reservations.errors).toEqual([{ stream: queue.keys.stream('mail', 7), error: expect.stringContaining('WRONGTYPE') }]);
    expect(rowOf(reservations, id).state).toBe('running');
  });

  it('names the holder of a job a reclaim parked, and leaves delayed and released jobs out', async () => {
    const queue = await openQueue();
    const [parked, released] = await queue.pushMany(['parked', 'released'].map((name) => ({ queue: 'mail', name, payload: {} })));
    await queue.push('mail', 'delayed', {}, { delaySeconds: 600 });
    const held = (await queue.reserve(['mail'], 'slow-1:7', 300))!;
    expect(held.id).toBe(parked);
    const toRelease = (await queue.reserve(['mail'], 'web-1:1', 60))!;
    expect(toRelease.id).toBe(released);
    await queue.release(toRelease, 600, 'later');
    await sleep(1100);
    // A reserve with a 1 s timeout reclaims the 300 s claim's entry before its deadline and parks the job.
    expect(await queue.reserve(['mail'], 'quick-2:9', 1)).toBeNull();

    const reservations = await readReservations(queue);
    const slow = reservations.holders.find((group) => group.holder === 'slow-1:7')!;
    expect(slow.rows).toEqual([]);
    expect(slow.parked).toEqual([
      {
        queue: 'mail',
        jobId: parked,
        name: 'parked',
        reservedBy: 'slow-1:7',
        reservedUntil: held.fields.reserved_until,
        untilSeconds: Number(held.fields.reserved_until),
        attempts: '1',
        maxAttempts: '3',
      },
    ]);
    expect(reservations.parkedTotal).toBe(1);
    expect(reservations.holders.flatMap((group) => group.parked.map((job) => job.jobId))).toEqual([parked]);
    // A holder with only parked jobs holds no entry to page through: the first page shows it, the others do not repeat it.
    await queue.pushMany(['one', 'two'].map((name) => ({ queue: 'sms', name, payload: {} })));
    for (let i = 0; i < 2; i++) await queue.reserve(['sms'], 'web-3:3', 300);
    const [first, second] = [1, 2].map(async (number) => pageOfReservations(await readReservations(queue), number, 1));
    expect((await first!).holders.find((group) => group.holder === 'slow-1:7')?.parked.map((job) => job.jobId)).toEqual([parked]);
    expect((await second!).page.number).toBe(2);
    expect((await second!).holders.map((group) => group.holder)).toEqual(['web-3:3']);
  });

  it('reports a delayed set it cannot read, and passes over a delayed member that names no job hash', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'fine', {});
    await queue.reserve(['mail'], 'web-1:1', 60);
    const future = Math.floor(Date.now() / 1000) + 600;
    await queue.redis.zadd(queue.keys.delayed('mail'), future, 'not-an-id', future, '777');
    await queue.redis.set(queue.keys.job(777), 'a string, not a hash');
    await queue.redis.sadd(queue.keys.queues, 'sms');
    await queue.redis.set(queue.keys.delayed('sms'), 'not a sorted set');

    const reservations = await readReservations(queue);
    expect(reservations.errors).toEqual([{ stream: queue.keys.delayed('sms'), error: expect.stringContaining('WRONGTYPE') }]);
    expect(reservations.parkedTotal).toBe(0);
    expect(rowOf(reservations, id).state).toBe('running');
  });

  it('says nothing is held when no queue exists', async () => {
    const queue = await openQueue();
    const reservations = await readReservations(queue);
    expect(reservations).toMatchObject({ holders: [], total: 0, parkedTotal: 0, truncated: false, parkingHazard: null, queuesRead: 0 });
  });
});

describe('filtering and paging reservations', () => {
  it('reads one queue when filtered by it, and still lists every queue to pick from', async () => {
    const queue = await openQueue();
    await queue.pushMany(['mail', 'mail', 'sms'].map((name) => ({ queue: name, name: `${name}.job`, payload: {} })));
    await queue.reserve(['mail'], 'web-1:1', 300);
    await queue.reserve(['mail'], 'web-1:1', 300);
    await queue.reserve(['sms'], 'web-2:2', 300);

    const mail = await readReservations(queue, {}, { queue: 'mail' });
    expect(mail).toMatchObject({ total: 2, queuesRead: 1, queues: ['mail', 'sms'], queue: 'mail', counts: { running: 2 } });
    expect(mail.holders.map((group) => group.holder)).toEqual(['web-1:1']);
    // Filtered, the entry cap is the queue's own: what the whole read cut off is reachable.
    const capped = await readReservations(queue, { maxEntries: 2 });
    expect(capped).toMatchObject({ total: 2, truncated: true });
    expect(await readReservations(queue, { maxEntries: 2 }, { queue: 'sms' })).toMatchObject({ total: 1, truncated: false, queue: 'sms' });
    expect(await readReservations(queue, {}, { queue: 'never-pushed' })).toMatchObject({
      total: 0,
      holders: [],
      queue: 'never-pushed',
      queues: ['mail', 'sms'],
    });
  });

  it('reads only the queues `among` names when no queue is asked for, not every registered one', async () => {
    const queue = await openQueue();
    await queue.pushMany(['mail', 'sms', 'push'].map((name) => ({ queue: name, name: `${name}.job`, payload: {} })));
    for (const name of ['mail', 'sms', 'push']) await queue.reserve([name], `web-${name}:1`, 300);

    const among = await readReservations(queue, {}, { among: ['sms', 'push'] });
    expect(among).toMatchObject({ total: 2, queuesRead: 2, queues: ['sms', 'push'], queue: null });
    expect(among.holders.map((group) => group.holder).sort()).toEqual(['web-push:1', 'web-sms:1']);
    expect(await readReservations(queue, {}, { among: [] })).toMatchObject({ total: 0, queuesRead: 0, holders: [] });
    // A queue asked for is read whatever `among` says.
    expect(await readReservations(queue, {}, { queue: 'mail', among: [] })).toMatchObject({ total: 1, queue: 'mail' });
  });

  it('cuts pages across holders in the order of the whole list, keeping every figure of the whole', async () => {
    const queue = await openQueue();
    await queue.pushMany(Array.from({ length: 5 }, (_, index) => ({ queue: 'mail', name: `job-${index}`, payload: {} })));
    for (const holder of ['a:1', 'a:1', 'a:1', 'b:2', 'b:2']) await queue.reserve(['mail'], holder, 300);
    const all = await readReservations(queue);
    const order = all.holders.flatMap((group) => group.rows.map((row) => row.jobId));

    const pages = [1, 2, 3].map((number) => pageOfReservations(all, number, 2));
    expect(pages.map((page) => page.holders.flatMap((group) => group.rows.map((row) => row.jobId)))).toEqual([
      order.slice(0, 2),
      order.slice(2, 4),
      order.slice(4),
    ]);
    expect(pages[1]!.holders.map((group) => [group.holder, group.rows.length, group.held])).toEqual([
      ['a:1', 1, 3],
      ['b:2', 1, 2],
    ]);
    expect(pages.map((page) => page.page)).toEqual([
      { number: 1, count: 3, size: 2, first: 1, last: 2 },
      { number: 2, count: 3, size: 2, first: 3, last: 4 },
      { number: 3, count: 3, size: 2, first: 5, last: 5 },
    ]);
    expect(pages[2]).toMatchObject({ total: 5, counts: all.counts });
    // Past the last page, or before the first: the nearest page that exists.
    expect(pageOfReservations(all, 40, 2).page.number).toBe(3);
    expect(pageOfReservations(all, 0, 2).page.number).toBe(1);
    const none = pageOfReservations(await readReservations(queue, {}, { queue: 'empty' }), 2, 2);
    expect(none).toMatchObject({ holders: [], page: { number: 1, count: 1, first: 0, last: 0 } });
  });
});

describe('findParkingHazard', () => {
  const group = (holder: string | null, timeoutSeconds: number | null) => ({ holder, timeoutSeconds, rows: [], parked: [], held: 0 });

  it('names the holders when their timeouts differ by more than a second', () => {
    expect(findParkingHazard([group('a:1', 60), group('b:2', 30), group(null, null)])).toEqual({
      holders: [
        { holder: 'b:2', timeoutSeconds: 30 },
        { holder: 'a:1', timeoutSeconds: 60 },
      ],
    });
  });

  it('stays quiet for one timeout across the fleet, a rounding second apart, or a single holder', () => {
    expect(findParkingHazard([group('a:1', 60), group('b:2', 60)])).toBeNull();
    expect(findParkingHazard([group('a:1', 60), group('b:2', 61)])).toBeNull();
    expect(findParkingHazard([group('a:1', 60), group(null, null)])).toBeNull();
  });
});

describe('the StaticPHP layout’s reservations page and claim repairs', () => {
  it('reads a page of PAGE_ROWS by holder, each row with its claim, and a claim as read is what the repairs re-check', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    const reader = layout.expiringReservations;
    const repairs = layout.claimRepairs;
    if (isAbsent(reader) || isAbsent(repairs)) throw new Error('StaticPHP has the reservations page and its claim repairs');
    await queue.pushMany(Array.from({ length: PAGE_ROWS + 2 }, (_, n) => ({ queue: 'mail', name: `job.${n}`, payload: {} })));
    for (let n = 0; n < PAGE_ROWS + 2; n++) await queue.reserve(['mail'], 'web-1:1', 300);

    const first = await reader.read({ queue: 'mail', page: 1 });
    expect(first.queues).toEqual([]);
    const byHolder = first.byHolder!;
    expect(byHolder).toMatchObject({ total: PAGE_ROWS + 2, queue: 'mail', queueNames: ['mail'], window: { number: 1, count: 2, first: 1, last: PAGE_ROWS } });
    const [group] = byHolder.groups;
    expect(group).toMatchObject({ holder: 'web-1:1', held: PAGE_ROWS + 2 });
    expect(group!.rows).toHaveLength(PAGE_ROWS);
    const row = group!.rows[0]!;
    expect(row.claim).toMatchObject({ queue: 'mail', level: '0', state: 'running', holder: 'web-1:1', attempts: '1' });
    expect(row.expired).toBe(false);
    expect(row.expiresAt).toBe(Number(row.claim!.reservedUntil));
    expect((await reader.read({ queue: 'mail', page: 2 })).byHolder!.groups[0]!.rows).toHaveLength(2);

    const claim = row.claim!;
    const seen = {
      queue: claim.queue,
      level: claim.level,
      entry: claim.entry,
      jobId: Number(claim.jobId),
      reservedBy: claim.holder,
      reservedUntil: claim.reservedUntil,
      attempts: claim.attempts!,
    };
    expect(await repairs.release(seen)).toMatchObject({ done: true });
    // The same claim again: a worker (or another operator) got there first.
    expect(await repairs.release(seen)).toMatchObject({ done: false, reason: 'not-pending' });
    expect(await repairs.fail(seen, 'stuck')).toMatchObject({ done: false });
    expect(await queue.failedCount()).toBe(0);
    expect((await reader.read({ queue: 'mail', page: 1 })).byHolder!.total).toBe(PAGE_ROWS + 1);
  });
});
