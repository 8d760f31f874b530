import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { testQueueFactory } from './test-redis';
import { DISPLAY_LIMIT_BYTES } from '../../shapes/display-text';
import { readJobHash } from '../job-hash-read';
import { readJobDetail, readJobFieldBytes } from './job-detail';

const openQueue = testQueueFactory();

const MB = 1024 * 1024;

describe('the job page’s bounded read (lua/shared/read-job-1.lua)', () => {
  it('brings 64 KiB and the length of a 20 MB field out of Redis, and the download all of it', async () => {
    const queue = await openQueue();
    const id = await queue.push('q', 'big.job', {});
    const huge = Buffer.alloc(20 * MB, 'y');
    huge.write('{"start":', 0);
    await queue.redis.hset(queue.keys.job(id), 'payload', huge);

    // The script's own reply: what crosses the network.
    const reply = await readJobHash.run(queue.redis, { job: queue.keys.job(id), limit: DISPLAY_LIMIT_BYTES, maxFields: 1_000, heldLengths: [] });
    const at = reply.findIndex((part) => Buffer.isBuffer(part) && part.toString() === 'payload');
    expect(reply[at + 1]).toBe(20 * MB);
    expect((reply[at + 2] as Buffer).length).toBe(DISPLAY_LIMIT_BYTES);
    expect(reply.reduce<number>((sum, part) => sum + (Buffer.isBuffer(part) ? part.length : 0), 0)).toBeLessThan(DISPLAY_LIMIT_BYTES + 1_000);

    const detail = (await readJobDetail(queue, id))!;
    const payload = detail.fields.find((field) => field.name === 'payload')!.value;
    expect(payload).toEqual({ text: huge.subarray(0, DISPLAY_LIMIT_BYTES).toString(), bytes: 20 * MB, truncated: true });
    expect(detail.payloadPretty).toBeNull();
    expect(detail.location).toEqual({ state: 'ready', level: '0', entry: expect.any(String) });
    expect((await readJobFieldBytes(queue, id, 'payload'))?.equals(huge)).toBe(true);
  });

  it('copies a long value into the script once: a later read names the prefix it holds, and Redis leaves it out while its length is the same', async () => {
    const queue = await openQueue();
    const id = await queue.push('q', 'big.job', {});
    const key = queue.keys.job(id);
    const first = Buffer.alloc(2 * MB, 'a');
    await queue.redis.hset(key, 'payload', first);
    const payloadOf = async () => (await readJobDetail(queue, id))!.fields.find((field) => field.name === 'payload')!.value;
    expect(await payloadOf()).toMatchObject({ text: 'a'.repeat(DISPLAY_LIMIT_BYTES), bytes: 2 * MB });

    // The script's contract: a value named at its stored length comes back as nil, one named at another length whole.
    const named = await readJobHash.run(queue.redis, { job: key, limit: DISPLAY_LIMIT_BYTES, maxFields: 1_000, heldLengths: ['payload', String(2 * MB)] });
    expect(named[named.findIndex((part) => Buffer.isBuffer(part) && part.toString() === 'payload') + 2]).toBeNull();
    const stale = await readJobHash.run(queue.redis, { job: key, limit: DISPLAY_LIMIT_BYTES, maxFields: 1_000, heldLengths: ['payload', '5'] });
    expect((stale[stale.findIndex((part) => Buffer.isBuffer(part) && part.toString() === 'payload') + 2] as Buffer).length).toBe(DISPLAY_LIMIT_BYTES);

    // Rewritten at the same length: the held prefix is what shows, so Redis did not copy the value again.
    await queue.redis.hset(key, 'payload', Buffer.alloc(2 * MB, 'b'));
    expect((await payloadOf()).text).toBe('a'.repeat(DISPLAY_LIMIT_BYTES));
    // At another length the script reads it again.
    await queue.redis.hset(key, 'payload', Buffer.alloc(2 * MB + 1, 'c'));
    expect(await payloadOf()).toMatchObject({ text: 'c'.repeat(DISPLAY_LIMIT_BYTES), bytes: 2 * MB + 1, truncated: true });
  });

  it('shows a character torn by the cut, and bytes that are no UTF-8, as \\xNN; a value of exactly 64 KiB is whole', async () => {
    const queue = await openQueue();
    const id = await queue.push('q', 'n', {});
    // '€' is E2 82 AC: the cut falls after its first byte.
    const torn = Buffer.concat([Buffer.alloc(DISPLAY_LIMIT_BYTES - 1, 'a'), Buffer.from('€ and more')]);
    const exact = Buffer.concat([Buffer.from([0xff]), Buffer.alloc(DISPLAY_LIMIT_BYTES - 4, 'b'), Buffer.from('€')]);
    await queue.redis.hset(queue.keys.job(id), 'error', torn, 'last_error', exact, 'note', Buffer.from([0x6f, 0x6b, 0xc3]));
    const fields = Object.fromEntries((await readJobDetail(queue, id))!.fields.map((field) => [field.name, field.value]));

    expect(fields.error).toMatchObject({ bytes: torn.length, truncated: true });
    expect(fields.error!.text).toBe(`${'a'.repeat(DISPLAY_LIMIT_BYTES - 1)}\\xE2`);
    expect(fields.last_error).toEqual({ text: `\\xFF${'b'.repeat(DISPLAY_LIMIT_BYTES - 4)}€`, bytes: DISPLAY_LIMIT_BYTES, truncated: false });
    expect(fields.note).toEqual({ text: 'ok\\xC3', bytes: 3, truncated: false });
  });

  it('refuses a hash with more fields than a job has, without reading them', async () => {
    const queue = await openQueue();
    const key = queue.keys.job(9);
    await queue.redis.hset(key, Object.fromEntries(Array.from({ length: 1_001 }, (_, index) => [`f${index}`, 'v'])));
    await expect(readJobDetail(queue, 9)).rejects.toThrow(new QueueError(`${key} has 1001 fields: too many for a job hash to be read whole`));
  });
});
