import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { changedFlag, luaScript } from './lua-script';
import { QueueError } from './errors';
import { privateServers } from './test-servers';

const servers = privateServers();
const clients: Redis[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

async function freshClient(): Promise<Redis> {
  const { port } = await servers.redis();
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  clients.push(client);
  await client.connect();
  return client;
}

const holdLock = luaScript({ file: 'dashboard/hold-sampler-lock-1.lua', keys: ['lock'], args: ['token', 'ms'], reply: changedFlag });

describe('luaScript', () => {
  it('refuses a wrapper whose named keys disagree with the count in the file name', () => {
    expect(() => luaScript({ file: 'dashboard/hold-sampler-lock-1.lua', keys: ['lock', 'extra'], args: [], reply: changedFlag })).toThrow(
      'dashboard/hold-sampler-lock-1.lua states 1 keys but its wrapper names 2',
    );
  });

  it('runs by name, in a pipeline made before its first use, and again after Redis forgot every script', async () => {
    const client = await freshClient();
    const lock = `lock:${randomUUID()}`;
    const pipeline = client.pipeline();
    holdLock.queue(pipeline, { lock, token: 'a', ms: 10_000 });
    holdLock.queue(pipeline, { lock, token: 'b', ms: 10_000 });
    const replies = (await pipeline.exec())!.map(([error, reply]) => (error ? error : holdLock.reply(reply)));
    expect(replies).toEqual([true, false]);
    expect(await client.get(lock)).toBe('a');

    await client.script('FLUSH');
    expect(await holdLock.run(client, { lock, token: 'a', ms: 10_000 })).toBe(true);
    await client.script('FLUSH');
    const again = client.pipeline();
    holdLock.queue(again, { lock, token: 'b', ms: 10_000 });
    expect((await again.exec())!.map(([, reply]) => holdLock.reply(reply))).toEqual([false]);
  });

  it('throws a refusal as a QueueError that names the key', async () => {
    const client = await freshClient();
    const lock = `lock:${randomUUID()}`;
    await client.rpush(lock, 'not a string');
    await expect(holdLock.run(client, { lock, token: 'a', ms: 1_000 })).rejects.toThrow(QueueError);
    await expect(holdLock.run(client, { lock, token: 'a', ms: 1_000 })).rejects.toThrow(lock);
  });
});
