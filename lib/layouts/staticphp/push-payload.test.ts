import { describe, expect, it } from 'vitest';
import { QueueError } from '../../redis/errors';
import { testQueueFactory } from './test-redis';

const openQueue = testQueueFactory();

describe('the payload a push stores', () => {
  it('is the given JSON text byte for byte (pushEncoded): digits beyond 2^53, 1.0 and the spacing stay', async () => {
    const queue = await openQueue();
    const text = '{"id": 9007199254740993, "price": 1.0, "nested": {"x": [1.50, -0e0]}}';
    const id = await queue.pushEncoded('mail', 'n', text, { delaySeconds: 600 });
    expect(await queue.redis.hget(queue.keys.job(id), 'payload')).toBe(text);
    const list = await queue.pushEncoded('mail', 'n', ' [1, 2] ');
    expect(await queue.redis.hget(queue.keys.job(list), 'payload')).toBe(' [1, 2] ');
  });

  it('is a JSON object or array, what a PHP worker decodes to an array; anything else is refused and nothing is written', async () => {
    const queue = await openQueue();
    for (const [text, got] of [
      ['42', 'a number'],
      ['"mail"', 'a string'],
      ['null', 'null'],
      ['false', 'a boolean'],
    ] as const) {
      await expect(queue.pushEncoded('mail', 'n', text)).rejects.toThrow(
        `The payload must be a JSON object or array (a PHP worker decodes it to an array and fails anything else), got ${got}`,
      );
    }
    await expect(queue.pushEncoded('mail', 'n', '{"a":')).rejects.toThrow('The payload is not valid JSON: {"a":');
    for (const value of [42, 'mail', null, true]) await expect(queue.push('mail', 'n', value)).rejects.toThrow(QueueError);
    expect(await queue.redis.exists(queue.keys.seq, queue.keys.queues)).toBe(0);
    expect(
      await queue.pushMany([
        { queue: 'mail', name: 'n', payload: [] },
        { queue: 'mail', name: 'n', payload: { a: 1 } },
      ]),
    ).toEqual([1, 2]);
  });
});
