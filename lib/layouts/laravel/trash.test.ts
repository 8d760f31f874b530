import { describe, expect, it } from 'vitest';
import type { TrashWrite } from '../../shapes/trash';
import { isAbsent } from '../adapter';
import { layoutTrashKeys } from '../trash';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory();

type Laravel = Awaited<ReturnType<typeof openLaravel>>;

/** The trash under the test's own prefix, so that the factory's cleanup deletes it too. */
function trashOf({ prefix }: Laravel, overrides: Partial<TrashWrite> = {}): TrashWrite {
  return { dashboardPrefix: `${prefix}ql:`, keepSeconds: 3600, maxEntries: 100, maxBytes: 1 << 30, who: 'alice', via: 'dashboard', ...overrides };
}

function removeOf({ layout }: Laravel) {
  const remove = present(layout.lineRepairs).remove;
  if (isAbsent(remove)) throw new Error(`absent: ${remove.absent}`);
  return remove;
}

/** A payload as Laravel's RedisQueue writes one, its command's bytes spliced in as they are (no UTF-8 needed, none re-encoded). */
function laravelPayload(id: string, displayName: string, command: Buffer): Buffer {
  const marker = '\u0000';
  const json = JSON.stringify({
    uuid: `0f0e0d0c-${id.slice(0, 4)}`,
    displayName,
    job: 'Illuminate\\Queue\\CallQueuedHandler@call',
    maxTries: null,
    data: { commandName: displayName, command: marker },
    id,
    attempts: 0,
  });
  const [before, after] = json.split(JSON.stringify(marker).slice(1, -1));
  return Buffer.concat([Buffer.from(before!), command, Buffer.from(after!)]);
}

const READY_ID = 'ready0000000000000000000000000001';
const DELAYED_ID = 'delayed00000000000000000000000002';
const RESERVED_ID = 'reserved0000000000000000000000003';

describe('the Laravel trash', () => {
  it('keeps a removed payload’s exact bytes from ready, delayed or reserved, and restores each where Laravel keeps it', async () => {
    const laravel = await openLaravel('mail');
    const { layout, redis } = laravel;
    const { keys } = layout;
    // Bytes that are no UTF-8, and HTML, which a re-encoding in JS would change; a command longer than a trash page reads.
    const ready = laravelPayload(READY_ID, 'App\\Jobs\\SendMail', Buffer.from('O:8:\\"SendMail\\":1:{s:4:\\"note\\";s:10:\\"\xff\xfe<b>x</b>\\";}', 'latin1'));
    const delayed = laravelPayload(DELAYED_ID, 'App\\Jobs\\Digest', Buffer.from('x'.repeat(20_000)));
    const reserved = laravelPayload(RESERVED_ID, 'App\\Jobs\\Import', Buffer.from('<script>alert(1)</script>'));
    const [now] = await redis.time();
    const dueAt = String(Number(now) + 3600);
    await redis.rpush(keys.ready('mail'), ready);
    await redis.rpush(keys.notify('mail'), 1);
    await redis.zadd(keys.delayed('mail'), dueAt, delayed);
    await redis.zadd(keys.reserved('mail'), Number(now) + 60, reserved);
    const trash = trashOf(laravel);
    const remove = removeOf(laravel);
    const bin = present(layout.trash);
    const ids = [READY_ID, DELAYED_ID, RESERVED_ID];

    for (const id of ids) expect(await remove('mail', id, trash)).toBe(true);
    expect(await remove('mail', READY_ID, trash)).toBe(false);
    expect(await redis.exists(keys.ready('mail'), keys.delayed('mail'), keys.reserved('mail'))).toBe(0);
    const rows = (await bin.list(trash, 0, 10)).rows;
    expect(
      rows.map(({ id, from, queue, name, score, who, via }) => ({ id, from, queue, name, score, who, via })).sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: DELAYED_ID, from: 'delayed', queue: 'mail', name: 'App\\Jobs\\Digest', score: dueAt, who: 'alice', via: 'dashboard' },
      { id: READY_ID, from: 'ready', queue: 'mail', name: 'App\\Jobs\\SendMail', score: '', who: 'alice', via: 'dashboard' },
      { id: RESERVED_ID, from: 'reserved', queue: 'mail', name: 'App\\Jobs\\Import', score: '', who: 'alice', via: 'dashboard' },
    ]);
    const trashKeys = layoutTrashKeys(keys.prefix, trash.dashboardPrefix);
    expect(await redis.hgetBuffer(trashKeys.job(READY_ID), READY_ID)).toEqual(ready);
    expect(await redis.hgetBuffer(trashKeys.job(DELAYED_ID), DELAYED_ID)).toEqual(delayed);

    expect(await bin.restore(trash, [...ids, 'unknown'])).toMatchObject([
      ...ids.map((id) => ({ id, outcome: 'restored' })),
      { id: 'unknown', outcome: 'gone' },
    ]);
    // Ready and reserved jobs go to the line's tail with a token each, as Laravel's push and an expired reservation's migrate do.
    expect(await redis.lrangeBuffer(keys.ready('mail'), 0, -1)).toEqual([ready, reserved]);
    expect(await redis.llen(keys.notify('mail'))).toBe(3);
    expect(await redis.zrangeBuffer(keys.delayed('mail'), '0', '-1', 'WITHSCORES')).toEqual([delayed, Buffer.from(dueAt)]);
    expect(await redis.exists(keys.reserved('mail'), trashKeys.index, ...ids.flatMap((id) => [trashKeys.job(id), trashKeys.where(id)]))).toBe(0);
    expect(await bin.restore(trash, [READY_ID])).toMatchObject([{ id: READY_ID, outcome: 'gone' }]);
  });

  it('restores removed jobs for Laravel’s real pop to run each exactly once, a reserved one with its attempt counted', async () => {
    const laravel = await openLaravel();
    const { layout, redis, laravel: driver } = laravel;
    const reserved = await driver.push('reserved');
    expect(await driver.pop(600)).toMatchObject({ id: reserved, attempts: 1 });
    const ready = await driver.push('ready');
    // Due already: in the delayed set until a pop's migrate moves it.
    const delayed = await driver.later(-5);
    const dueAt = (await redis.zrange(layout.keys.delayed('default'), '0', '0', 'WITHSCORES'))[1];
    const trash = trashOf(laravel);
    const remove = removeOf(laravel);
    const bin = present(layout.trash);

    for (const id of [ready, delayed, reserved]) expect(await remove('default', id, trash)).toBe(true);
    expect(await driver.size()).toBe(0);
    expect(await driver.drain()).toEqual([]);

    expect(await bin.restore(trash, [ready, delayed, reserved])).toEqual(
      [ready, delayed, reserved].map((id) => ({ id, outcome: 'restored', queue: 'default' })),
    );
    expect((await redis.zrange(layout.keys.delayed('default'), '0', '0', 'WITHSCORES'))[1]).toBe(dueAt);
    const ran = await driver.drain();
    // The line first (ready, then the reservation behind it), then the delayed job the pop's migrate appends.
    expect(ran.map(({ id, attempts, name }) => ({ id, attempts, name }))).toEqual([
      { id: ready, attempts: 1, name: 'ready' },
      { id: reserved, attempts: 2, name: 'reserved' },
      { id: delayed, attempts: 1, name: 'later -5' },
    ]);
    expect(await driver.drain()).toEqual([]);
    expect(await driver.size()).toBe(0);
  });

  it('refuses a reservation its worker released meanwhile, and a queue key of another type; keeps both in the trash', async () => {
    const laravel = await openLaravel();
    const { layout, redis, laravel: driver } = laravel;
    const { keys } = layout;
    const [released, blocked] = [await driver.push('released'), await driver.push('blocked')];
    await driver.pop(600);
    const [reservedBytes] = await redis.zrangeBuffer(keys.reserved('default'), '0', '0');
    const trash = trashOf(laravel);
    const remove = removeOf(laravel);
    expect(await remove('default', released, trash)).toBe(true);
    expect(await remove('default', blocked, trash)).toBe(true);
    // What the worker's release does with the bytes it reserved (Illuminate\Queue\LuaScripts::release).
    await redis.zadd(keys.delayed('default'), 1, reservedBytes!);
    const bin = present(layout.trash);
    expect(await bin.restore(trash, [released])).toMatchObject([{ id: released, outcome: 'id-taken' }]);
    await redis.del(keys.notify('default'));
    await redis.set(keys.notify('default'), 'not a list');
    expect(await bin.restore(trash, [blocked])).toMatchObject([{ id: blocked, outcome: 'unsupported' }]);

    expect(await redis.zcard(keys.delayed('default'))).toBe(1);
    expect(await redis.exists(keys.ready('default'))).toBe(0);
    expect((await bin.list(trash, 0, 10)).rows.map((row) => row.id).sort()).toEqual([released, blocked].sort());
  });

  it('deletes for good with no keep time', async () => {
    const laravel = await openLaravel();
    const { layout, redis, laravel: driver } = laravel;
    const id = await driver.push('gone');
    const off = trashOf(laravel, { keepSeconds: 0 });
    expect(await removeOf(laravel)('default', id, off)).toBe(true);
    expect(await driver.size()).toBe(0);
    const trashKeys = layoutTrashKeys(layout.keys.prefix, off.dashboardPrefix);
    expect(await redis.exists(trashKeys.index, trashKeys.job(id), trashKeys.where(id))).toBe(0);
    expect(await present(layout.trash).restore(off, [id])).toMatchObject([{ id, outcome: 'gone' }]);
  });
});
