import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLayout } from '../layouts/open-layout';
import type { QueueLayout } from '../layouts/adapter';
import { readSettings } from '../redis/config';
import { privateServers } from '../redis/test-servers';
import { NO_ALERTS } from './alerts';
import type { Connection } from './connections';
import { readEveryQueueOverview } from './every-queue-overview';
import { LatestTick } from './latest-tick';
import { DEFAULT_MARKS } from './marks';

// A server of its own: INFO commandstats counts every client's commands, so only here is the count this test's alone.
const servers = privateServers();
let admin: Redis;
let layout: QueueLayout;
let connection: Connection;

/** Commands the server has run, those inside scripts included. */
async function commandsRun(): Promise<number> {
  return [...(await admin.info('commandstats')).matchAll(/^cmdstat_\S+?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

/** The commands `body` made the server run, beyond the INFO that counts them. */
async function commandsDuring(body: () => Promise<unknown>): Promise<number> {
  const before = await commandsRun();
  await body();
  return (await commandsRun()) - before - 1;
}

beforeAll(async () => {
  const { port } = await servers.redis();
  admin = new Redis({ port, host: '127.0.0.1' });
  const settings = readSettings({ hostname: '127.0.0.1', port, prefix: `test:${randomUUID()}:` });
  connection = { name: 'main', label: 'main', settings, layout: { layout: 'staticphp' }, readOnly: false, alerts: NO_ALERTS, marks: DEFAULT_MARKS };
  layout = await openLayout(settings, connection.layout);
  const runner = layout.runner;
  if ('absent' in runner) throw new Error('StaticPHP runs its own jobs');
  for (const queue of ['mail', 'billing', 'reports']) await runner.push(queue, 'job', {});
});

afterAll(async () => {
  await layout?.close();
  admin?.disconnect();
});

describe('the overview of every queue, read once per tick', () => {
  it('costs Redis one read for 50 viewers asking at once, and nothing more until the next tick', async () => {
    const dashboardPrefix = `${connection.settings.prefix}ql:`;
    const read = () => readEveryQueueOverview(layout, connection, dashboardPrefix);
    // What one viewer's read of every queue costs, on its own (after a first read, so both find the history as warm).
    await read();
    const oneRead = await commandsDuring(read);
    expect(oneRead).toBeGreaterThan(0);

    const tick = new LatestTick(read);
    const viewers = 50;
    const firstTick = await commandsDuring(() => Promise.all(Array.from({ length: viewers }, () => tick.current(60_000))));
    expect(firstTick).toBe(oneRead);
    const polls = await commandsDuring(() => Promise.all(Array.from({ length: viewers }, () => tick.current(60_000))));
    expect(polls).toBe(0);
    const nextTick = await commandsDuring(() => tick.refresh());
    expect(nextTick).toBe(oneRead);
    expect(tick.settled.latest?.value.queues.map((row) => [row.queue, row.pending])).toEqual([
      ['billing', 1],
      ['mail', 1],
      ['reports', 1],
    ]);
  });
});
