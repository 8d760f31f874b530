import { describe, expect, it } from 'vitest';
import { PAGE_ROWS, type DueTimelineReader, type ExpiringReservationsReader, type JobLineReader, type JobSnapshotReader } from '../pages';
import { snapshotsOrThrow } from '../test-pages';
import { MARKO_NO_HOLDER } from './absent';
import { MARKO_GONE } from './pages';
import { UNVERIFIED_SIGNATURE } from './payload';
import { MAIL_JOB, present, testMarkoFactory } from './test-layout';

const openMarko = testMarkoFactory();

describe('the marko layout’s pages, with a worker moving the jobs', () => {
  it('lists the ready jobs head first, 25 a page, and a pop moves the line up', async () => {
    const { layout, worker, redis, keys } = await openMarko();
    const line = present<JobLineReader>(layout.jobLine);
    const ids: string[] = [];
    for (let i = 0; i < PAGE_ROWS + 2; i++) ids.push(await worker.push('mail', { className: `App\\Jobs\\Job${i}` }));
    await redis.rpush(keys.ready('mail'), 'dangling');
    const first = await line.read('mail', { page: 1 });
    expect(first.queue).toBe('mail');
    expect(first.sections).toHaveLength(1);
    expect(first.sections[0]).toMatchObject({ title: 'Next jobs to run', total: PAGE_ROWS + 3, offset: 0 });
    expect(first.sections[0]!.rows.map((row) => row.id)).toEqual(ids.slice(0, PAGE_ROWS));
    expect(first.sections[0]!.rows[0]).toEqual({ place: 1, id: ids[0], name: 'App\\Jobs\\Job0', attempts: 0, priority: null, note: null });
    const second = await line.read('mail', { page: 2 });
    expect(second.sections[0]!.rows.map((row) => [row.place, row.id, row.note])).toEqual([
      [26, ids[25], null],
      [27, ids[26], null],
      [28, 'dangling', expect.stringMatching(/^no job hash/)],
    ]);
    await worker.pop('mail');
    expect((await line.read('mail', { page: 1 })).sections[0]!.rows[0]!.id).toBe(ids[1]);
  });

  it('answers notFound for a queue with no key, and an empty page for one with only a delayed job', async () => {
    const { layout, worker } = await openMarko();
    const line = present<JobLineReader>(layout.jobLine);
    await expect(line.read('made-up', { page: 1 })).rejects.toMatchObject({
      notFound: true,
      message: expect.stringMatching(/^No queue "made-up" on this connection/),
    });
    await worker.later(3600, 'later', MAIL_JOB);
    expect((await line.read('later', { page: 1 })).sections[0]!.total).toBe(0);
  });

  it('lists every queue’s reservations with expiry, live and expired over the whole set, reserved-since only with retry_after, and no holder', async () => {
    const known = await openMarko({ retryAfter: 90 });
    const now = await known.worker.now();
    const live = await known.worker.push('mail', MAIL_JOB);
    const stuck = await known.worker.push('mail', MAIL_JOB);
    await known.worker.push('sms', MAIL_JOB);
    // Popped at an earlier second last: a pop at a later one would already put it back.
    await known.worker.pop('mail', { now });
    await known.worker.pop('mail', { now: now - 200 });
    await known.worker.pop('sms', { now });
    const page = await present<ExpiringReservationsReader>(known.layout.expiringReservations).read({ page: 1 });
    expect(page.holderAbsent).toBe(MARKO_NO_HOLDER);
    expect(page.queues.map((each) => each.queue)).toEqual(['mail', 'sms']);
    // Told which queues to look in (a count found reservations in), it reads those alone.
    const among = await present<ExpiringReservationsReader>(known.layout.expiringReservations).read({ page: 1, among: ['sms'] });
    expect(among.queues.map((each) => each.queue)).toEqual(['sms']);
    const [mail] = page.queues;
    expect(mail).toMatchObject({ total: 2, live: 1, expired: 1, offset: 0 });
    expect(mail!.rows).toEqual([
      { id: stuck, name: 'App\\Jobs\\SendMail', attempts: 1, priority: null, expiresAt: now - 110, reservedSince: now - 200, expired: true, note: null },
      { id: live, name: 'App\\Jobs\\SendMail', attempts: 1, priority: null, expiresAt: now + 90, reservedSince: now, expired: false, note: null },
    ]);
    // The next pop puts the expired one back in line and, the line being empty, reserves it again.
    await known.worker.pop('mail', { now: now + 1 });
    const after = await present<ExpiringReservationsReader>(known.layout.expiringReservations).read({ queue: 'mail', page: 1 });
    expect(after.queues).toHaveLength(1);
    expect(after.queues[0]).toMatchObject({ total: 2, live: 2, expired: 0 });
    expect(after.queues[0]!.rows.find((row) => row.id === stuck)).toMatchObject({ attempts: 2, expired: false, expiresAt: now + 91 });

    const unknown = await openMarko();
    await unknown.worker.push('mail', MAIL_JOB);
    await unknown.worker.pop('mail');
    const withoutRetryAfter = await present<ExpiringReservationsReader>(unknown.layout.expiringReservations).read({ page: 1 });
    expect(withoutRetryAfter.queues[0]!.rows[0]!.reservedSince).toBeNull();
    expect(withoutRetryAfter.reservedSinceUnknown).toBe('not known: the connection sets no retryAfter (queue.retry_after)');
    expect(page).not.toHaveProperty('reservedSinceUnknown');
  });

  it('shows the delayed timeline with the next jobs due, a backed-off retry noted, and what moves them', async () => {
    const { layout, worker } = await openMarko();
    const now = await worker.now();
    const later = await worker.later(600, 'mail', MAIL_JOB, now);
    await worker.push('mail', MAIL_JOB);
    const popped = (await worker.pop('mail', { now }))!;
    await worker.release('mail', { ...MAIL_JOB, ...popped }, 30, now);
    const timeline = await present<DueTimelineReader>(layout.dueTimeline).read('mail');
    expect(timeline).toMatchObject({ queue: 'mail', total: 2, overdue: 0 });
    expect(timeline.dueMovedBy).toMatch(/each pop moves every due job/);
    expect(timeline.next).toEqual([
      { id: popped.id, name: 'App\\Jobs\\SendMail', attempts: 1, priority: null, dueAt: now + 30, note: expect.stringMatching(/^a backed-off retry/) },
      { id: later, name: 'App\\Jobs\\SendMail', attempts: 0, priority: null, dueAt: now + 600, note: null },
    ]);
    // Once due, a pop moves both into the line.
    await worker.pop('mail', { now: now + 601 });
    expect((await present<DueTimelineReader>(layout.dueTimeline).read('mail')).total).toBe(0);
  });

  it('shows a job’s every hash field, its signed payload in parts and the job as a tree, unverified, where it is as it moves, and gone once completed', async () => {
    const { layout, worker, redis, keys } = await openMarko({ retryAfter: 90 });
    const snapshot = snapshotsOrThrow(present<JobSnapshotReader>(layout.jobSnapshot));
    const id = await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to: '<b>a@example.com</b>' } });
    await redis.hset(keys.job(id), 'unique_lock', 'abc');
    const ready = await snapshot.read(id);
    expect(ready).toMatchObject({ id, queue: 'mail', status: 'placed', attempts: 0, priority: null, name: 'App\\Jobs\\SendMail' });
    expect(ready).not.toHaveProperty('ttr');
    expect(ready.places).toEqual([{ state: 'ready', sentence: 'ready at place 1 of the ready list (1 runs next)', at: null }]);
    const parts = Object.fromEntries(ready.message!.parts.map(({ label, value }) => [label, value]));
    expect(Object.keys(parts).sort()).toEqual(['Encoding', 'Field attempts', 'Field payload', 'Field queue', 'Field unique_lock', 'Signature']);
    expect(parts).toMatchObject({ 'Field queue': 'mail', 'Field attempts': '0', 'Field unique_lock': 'abc', Encoding: 'b64: the PHP serialization in base64' });
    expect(parts.Signature).toMatch(/^[0-9a-f]{64} \(HMAC-SHA256, not checked\)$/);
    expect(ready.message).toMatchObject({ problem: null, notice: UNVERIFIED_SIGNATURE, cut: false });
    expect(ready.message!.data).toMatchObject({
      kind: 'php',
      parse: {
        error: null,
        value: {
          type: 'object',
          className: 'App\\Jobs\\SendMail',
          properties: [{ name: 'id' }, { name: 'attempts' }, { name: 'to', value: { type: 'string', text: '<b>a@example.com</b>' } }],
        },
      },
    });

    const now = await worker.now();
    await worker.pop('mail', { now });
    const reserved = await snapshot.read(id, 'mail');
    expect(reserved).toMatchObject({ attempts: 1, places: [{ state: 'reserved', sentence: 'reserved until', at: now + 90 }] });

    await worker.complete('mail', id);
    expect(await snapshot.read(id, 'mail')).toMatchObject({ id, queue: 'mail', status: 'gone', statusText: MARKO_GONE, places: [], message: null });
  });

  it('says a hash in no structure is unsearched, and one with no signed payload is shown as stored', async () => {
    const { layout, redis, keys } = await openMarko();
    await redis.hset(keys.job('orphan'), 'queue', 'mail', 'payload', 'not signed');
    const orphan = await snapshotsOrThrow(present<JobSnapshotReader>(layout.jobSnapshot)).read('orphan');
    expect(orphan).toMatchObject({ status: 'unsearched', places: [], name: null });
    expect(orphan.message).toMatchObject({
      problem: expect.stringMatching(/^no field of the hash holds a signed payload/),
      data: { kind: 'text', text: 'not signed', cut: false },
    });
    expect(orphan.message).not.toHaveProperty('notice');
  });
});
