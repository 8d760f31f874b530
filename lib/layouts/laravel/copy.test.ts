import { describe, expect, it } from 'vitest';
import { copy } from './scripts';
import { JOB_SEARCH_LIMIT } from './pages';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory();

interface Payload {
  id: string;
  uuid: string;
  attempts: number;
  displayName: string;
  data: { command: string };
}

describe('Run a copy of a Laravel job', () => {
  it('pushes a new payload with a new id and uuid and 0 attempts, as pushRaw does; the real pop runs the copy once and the original is untouched', async () => {
    const { layout, redis, laravel } = await openLaravel('mail');
    const { keys } = layout;
    const first = await laravel.push('<b>first</b>');
    const held = await laravel.push('held');
    // Popped once: its reservation is the payload re-encoded with attempts 1, which the copy starts again from 0.
    const second = await laravel.push('second');
    expect((await laravel.pop(600))?.id).toBe(first);
    const copies = present(layout.jobCopies);
    const [original] = await redis.zrangeBuffer(keys.reserved('mail'), '0', '0');

    const copied = await copies.copy('mail', first, { delaySeconds: 0 });
    expect(copied.copied).toBe(true);
    const id = (copied as { id: string }).id;
    expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
    const ready = await redis.lrange(keys.ready('mail'), 0, -1);
    const copy = JSON.parse(ready.at(-1)!) as Payload;
    const reserved = JSON.parse(original!.toString()) as Payload;
    expect(copy).toEqual({ ...reserved, id, uuid: copy.uuid, attempts: 0 });
    expect(copy.uuid).not.toBe(reserved.uuid);
    expect(await redis.llen(keys.notify('mail'))).toBe(ready.length);
    expect(await redis.zrangeBuffer(keys.reserved('mail'), '0', '-1')).toEqual([original]);

    const later = await copies.copy('mail', second, { delaySeconds: 3600 });
    expect(later.copied).toBe(true);
    const [seconds] = await redis.time();
    const [delayed, score] = await redis.zrange(keys.delayed('mail'), '0', '-1', 'WITHSCORES');
    expect(JSON.parse(delayed!)).toMatchObject({ id: (later as { id: string }).id, attempts: 0, displayName: 'HarnessJob' });
    expect(Number(seconds) + 3600 - Number(score)).toBeOneOf([0, 1]);

    // The real pop: the held and second jobs and the copy, each once; the reserved original stays reserved, the delayed copy waits.
    expect((await laravel.drain()).map((job) => job.id).sort()).toEqual([held, second, id].sort());
    expect(await redis.zrangeBuffer(keys.reserved('mail'), '0', '-1')).toEqual([original]);
  });

  it('looks for a ready payload where the look-up found it and a few places nearer the head, where pops move it, so the script reads a few payloads however deep it is', async () => {
    const { layout, redis, laravel } = await openLaravel('mail');
    const { keys } = layout;
    await laravel.push('first');
    await laravel.push('second');
    const second = await redis.lindexBuffer(keys.ready('mail'), 1);
    const call = {
      ready: keys.ready('mail'),
      delayed: keys.delayed('mail'),
      reserved: keys.reserved('mail'),
      notify: keys.notify('mail'),
      payload: second!,
      newId: 'c'.repeat(32),
      newUuid: '00000000-0000-4000-8000-000000000001',
      delaySeconds: 0,
    };
    // Not at the head, nor found in a set, nor 26 or more places further from the head than it is.
    expect(await copy.run(redis, { ...call, readyAt: 0 })).toEqual({ outcome: 'gone' });
    expect(await copy.run(redis, { ...call, readyAt: '' })).toEqual({ outcome: 'gone' });
    expect(await copy.run(redis, { ...call, readyAt: 27 })).toEqual({ outcome: 'gone' });
    // Found at 1; a pop since moved it to 0.
    await redis.lpop(keys.ready('mail'));
    expect(await copy.run(redis, { ...call, readyAt: 1 })).toEqual({ outcome: 'copied', id: 'c'.repeat(32) });
  });

  it('copies a job deeper than a look-up from the head reaches, found where the page saw it', async () => {
    const { layout, redis, laravel } = await openLaravel('deep');
    const { keys } = layout;
    const id = await laravel.push('deep');
    const [template] = await redis.lrange(keys.ready('deep'), 0, 0);
    await redis.lpush(keys.ready('deep'), ...Array.from({ length: JOB_SEARCH_LIMIT }, (_, i) => template!.replace(id, `ahead${i}`)));
    const copies = present(layout.jobCopies);
    expect(await copies.copy('deep', id, { delaySeconds: 0 })).toMatchObject({ copied: false });
    const copied = await copies.copy('deep', id, { delaySeconds: 0, near: { from: 'tail', at: 0 } });
    expect(copied).toMatchObject({ copied: true });
    const [last] = await redis.lrange(keys.ready('deep'), -1, -1);
    expect(JSON.parse(last!)).toMatchObject({ id: (copied as { id: string }).id, attempts: 0 });
    expect(await redis.llen(keys.ready('deep'))).toBe(JOB_SEARCH_LIMIT + 2);
  });

  it('refuses an edit, and a job that is gone', async () => {
    const { layout, laravel } = await openLaravel('mail');
    const id = await laravel.push('job');
    const copies = present(layout.jobCopies);
    expect(await copies.copy('mail', id, { delaySeconds: 0, edited: '{}' })).toMatchObject({ copied: false, refused: expect.stringContaining('data.command') });
    await laravel.drain();
    expect(await copies.copy('mail', id, { delaySeconds: 0 })).toMatchObject({
      copied: false,
      refused: expect.stringContaining('no longer where it was read'),
    });
  });
});
