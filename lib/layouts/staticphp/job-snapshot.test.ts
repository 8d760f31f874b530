import { describe, expect, it } from 'vitest';
import { testQueueFactory } from './test-redis';
import { isAbsent } from '../adapter';
import { snapshotsOrThrow } from '../test-pages';
import { staticphpLayout } from './layout';

const openQueue = testQueueFactory();

describe('the StaticPHP job page’s read (jobSnapshot) and its field download (jobHashFields)', () => {
  it('answers the job hash’s fields and where the job is, as the page shows them, whichever queue is named', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.jobSnapshot)) throw new Error('StaticPHP reads its jobs by id');
    const snapshots = snapshotsOrThrow(layout.jobSnapshot);
    const id = await queue.push('mail', 'mail.send', { to: 'a@example.com' }, { priority: 4 });

    const ready = await snapshots.read(String(id));
    expect(ready).toMatchObject({
      id: String(id),
      queue: 'mail',
      status: 'ready',
      statusText: 'ready at priority 4',
      name: 'mail.send',
      attempts: 0,
      message: null,
    });
    expect(ready.hash?.location).toEqual({ state: 'ready', level: '4', entry: expect.any(String) });
    expect(ready.hash?.fields.find((field) => field.name === 'queue')?.value.text).toBe('mail');
    expect(ready.hash?.payloadPretty).toBe('{\n  "to": "a@example.com"\n}');
    expect(ready.lastId).toBeUndefined();
    // Ids count across the connection: a queue named changes nothing.
    expect(await snapshots.read(String(id), 'other')).toEqual({ ...ready, now: expect.any(Number) });

    await queue.reserve(['mail'], 'web-1:7', 300);
    expect(await snapshots.read(String(id))).toMatchObject({
      status: 'reserved',
      statusText: 'reserved by web-1:7',
      attempts: 1,
      hash: { location: { state: 'reserved', reservedBy: 'web-1:7', overdue: false } },
    });
  });

  it('tells a job gone from one never pushed by the highest id handed out, and refuses an id that is no whole number above 0', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.jobSnapshot)) throw new Error('StaticPHP reads its jobs by id');
    const snapshots = snapshotsOrThrow(layout.jobSnapshot);
    const id = await queue.push('mail', 'mail.send', {});
    await queue.redis.del(queue.keys.job(id));

    expect(await snapshots.read(String(id))).toMatchObject({ id: String(id), status: 'gone', statusText: 'it finished or was forgotten', lastId: id });
    expect(await snapshots.read(String(id + 1))).toMatchObject({ status: 'gone', statusText: 'no such job was ever pushed', lastId: id });
    expect((await snapshots.read(String(id + 1))).hash).toBeUndefined();
    for (const text of ['abc', '0', '1.5', '99999999999999999999']) {
      await expect(layout.jobSnapshot.read(text)).rejects.toMatchObject({ invalidRequest: true, message: 'A job id is a whole number above 0.' });
    }
  });

  it('downloads a field’s whole bytes, and null for a field or job that is gone', async () => {
    const queue = await openQueue();
    const layout = staticphpLayout(queue);
    if (isAbsent(layout.jobHashFields)) throw new Error('StaticPHP jobs are numbered hashes');
    const id = await queue.push('mail', 'mail.send', {});
    const bytes = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
    await queue.redis.hset(queue.keys.job(id), 'payload', bytes);

    expect((await layout.jobHashFields.fieldBytes(id, 'payload'))?.equals(bytes)).toBe(true);
    expect(await layout.jobHashFields.fieldBytes(id, 'error')).toBeNull();
    expect(await layout.jobHashFields.fieldBytes(id + 1, 'payload')).toBeNull();
  });
});
