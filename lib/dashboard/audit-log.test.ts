import { Redis, type Cluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { QueueError } from '../redis/errors';
import type { RedisQueue } from '../layouts/staticphp/redis-queue';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { AUDIT_FIELD_LIMITS, type NewAuditEntry } from './audit-entry';
import { appendAudit, formatAuditLine, readAuditPage, recordAudit, type AuditRedis } from './audit-log';
import { dashboardKeys, type DashboardKeys } from './keys';

// The log must accept a cluster connection as well as a plain one: a type error here if it stops fitting.
const clusterFits: Cluster extends AuditRedis ? true : false = true;

const openQueue = testQueueFactory();

/** A connection and dashboard keys under the test's random prefix, so the factory's cleanup deletes them. */
async function openLog(): Promise<{ redis: RedisQueue['redis']; keys: DashboardKeys }> {
  const queue = await openQueue();
  return { redis: queue.redis, keys: dashboardKeys(`${queue.keys.prefix}ql:`) };
}

function entry(overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    who: 'ada',
    role: 'operator',
    connection: 'main',
    action: 'retry failed jobs',
    target: 'jobs 1, 2',
    result: 'ok',
    detail: 'retried 2',
    ...overrides,
  };
}

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

describe('the audit log', () => {
  it('fits a cluster connection', () => {
    expect(clusterFits).toBe(true);
  });

  it('appends entries and reads them back newest first, timed by the Redis server', async () => {
    const { redis, keys } = await openLog();
    const first = await appendAudit(redis, keys, entry({ target: 'job 1' }));
    const second = await appendAudit(
      redis,
      keys,
      entry({ who: 'grace', role: 'viewer', action: 'forget failed jobs', target: 'job 2', result: 'refused', detail: 'viewers cannot forget jobs' }),
    );
    const [serverSeconds] = await redis.time();

    expect(second).toEqual({
      id: second.id,
      at: second.at,
      who: 'grace',
      role: 'viewer',
      connection: 'main',
      action: 'forget failed jobs',
      target: 'job 2',
      result: 'refused',
      detail: 'viewers cannot forget jobs',
    });
    expect(second.at).toBe(new Date(Number(second.id.split('-')[0])).toISOString());
    expect(Math.abs(Date.parse(second.at) / 1000 - Number(serverSeconds))).toBeLessThan(5);

    const page = await readAuditPage(redis, keys, { limit: 10 });
    expect(page.entries).toEqual([
      { ...second, damaged: [] },
      { ...first, damaged: [] },
    ]);
    expect(page).toMatchObject({ total: 2, scanned: 2, next: null, newestSeen: second.id, reachedAt: first.at });
    expect(Math.abs(page.now - Number(serverSeconds))).toBeLessThan(5);
  });

  it('reads an empty log as no entries, without creating the key', async () => {
    const { redis, keys } = await openLog();
    const page = await readAuditPage(redis, keys, { limit: 50 });
    expect(page).toMatchObject({ entries: [], total: 0, scanned: 0, next: null, newestSeen: null, reachedAt: null });
    expect(await redis.exists(keys.audit)).toBe(0);
  });

  it('pages through the whole log with the cursor, each entry once', async () => {
    const { redis, keys } = await openLog();
    const ids: string[] = [];
    for (let n = 0; n < 7; n++) ids.push((await appendAudit(redis, keys, entry({ target: `job ${n}` }))).id);

    const pages = [];
    let before: string | undefined;
    do {
      const page = await readAuditPage(redis, keys, { before, limit: 3 });
      pages.push(page.entries.map((read) => read.id));
      before = page.next ?? undefined;
    } while (before !== undefined);
    expect(pages).toEqual([ids.slice(4).reverse(), ids.slice(1, 4).reverse(), ids.slice(0, 1)]);
  });

  it('filters by action, result, role and who exactly, and by text in who, target or detail in any case', async () => {
    const { redis, keys } = await openLog();
    await appendAudit(redis, keys, entry({ who: 'ada', action: 'retry failed jobs', target: 'jobs 12, 13', detail: 'retried 2' }));
    await appendAudit(
      redis,
      keys,
      entry({ who: 'grace', role: 'viewer', action: 'forget failed jobs', target: 'job 14', result: 'refused', detail: 'viewers cannot forget jobs' }),
    );
    await appendAudit(
      redis,
      keys,
      entry({ who: 'linus', action: 'releaseNow', target: 'reservation 1-0 of emails', result: 'failed', detail: 'Redis refused a queue command' }),
    );

    const targets = async (filter: Parameters<typeof readAuditPage>[2]['filter']) =>
      (await readAuditPage(redis, keys, { limit: 10, filter })).entries.map((read) => read.target);
    expect(await targets({ action: 'forget failed jobs' })).toEqual(['job 14']);
    expect(await targets({ result: 'failed' })).toEqual(['reservation 1-0 of emails']);
    expect(await targets({ role: 'viewer' })).toEqual(['job 14']);
    expect(await targets({ who: 'ada' })).toEqual(['jobs 12, 13']);
    expect(await targets({ who: 'ad' })).toEqual([]);
    expect(await targets({ text: 'GRACE' })).toEqual(['job 14']);
    expect(await targets({ text: 'emails' })).toEqual(['reservation 1-0 of emails']);
    expect(await targets({ text: 'REFUSED' })).toEqual(['reservation 1-0 of emails']);
    // The action is filtered by the select, not by the text.
    expect(await targets({ text: 'retry failed jobs' })).toEqual([]);
    expect(await targets({ result: 'ok', text: 'jobs' })).toEqual(['jobs 12, 13']);
    expect(await targets({ action: '', text: '' })).toHaveLength(3);
  });

  it('looks at no more than scanLimit entries a read, saying how far it got, and resumes without skipping a match', async () => {
    const { redis, keys } = await openLog();
    const written = [];
    for (let n = 0; n < 12; n++) written.push(await appendAudit(redis, keys, entry({ target: `job ${n}`, result: n % 4 === 0 ? 'failed' : 'ok' })));
    // Newest first: jobs 11..0; the failures are jobs 8, 4 and 0.

    const first = await readAuditPage(redis, keys, { limit: 10, filter: { result: 'failed' }, scanLimit: 3, batchSize: 2 });
    expect(first).toMatchObject({ entries: [], scanned: 3, next: written[9]!.id, reachedAt: written[9]!.at, newestSeen: written[11]!.id, total: 12 });

    const second = await readAuditPage(redis, keys, { before: first.next!, limit: 1, filter: { result: 'failed' }, scanLimit: 100, batchSize: 2 });
    // It stops on the entry that filled the page, though its batch went further.
    expect(second.entries.map((read) => read.target)).toEqual(['job 8']);
    expect(second).toMatchObject({ scanned: 1, next: written[8]!.id });

    const rest = await readAuditPage(redis, keys, { before: second.next!, limit: 10, filter: { result: 'failed' }, scanLimit: 100, batchSize: 5 });
    expect(rest.entries.map((read) => read.target)).toEqual(['job 4', 'job 0']);
    expect(rest).toMatchObject({ scanned: 8, next: null, reachedAt: written[0]!.at });
  });

  it('keeps the log near its cap: old entries go, the newest stay', async () => {
    const { redis, keys } = await openLog();
    const cap = 10;
    const [, nodeSize] = (await redis.config('GET', 'stream-node-max-entries')) as [string, string];
    let last;
    for (let n = 0; n < 350; n++) last = await appendAudit(redis, keys, entry({ target: `job ${n}` }), { cap });

    const length = await redis.xlen(keys.audit);
    // `~` trims whole stream nodes: never below the cap, never more than one node above it.
    expect(length).toBeGreaterThanOrEqual(cap);
    expect(length).toBeLessThanOrEqual(cap + Number(nodeSize));
    const page = await readAuditPage(redis, keys, { limit: 1_000 });
    expect(page.entries[0]!.id).toBe(last!.id);
    expect(page.entries.at(-1)!.target).not.toBe('job 0');
  });

  it('stores markup, odd text and huge values bounded, and reads them back as stored', async () => {
    const { redis, keys } = await openLog();
    const stored = await appendAudit(
      redis,
      keys,
      entry({
        who: '<img src=x onerror=alert(1)>',
        target: 'job "\u0000\n\uD800 €😀',
        detail: 'Error: '.padEnd(5_000_000, 'x'),
        connection: '😀'.repeat(AUDIT_FIELD_LIMITS.connection),
      }),
    );
    expect(stored.who).toBe('<img src=x onerror=alert(1)>');
    expect(stored.target).toBe('job "\u0000\n\uFFFD €😀');
    expect(utf8Length(stored.detail)).toBeLessThanOrEqual(AUDIT_FIELD_LIMITS.detail);
    expect(stored.detail).toMatch(/^Error: x+… \[cut, 5000000 characters in all\]$/);
    expect(utf8Length(stored.connection)).toBeLessThanOrEqual(AUDIT_FIELD_LIMITS.connection);

    const [read] = (await readAuditPage(redis, keys, { limit: 1 })).entries;
    expect(read).toEqual({ ...stored, damaged: [] });
  });

  it('reads entries it did not write whole: missing, unknown, oversized and non-UTF-8 fields are shown and named', async () => {
    const { redis, keys } = await openLog();
    await redis.xadd(keys.audit, '*', 'who', Buffer.from([0x61, 0xff, 0x62]), 'role', 'admin', 'detail', 'z'.repeat(3_000), 'who', 'second who');
    await appendAudit(redis, keys, entry());

    const page = await readAuditPage(redis, keys, { limit: 10, filter: { text: 'a\\xFF' } });
    expect(page.entries).toHaveLength(1);
    const [foreign] = page.entries;
    expect(foreign).toMatchObject({ who: 'a\\xFFb', role: 'admin', connection: '', action: '', target: '', result: '' });
    expect(foreign!.detail).toBe(`${'z'.repeat(AUDIT_FIELD_LIMITS.detail)}… [cut, 3000 bytes in all]`);
    expect(foreign!.damaged).toEqual(['role', 'connection', 'action', 'target', 'result', 'detail']);
  });

  it('refuses a wrong-typed audit key with an error naming it, and leaves it alone', async () => {
    const { redis, keys } = await openLog();
    await redis.set(keys.audit, 'somebody else’s value');

    const reading = readAuditPage(redis, keys, { limit: 10 });
    await expect(reading).rejects.toBeInstanceOf(QueueError);
    await expect(reading).rejects.toThrow(`The audit log key ${keys.audit} holds a string, not a stream`);
    await expect(appendAudit(redis, keys, entry())).rejects.toThrow(`The audit log key ${keys.audit} holds a string, not a stream`);
    expect(await redis.get(keys.audit)).toBe('somebody else’s value');
  });

  it('refuses limits that would read nothing or write an unbounded log', async () => {
    const { redis, keys } = await openLog();
    await expect(readAuditPage(redis, keys, { limit: 0 })).rejects.toThrow('limit must be a whole number of at least 1');
    await expect(readAuditPage(redis, keys, { limit: 5, scanLimit: 0 })).rejects.toThrow('scanLimit must be a whole number');
    await expect(appendAudit(redis, keys, entry(), { cap: 0 })).rejects.toThrow('cap must be a whole number of at least 1');
    expect(await redis.exists(keys.audit)).toBe(0);
  });
});

describe('recordAudit', () => {
  it('stores the entry and describes it as one line of JSON', async () => {
    const { redis, keys } = await openLog();
    const line = await recordAudit(redis, keys, entry({ target: 'job 1\nand job 2', detail: '<b>retried</b>' }));
    expect(line).toMatchObject({ type: 'audit', stored: true, target: 'job 1\nand job 2' });

    const printed = formatAuditLine(line);
    expect(printed.endsWith('\n')).toBe(true);
    expect(printed.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(printed)).toEqual(line);
    const { damaged, ...stored } = (await readAuditPage(redis, keys, { limit: 1 })).entries[0]!;
    expect(damaged).toEqual([]);
    expect(line).toEqual({ type: 'audit', stored: true, ...stored });
  });

  it('still describes the entry, bounded, when Redis cannot store it, with the reason, and does not throw', async () => {
    // Nothing listens on port 1; no retries and no offline queue, so the command fails at once.
    const unreachable = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      const line = await recordAudit(unreachable, dashboardKeys('test:unreachable:'), entry({ detail: 'd'.repeat(10_000) }));
      expect(line).toMatchObject({ type: 'audit', stored: false, who: 'ada', action: 'retry failed jobs', result: 'ok' });
      expect(line.stored === false && line.error).toMatch(/Stream isn't writeable|Connection is closed|ECONNREFUSED/);
      expect(Date.now() - Date.parse(line.at)).toBeLessThan(5_000);
      expect(utf8Length(line.detail)).toBeLessThanOrEqual(AUDIT_FIELD_LIMITS.detail);
      expect('id' in line).toBe(false);
    } finally {
      unreachable.disconnect();
    }
  });

  it('says why when the key is of the wrong type', async () => {
    const { redis, keys } = await openLog();
    await redis.hset(keys.audit, 'field', 'value');
    const line = await recordAudit(redis, keys, entry());
    expect(line).toMatchObject({ stored: false, error: expect.stringContaining(`The audit log key ${keys.audit} holds a hash, not a stream`) });
  });
});
