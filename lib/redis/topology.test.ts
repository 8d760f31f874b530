import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readDelayedTimeline } from '../layouts/staticphp/delayed-timeline';
import { runDoctor } from '../layouts/staticphp/doctor';
import { readFailedPage, searchFailed } from '../layouts/staticphp/failed';
import { readJobDetail } from '../layouts/staticphp/job-detail';
import { readKeyContents } from '../layouts/key-layout';
import { staticphpKeyTable } from '../layouts/staticphp/key-table';
import { readQueueDetail } from '../layouts/staticphp/queue-detail';
import { readReservations } from '../layouts/staticphp/reservations';
import { readServerInfo } from './server-info';
import { readSettings, settingsFromEnv, settingsFromUrl, type RedisNode, type RedisSettings } from './config';
import { promoteDueStep, runDelayedJobNow } from '../layouts/staticphp/delayed-repairs';
import { applyRepair } from '../layouts/staticphp/doctor-repairs';
import { QueueError } from './errors';
import { slotOf } from './hash-slot';
import { RedisQueue } from '../layouts/staticphp/redis-queue';
import { releaseReservation } from '../layouts/staticphp/reservation-repairs';
import { deleteKeysUnder, scanKeysUnder } from './scan-keys';
import { privateServers, type StartedServer, type TlsFiles } from './test-servers';
import { sleep } from '../layouts/staticphp/test-redis';

const servers = privateServers();

/** Connections a test opened; each is emptied of its keys and closed after the test. */
const opened: RedisQueue[] = [];
afterEach(async () => {
  for (const queue of opened.splice(0)) {
    await deleteKeysUnder(queue.redis, queue.keys.prefix);
    await queue.close();
  }
});

async function open(settings: RedisSettings): Promise<RedisQueue> {
  const queue = await RedisQueue.connect(settings);
  opened.push(queue);
  return queue;
}

async function keysUnder(queue: RedisQueue): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of scanKeysUnder(queue.redis, queue.keys.prefix)) keys.push(...batch);
  return keys.sort();
}

/** Pushes, reserves and completes one job: the round trip every topology must carry. `whilePending` sees the pushed id. */
async function expectRoundTrip(queue: RedisQueue, whilePending?: (id: number) => Promise<void>): Promise<void> {
  const id = await queue.push('mail', 'App\\Jobs\\Send', { to: 'a@example.test' });
  await whilePending?.(id);
  const job = await queue.reserve(['mail'], 'w:1', 30);
  expect(job).toMatchObject({ id, payload: '{"to":"a@example.test"}' });
  expect(await queue.complete(job!)).toBe(true);
  expect(await queue.stats()).toEqual([]);
}

const local = (port: number): RedisNode => ({ host: '127.0.0.1', port });

/** Runs `read` on a connection of its own to one private server, bypassing the driver. */
async function onServer<T>(port: number, read: (server: Redis) => Promise<T>): Promise<T> {
  const server = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  try {
    await server.connect();
    return await read(server);
  } finally {
    server.disconnect();
  }
}

describe('a Redis Cluster, through a prefix with a hash tag', () => {
  const prefix = `{test-${randomUUID()}}:`;
  let nodes: StartedServer[] = [];
  let ports: number[] = [];
  let owner = 0;
  let seeds: RedisNode[] = [];

  beforeAll(async () => {
    nodes = await servers.cluster(3);
    ports = nodes.map(({ port }) => port);
    // Which master holds the prefix's slot, asked of the cluster itself.
    owner = await onServer(ports[0]!, async (server) => {
      const slot = Number(await server.cluster('KEYSLOT', prefix));
      const [, , master] = (await server.cluster('SLOTS')).find(([first, last]) => first <= slot && slot <= last)!;
      return master![1];
    });
    // The driver is told only of the other masters: reaching the keys proves
    // that it found their master and sends every command there.
    seeds = ports.filter((port) => port !== owner).map(local);
  }, 60_000);

  const settings = (overrides: Record<string, unknown> = {}) => readSettings({ cluster: seeds, prefix, ...overrides });

  it('computes a key’s hash slot as the cluster does', async () => {
    const keys = [prefix, `${prefix}j:1`, 'queue:seq', 'a{}b', 'x{y', '{}{tag}', 'ünï{cødé}:x', '{user1000}.following'];
    const slots = await onServer(ports[0]!, (server) => Promise.all(keys.map(async (key) => Number(await server.cluster('KEYSLOT', key)))));
    expect(keys.map(slotOf)).toEqual(slots);
  });

  it('refuses a prefix without a hash tag, and a database other than 0, before connecting', async () => {
    for (const untagged of ['queue:', '{}:', 'app:{tenant:', '']) {
      const error = await RedisQueue.connect(settings({ prefix: untagged })).catch((caught: unknown) => caught);
      expect(error, untagged).toBeInstanceOf(QueueError);
      expect((error as Error).message).toContain('prefix: "{queue}:"');
    }
    await expect(RedisQueue.connect(settings({ database: 3 }))).rejects.toThrow('A Redis Cluster has only database 0');
  });

  it('keeps every key on the master of the prefix’s slot, found from seeds that are other nodes', async () => {
    const queue = await open(settings());
    expect(seeds.map(({ port }) => port)).not.toContain(owner);
    expect(queue.nodeHoldingKeys().options.port).toBe(owner);
    expect(queue.server).toBe(`cluster ${seeds.map(({ port }) => `127.0.0.1:${port}`).join(',')}`);
    const failed = await queue.push('mail', 'a', {}, { uniqueKey: 'once', priority: 3 });
    const delayed = await queue.push('mail', 'b', {}, { delaySeconds: 600 });
    await queue.fail((await queue.reserve(['mail'], 'w:1', 30))!, 'boom');
    const k = queue.keys;
    const keys = await keysUnder(queue);
    // Failing freed the unique key.
    expect(keys).toEqual([k.failed, k.job(failed), k.job(delayed), k.delayed('mail'), k.levels('mail'), k.stream('mail', 3), k.queues, k.seq].sort());
    // Nothing else lives on this private cluster: the owner holds exactly the layout, the others nothing.
    for (const port of ports) {
      expect(await onServer(port, (server) => server.dbsize()), `DBSIZE of ${port}`).toBe(port === owner ? keys.length : 0);
    }
    expect((await readServerInfo(queue)).version).toMatch(/^\d+\.\d+/);
  });

  it('runs the driver: priorities, delay, unique keys, fail, retry, forget and the reports', async () => {
    const queue = await open(settings());
    const low = await queue.push('mail', 'low', { n: 1 });
    const high = await queue.push('mail', 'high', { n: 2 }, { priority: 10 });
    const negative = await queue.push('mail', 'negative', { n: 3 }, { priority: -5 });
    const unique = await queue.push('reports', 'nightly', {}, { uniqueKey: 'nightly' });
    expect(await queue.push('reports', 'nightly again', {}, { uniqueKey: 'nightly' })).toBe(unique);
    // Due at a whole second 2 to 3 s from now: still delayed through the stats below, however late in its second it was pushed.
    const soon = await queue.push('reports', 'soon', {}, { delaySeconds: 3 });
    await queue.push('reports', 'later', {}, { delaySeconds: 600 });

    expect(await queue.stats()).toEqual([
      { queue: 'mail', pending: 3, delayed: 0, reserved: 0, total: 3 },
      { queue: 'reports', pending: 1, delayed: 2, reserved: 0, total: 3 },
    ]);
    expect(await queue.pending()).toBe(4);
    expect(await queue.pending('mail')).toBe(3);

    const order: number[] = [];
    for (let job = await queue.reserve(['mail'], 'w:1', 30); job; job = await queue.reserve(['mail'], 'w:1', 30)) {
      order.push(job.id);
      if (job.id === negative) expect(await queue.fail(job, 'no handler')).toBe(true);
      else expect(await queue.complete(job)).toBe(true);
    }
    expect(order).toEqual([high, low, negative]);

    const reserved = (await queue.reserve(['reports'], 'w:2', 30))!;
    expect(reserved.id).toBe(unique);
    expect(await queue.stats()).toContainEqual({ queue: 'reports', pending: 0, delayed: 2, reserved: 1, total: 3 });
    expect(await queue.fail(reserved, 'out of paper')).toBe(true);
    // The unique key is free again once its job failed.
    const again = await queue.push('reports', 'nightly', {}, { uniqueKey: 'nightly' });
    expect(again).not.toBe(unique);

    // Due now, promoted by the next reserve to the back of its level.
    await sleep(3100);
    expect((await queue.reserve(['reports'], 'w:2', 30))?.id).toBe(again);
    expect((await queue.reserve(['reports'], 'w:2', 30))?.id).toBe(soon);

    expect(await queue.failedCount()).toBe(2);
    expect((await queue.failedRows(10)).map((row) => [row.id, row.error])).toEqual(
      expect.arrayContaining([
        [negative, 'no handler'],
        [unique, 'out of paper'],
      ]),
    );
    expect(await queue.retryFailed([negative], 5)).toEqual({ requeued: [negative], notFailed: [], missing: [], queues: ['mail'] });
    expect(await queue.reserve(['mail'], 'w:1', 30)).toMatchObject({ id: negative, fields: { max_attempts: '5', attempts: '1' } });
    expect(await queue.forgetFailed(unique, null)).toBe(1);
    expect(await queue.failedCount()).toBe(0);
  });

  it('carries a worker loop (settleAndReserve) through 300 jobs', async () => {
    const queue = await open(settings());
    const total = 300;
    const ids = await queue.pushMany(
      Array.from({ length: total }, (_, index) => ({
        queue: index % 2 === 0 ? 'even' : 'odd',
        name: 'n',
        payload: { index },
        options: { priority: index % 3 },
      })),
    );
    expect(new Set(ids).size).toBe(total);
    const done = new Set<number>();
    let job = await queue.reserve(['even', 'odd'], 'w:loop', 30);
    while (job) {
      done.add(job.id);
      const { settled, next } = await queue.settleAndReserve(job, { outcome: 'complete' }, ['even', 'odd'], 'w:loop', 30);
      expect(settled).toBe(true);
      job = next;
    }
    expect(done).toEqual(new Set(ids));
    expect(await queue.stats()).toEqual([]);
  });

  it('runs the doctor and the census on the node holding the keys', async () => {
    const queue = await open(settings());
    const lost = await queue.push('mail', 'lost', {});
    const kept = await queue.push('mail', 'kept', {}, { uniqueKey: 'k' });
    // A stream entry deleted by hand: the job is in nothing any worker reads.
    const entry = await queue.redis.hget(queue.keys.job(lost), 'entry');
    await queue.redis.xdel(queue.keys.stream('mail', 0), entry!);

    const findings = await runDoctor(queue);
    expect(findings.map(({ kind, jobId }) => [kind, jobId])).toEqual([['orphan-job', lost]]);
    expect(await applyRepair(queue, findings[0]!.repair!)).toBe(true);
    expect(await runDoctor(queue)).toEqual([]);
    // Requeued at the end of its level, behind the job that never left it.
    expect((await queue.reserve(['mail'], 'w:1', 30))?.id).toBe(kept);
    expect((await queue.reserve(['mail'], 'w:1', 30))?.id).toBe(lost);

    await queue.redis.set(`${prefix}left-behind`, 'by another tool');
    let cursor = '0';
    const census = { jobs: 0, uniques: 0, structural: 0, strangers: [] as string[] };
    do {
      // Small steps over a table Redis may still be rehashing could return a key twice (SCAN allows it); 100 covers these keys in one.
      const step = await staticphpKeyTable(queue, { censusScanKeys: 100 }).censusStep(cursor);
      census.jobs += step.tallies['Job hashes'] ?? 0;
      census.uniques += step.tallies['Unique keys'] ?? 0;
      census.structural += step.tallies['Queue structures'] ?? 0;
      census.strangers.push(...step.strangers.map(({ key }) => key));
      cursor = step.cursor;
    } while (cursor !== '0');
    // j:1 and j:2; u:k; seq, queues, levels, the level-0 stream (not delayed: nothing was).
    expect(census).toEqual({ jobs: 2, uniques: 1, structural: 4, strangers: [`${prefix}left-behind`] });
    expect((await staticphpKeyTable(queue).read()).keys.map(({ key }) => key)).toContain(queue.keys.stream('mail', 0));
  });

  it('serves every reader and repair of the dashboard from the cluster', async () => {
    const queue = await open(settings());
    const ready = await queue.push('mail', 'ready', {});
    const later = await queue.push('mail', 'later', {}, { delaySeconds: 600 });
    const held = (await queue.reserve(['mail'], 'w:held', 60))!;
    expect(held.id).toBe(ready);
    const failed = await queue.push('mail', 'failing', {});
    await queue.fail((await queue.reserve(['mail'], 'w:1', 60))!, 'out of paper');

    expect((await readQueueDetail(queue, 'mail')).counts).toMatchObject({ pending: 0, delayed: 1, reserved: 1 });
    expect((await readJobDetail(queue, held.id))?.location).toMatchObject({ state: 'reserved', reservedBy: 'w:held' });
    expect((await readFailedPage(queue, 0, 50)).rows.map(({ id }) => Number(id))).toEqual([failed]);
    expect((await searchFailed(queue, { error: 'paper' })).matches.map(({ id }) => Number(id))).toEqual([failed]);
    expect(await readDelayedTimeline(queue, 'mail')).toMatchObject({ total: 1, overdue: 0, next: [{ id: later, name: 'later' }] });
    expect(await promoteDueStep(queue, 'mail')).toEqual({ promoted: [], vanished: [], remainingDue: 0 });
    expect(await runDelayedJobNow(queue, 'mail', later)).toMatchObject({ outcome: 'promoted', level: '0' });
    expect((await readKeyContents(queue, queue.keys.failed)).size).toBe(1);

    const rows = (await readReservations(queue)).holders.flatMap((group) => group.rows);
    expect(rows).toEqual([expect.objectContaining({ jobId: ready, reservedBy: 'w:held', state: 'running' })]);
    const { level, entry, reservedBy, reservedUntil, attempts } = rows[0]!;
    expect(await releaseReservation(queue, { queue: 'mail', level, entry, jobId: ready, reservedBy, reservedUntil, attempts: attempts ?? '' })).toMatchObject({
      done: true,
    });
    // Released to the back of its level: behind the job run now.
    expect((await queue.reserve(['mail'], 'w:2', 60))?.id).toBe(later);
    expect((await queue.reserve(['mail'], 'w:2', 60))?.id).toBe(ready);
  });

  it('names the seed nodes when none of them answers', async () => {
    const nobody = await servers.freePort();
    const error = await RedisQueue.connect(settings({ cluster: [local(nobody)], timeout: 1 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueError);
    expect(error).toMatchObject({
      unreachable: true,
      message: expect.stringMatching(new RegExp(`^Could not reach redis at cluster 127\\.0\\.0\\.1:${nobody} \\(`)),
    });
  });

  // Last: the cluster is broken afterwards.
  it('fails commands with a QueueError naming the cluster once the master holding the keys dies', async () => {
    // Not from open(): its cleanup would need the dead node.
    const queue = await RedisQueue.connect(settings());
    try {
      await queue.push('mail', 'a', {});
      await nodes.find(({ port }) => port === owner)!.kill();
      const error = await queue.stats().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(QueueError);
      expect(error).toMatchObject({
        unreachable: true,
        message: expect.stringMatching(new RegExp(`^The queue could not reach redis: cluster 127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+ \\(`)),
      });
    } finally {
      queue.redis.disconnect();
    }
  });
});

describe('Redis Sentinel', () => {
  const name = 'queuelens-test';
  let master = 0;
  let sentinels: RedisNode[] = [];

  beforeAll(async () => {
    master = (await servers.redis()).port;
    sentinels = [local((await servers.sentinel(master, name)).port)];
  }, 30_000);

  it('connects to the master the sentinels name and runs jobs there', async () => {
    const queue = await open(readSettings({ sentinels, sentinelName: name, prefix: `test:${randomUUID()}:` }));
    expect(queue.server).toBe(`master ${name} via sentinels 127.0.0.1:${sentinels[0]!.port}`);
    await expectRoundTrip(queue, async (id) => {
      expect(await onServer(master, (server) => server.exists(queue.keys.job(id)))).toBe(1);
    });
  });

  it('names the sentinels when they know no such master', async () => {
    const error = await RedisQueue.connect(readSettings({ sentinels, sentinelName: 'nobody', timeout: 1 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueError);
    expect((error as QueueError).message).toMatch(
      new RegExp(`^Could not reach redis at master nobody via sentinels 127\\.0\\.0\\.1:${sentinels[0]!.port} \\(.*No such master`),
    );
  });
});

describe('TLS', () => {
  let files: TlsFiles;
  let port = 0;

  beforeAll(async () => {
    files = await servers.tlsFiles();
    port = (await servers.redis({ tls: files })).port;
  }, 30_000);

  it('connects to a rediss:// URL, verifying the certificate against the CA given', async () => {
    await expectRoundTrip(await open(settingsFromUrl(`rediss://127.0.0.1:${port}`, { tlsCa: files.ca, prefix: `test:${randomUUID()}:` })));
    const fromEnv = settingsFromEnv({ REDIS_URL: `rediss://127.0.0.1:${port}/0`, REDIS_TLS_CA: files.ca, QUEUE_PREFIX: `test:${randomUUID()}:` });
    await expectRoundTrip(await open(fromEnv));
  });

  it('refuses a certificate that the CA given did not sign, or that Node’s default CAs do not know', async () => {
    for (const tlsCa of [files.otherCa, '']) {
      const error = await RedisQueue.connect(settingsFromUrl(`rediss://127.0.0.1:${port}`, { tlsCa })).catch((caught: unknown) => caught);
      expect(error, tlsCa).toBeInstanceOf(QueueError);
      expect(error).toMatchObject({ unreachable: true });
      expect((error as Error).message).toMatch(
        new RegExp(`^Could not reach redis at 127\\.0\\.0\\.1:${port}: its TLS certificate was refused; .*tlsCa \\(REDIS_TLS_CA\\) \\(.+\\)$`),
      );
    }
  });

  it('reaches a cluster over TLS, every node verified', async () => {
    const seeds = (await servers.cluster(3, { tls: files })).map(({ port }) => local(port));
    const settings = readSettings({ cluster: seeds, tls: true, tlsCa: files.ca, prefix: `{test-${randomUUID()}}:` });
    const queue = await open(settings);
    await expectRoundTrip(queue);
    expect(await keysUnder(queue)).not.toEqual([]);
    await expect(RedisQueue.connect({ ...settings, tlsCa: files.otherCa })).rejects.toThrow(
      new RegExp(`^Could not reach redis at cluster [\\d.:,]+: its TLS certificate was refused`),
    );
  }, 60_000);

  it('asks sentinels over TLS for a master it reaches over TLS', async () => {
    const name = 'queuelens-tls';
    const master = (await servers.redis({ tls: files })).port;
    const sentinels = [local((await servers.sentinel(master, name, { tls: files })).port)];
    const settings = readSettings({ sentinels, sentinelName: name, tls: true, tlsCa: files.ca, prefix: `test:${randomUUID()}:`, timeout: 1 });
    await expectRoundTrip(await open(settings));
    await expect(RedisQueue.connect({ ...settings, tlsCa: files.otherCa })).rejects.toThrow(
      new RegExp(`^Could not reach redis at master ${name} via sentinels 127\\.0\\.0\\.1:\\d+: its TLS certificate was refused`),
    );
  }, 30_000);
});
