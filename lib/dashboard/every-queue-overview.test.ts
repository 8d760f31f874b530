import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLayout } from '../layouts/open-layout';
import type { QueueLayout } from '../layouts/adapter';
import { readSettings } from '../redis/config';
import { privateServers } from '../redis/test-servers';
import { NO_ALERTS } from './alerts';
import type { Connection } from './connections';
import { queuesFailingRecentlyIn, readEveryQueueOverview, readTouchedQueues, type EveryQueueOverview } from './every-queue-overview';
import { LatestTick } from './latest-tick';
import { DEFAULT_MARKS } from './marks';
import { overviewPage } from './overview-page';
import { DEFAULT_OVERVIEW_REQUEST } from '../queries/overview';
import type { RedisQueue } from '../layouts/staticphp/redis-queue';

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

describe('a change made through the dashboard', () => {
  /** One more job on `queue`, and one of its jobs failed (recently: its queue is marked failing), by id. */
  async function failedJobOn(runner: RedisQueue, queue: string): Promise<number> {
    await runner.push(queue, 'job', {});
    const job = await runner.reserve([queue], 'test-worker', 30);
    if (job === null || !(await runner.fail(job, 'failed on purpose'))) throw new Error(`could not fail a job on ${queue}`);
    return job.id;
  }

  const rowOf = (overview: EveryQueueOverview | undefined, queue: string) => overview?.queues.find((row) => row.queue === queue);

  /** StaticPHP's own driver, and the overview's ticks as the dashboard keeps them, a change re-reading what it touched. */
  function touchedTick() {
    const runner = layout.runner;
    if ('absent' in runner) throw new Error('StaticPHP runs its own jobs');
    const dashboardPrefix = `${connection.settings.prefix}ql:`;
    const tick = new LatestTick(
      () => readEveryQueueOverview(layout, connection, dashboardPrefix),
      Date.now,
      (kept, names) => readTouchedQueues(kept, names, layout, connection),
    );
    return { runner, tick, dashboardPrefix };
  }

  it('re-reads only the queues it touched, at a cost that does not grow with the number of queues, and the totals and marks stay right', async () => {
    const { runner, tick, dashboardPrefix } = touchedTick();
    const addQueues = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++) await runner.push(`many-${String(n).padStart(3, '0')}`, 'job', {});
    };
    await addQueues(0, 100);
    const retried = await failedJobOn(runner, 'many-010');
    await failedJobOn(runner, 'many-020');
    const everyQueueRead = await commandsDuring(() => tick.refresh());
    const before = tick.settled.latest!;
    expect(rowOf(before.value, 'many-010')?.marks.map((mark) => mark.kind)).toEqual(['failing']);
    expect(overviewPage(before.value.queues, DEFAULT_OVERVIEW_REQUEST).attention.marked).toBe(2);
    expect(before.value.failed).toBe(2);

    expect(await runner.retryFailed([retried])).toMatchObject({ requeued: [retried], queues: ['many-010'] });
    const touchedRead = await commandsDuring(() => tick.refreshOnly(['many-010']));
    const after = tick.settled.latest!;
    expect(touchedRead).toBeGreaterThan(0);
    expect(touchedRead * 10).toBeLessThan(everyQueueRead);
    // The other queues' figures are as old as they were: the tick keeps its time.
    expect(after.readAt).toBe(before.readAt);
    expect(rowOf(after.value, 'many-010')).toMatchObject({ pending: 2, total: 2, marks: [], failedRecently: { count: 0 } });
    expect(rowOf(after.value, 'many-020')).toBe(rowOf(before.value, 'many-020'));
    expect(after.value.failed).toBe(1);
    const page = overviewPage(after.value.queues, DEFAULT_OVERVIEW_REQUEST);
    expect(page.attention.marked).toBe(1);
    expect(page.attention.named.map((row) => row.queue)).toEqual(['many-020']);
    expect(page.totals.pending).toBe(after.value.queues.reduce((sum, row) => sum + row.pending, 0));
    expect(page.totals.pending).toBe(overviewPage(before.value.queues, DEFAULT_OVERVIEW_REQUEST).totals.pending + 1);
    // What a read of every queue finds now, the merged rows show.
    const fresh = await readEveryQueueOverview(layout, connection, dashboardPrefix);
    expect(after.value.queues.map(({ queue, pending, delayed, reserved, total, marks }) => ({ queue, pending, delayed, reserved, total, marks }))).toEqual(
      fresh.queues.map(({ queue, pending, delayed, reserved, total, marks }) => ({ queue, pending, delayed, reserved, total, marks })),
    );

    // Twice the queues: the same change costs the same.
    await addQueues(100, 100);
    await tick.refresh();
    expect(tick.settled.latest?.value.queues.length).toBeGreaterThan(200);
    await runner.retryFailed([await failedJobOn(runner, 'many-010')]);
    expect(await commandsDuring(() => tick.refreshOnly(['many-010']))).toBe(touchedRead);
    expect(rowOf(tick.settled.latest?.value, 'many-010')).toMatchObject({ pending: 3, marks: [] });
  });

  it('after a forget of failed jobs, re-reads only the queues failing recently, and their marks and counts are what a full read finds', async () => {
    const { runner, tick, dashboardPrefix } = touchedTick();
    const forgotten = await failedJobOn(runner, 'forget-a');
    await failedJobOn(runner, 'forget-b');
    await runner.push('forget-calm', 'job', {});
    await tick.refresh();
    const failing = queuesFailingRecentlyIn(tick.settled.latest!.value);
    expect(failing).toEqual(expect.arrayContaining(['forget-a', 'forget-b']));
    expect(failing).not.toContain('forget-calm');

    expect(await runner.forgetFailedIds([forgotten])).toBe(1);
    await tick.refreshOnly(failing);
    const after = tick.settled.latest!.value;
    const fresh = await readEveryQueueOverview(layout, connection, dashboardPrefix);
    const figures = (overview: EveryQueueOverview) =>
      overview.queues.map(({ queue, total, marks, failedRecently }) => ({ queue, total, marks, failedRecently }));
    expect(figures(after)).toEqual(figures(fresh));
    expect(after.failed).toBe(fresh.failed);
    expect(rowOf(after, 'forget-a')).toMatchObject({ marks: [], failedRecently: { count: 0 } });
  });

  it('reads every queue when it touched one the kept read does not have', async () => {
    const { runner, tick } = touchedTick();
    await tick.refresh();
    const before = tick.settled.latest!;
    await runner.push('brand-new', 'job', {});
    await tick.refreshOnly(['brand-new']);
    expect(rowOf(tick.settled.latest?.value, 'brand-new')).toMatchObject({ pending: 1 });
    expect(tick.settled.latest!.value.queues).toHaveLength(before.value.queues.length + 1);
  });
});
