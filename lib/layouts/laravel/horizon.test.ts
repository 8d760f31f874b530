import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKS } from '../../dashboard/marks';
import { patternUnder } from '../../redis/scan-keys';
import { suggestedEntries } from '../../shapes/detect-entry';
import { retriesFailedJobs, type Absent, type FailedJobs, type RetriedFailedJobs } from '../adapter';
import { detectLayouts } from '../detect';
import type { JobSnapshot } from '../pages';
import { LARAVEL_FAILED_ELSEWHERE } from './absent';
import { HORIZON_RECORD_GONE, HorizonKeys } from './horizon';
import { expectRangeRules, findAll, HOUR, NOON, type PlacedJob } from '../test-find';
import { present, testLaravelFactory } from './test-laravel';
import { horizonFails } from './test-horizon';

const openLaravel = testLaravelFactory({ horizon: true });
const openStock = testLaravelFactory();

/** A payload the real Illuminate\Queue\RedisQueue pushed and popped: the reserved copy (attempts 1), which a worker's failure hands to Horizon. */
async function realPayload(open: Awaited<ReturnType<typeof openLaravel>>, name: string): Promise<Buffer> {
  const id = await open.laravel.push(name);
  expect(await open.laravel.pop(60)).toMatchObject({ id, attempts: 1 });
  const [payload] = await open.redis.zrangeBuffer(open.layout.keys.reserved('default'), 0, '0');
  await open.redis.del(open.layout.keys.reserved('default'));
  return payload!;
}

/** The failed jobs of a Horizon connection: listed, retried and forgotten here. */
function horizonFailed(failedJobs: FailedJobs | Absent): RetriedFailedJobs {
  const failed = present(failedJobs);
  if (!retriesFailedJobs(failed)) throw new Error('QueueLens does not retry these failed jobs');
  return failed;
}

async function openWithFailures(count: number) {
  const open = await openLaravel();
  const keys = new HorizonKeys(open.horizonPrefix!);
  const now = Number((await open.redis.time())[0]);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payload = await realPayload(open, `job ${i}`);
    ids.push(
      await horizonFails(open.redis, keys, payload, {
        exception: `RuntimeException: failure ${i} in /app/Job.php:12\n#0 {main}`,
        at: now - 300 + i * 100 + 0.25,
      }),
    );
  }
  const trash = { dashboardPrefix: `${open.prefix}ql:`, keepSeconds: 3600, maxEntries: 100, maxBytes: 1 << 30, who: 'alice', via: 'dashboard' };
  return { ...open, keys, now, ids, trash };
}

describe('Laravel Horizon’s failed jobs, written as Horizon’s RedisJobRepository writes them', () => {
  it('has the doctor find job records Horizon left without an expiry, and give them its longest trim', async () => {
    const { layout, redis, keys, ids } = await openWithFailures(1);
    // Horizon's released() HMSETs without an expiry: a record whose pending hash had expired stays for good.
    const stale = keys.job('5b7f2a8e-0000-4000-8000-000000000001');
    await redis.hset(stale, { id: '5b7f2a8e-0000-4000-8000-000000000001', status: 'pending', queue: 'default', name: 'App\\Jobs\\Stale' });
    // Horizon's other hashes (supervisors, metrics) keep no expiry by design and are not job records.
    await redis.hset(`${keys.prefix}supervisor:host-1`, { name: 'host-1' });
    const doctor = present(layout.doctor);
    const findings = (await doctor.check()).filter((finding) => finding.kind === 'horizon-hash-without-expiry');
    expect(findings.map((finding) => finding.key)).toEqual([stale]);
    expect(await redis.ttl(keys.job(ids[0]!))).toBeGreaterThan(0);
    const report = await doctor.repair(findings);
    expect(report.repaired).toHaveLength(1);
    expect(await redis.ttl(stale)).toBeGreaterThan(7 * 86_400 - 60);
    expect((await doctor.repair(findings)).unchanged).toHaveLength(1);
    await redis.del(`${keys.prefix}supervisor:host-1`);
  });

  it('is searched by Find: its failed records by their exception, payload and id, beside the queues', async () => {
    const { layout, laravel, ids, redis, keys } = await openWithFailures(2);
    const waiting = await laravel.push('failure 1 is not this one');
    const finder = present(layout.finder);
    expect(finder.states).toEqual(['ready', 'delayed', 'reserved', 'failed']);
    const query = { text: 'failure 1', field: 'any', queue: null, states: ['ready', 'failed'], ignoreCase: false } as const;
    const { matches } = await findAll(finder, { ...query, states: [...query.states] });
    expect(matches.map((match) => [match.id, match.state, match.field])).toEqual([
      [waiting, 'ready', 'payload'],
      [ids[1], 'failed', 'error'],
    ]);
    expect(matches[1]!.snippet).toMatchObject({ match: 'failure 1' });
    const byId = await findAll(finder, { text: ids[0]!, field: 'id', queue: null, states: ['failed'], ignoreCase: false });
    expect(byId.matches.map((match) => match.id)).toEqual([ids[0]]);
    // The payload's JSON escapes read as typed: the job's class, with single backslashes.
    const byClass = await findAll(finder, { text: 'HarnessJob', field: 'payload', queue: null, states: ['failed'], ignoreCase: false });
    expect(byClass.matches).toHaveLength(2);
    // A record's exception and payload under ignoreCase, through the same Lua as the queues' jobs.
    const anyCase = await findAll(finder, { ...query, text: 'FAILURE 1', states: ['failed'], ignoreCase: true });
    expect(anyCase.matches.map((match) => [match.id, match.field, match.snippet.match])).toEqual([[ids[1], 'error', 'failure 1']]);
    expect((await findAll(finder, { ...query, text: 'FAILURE 1', states: ['failed'] })).matches).toEqual([]);

    // Listed failed jobs re-checked before an action, each read from its record again: one whose record is gone is no match.
    expect(await finder.stillMatching(query, 'failed', ids)).toEqual(new Set([ids[1]]));
    await redis.del(keys.job(ids[1]!));
    expect(await finder.stillMatching(query, 'failed', ids)).toEqual(new Set());
    // A live job is its payload, found by its id where it was found by the remove itself.
    expect(await finder.stillMatching(query, 'live', [waiting])).toEqual(new Set([waiting]));
  });

  it('takes a time range where Laravel records a time: when due, when a reservation expires, when Horizon recorded the failure; a ready job has none', async () => {
    const open = await openLaravel();
    const { laravel, redis, layout } = open;
    const keys = new HorizonKeys(open.horizonPrefix!);
    const placed: PlacedJob[] = [];
    for (const ms of [NOON - HOUR, NOON + HOUR]) {
      // Failed now (Horizon expires a record a week after it failed: one written as failed in March would be gone), then scored as failed at `ms`.
      const now = Number((await redis.time())[0]);
      const id = await horizonFails(redis, keys, await realPayload(open, 'ranged-7'), { exception: 'RuntimeException: timeout', at: now });
      await redis.zadd(keys.failedIndex, 'XX', String(-ms / 1000), id);
      placed.push({ id, state: 'failed', ms });
    }
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await laravel.push('ranged-7'));
    const [reservedEarly, reservedLate, delayedEarly, delayedLate] = ids as [string, string, string, string];
    // Both pops before any expiry is set (a pop puts an expired reservation back in line); the harness's release pops the job it names.
    expect(await laravel.pop(600)).toMatchObject({ id: reservedEarly });
    expect(await laravel.pop(600)).toMatchObject({ id: reservedLate });
    expect(await laravel.release(delayedEarly, 3600)).toBe(true);
    expect(await laravel.release(delayedLate, 3600)).toBe(true);
    const rescore = async (key: string, id: string, ms: number) => {
      const member = (await redis.zrange(key, 0, '-1')).find((payload) => payload.includes(`"${id}"`))!;
      expect(await redis.zadd(key, 'XX', 'CH', ms / 1000, member)).toBe(1);
    };
    await rescore(layout.keys.reserved('default'), reservedEarly, NOON - HOUR);
    await rescore(layout.keys.reserved('default'), reservedLate, NOON + HOUR);
    await rescore(layout.keys.delayed('default'), delayedEarly, NOON - HOUR);
    await rescore(layout.keys.delayed('default'), delayedLate, NOON + HOUR);
    placed.push(
      { id: reservedEarly, state: 'reserved', ms: NOON - HOUR },
      { id: reservedLate, state: 'reserved', ms: NOON + HOUR },
      { id: delayedEarly, state: 'delayed', ms: NOON - HOUR },
      { id: delayedLate, state: 'delayed', ms: NOON + HOUR },
      { id: await laravel.push('ranged-7'), state: 'ready', ms: null },
    );
    await expectRangeRules(present(layout.finder), 'ranged-7', placed);
  });

  it('marks a queue failing on the overview from Horizon’s newest failures, counted over its own window', async () => {
    const { layout, laravel, now } = await openWithFailures(3);
    // A job waiting in its queue, so that the queue has keys and a row.
    await laravel.push('waiting');
    const attention = present(layout.attention);
    const judged = await attention.read({ everyQueue: true }, DEFAULT_MARKS);
    expect(judged.failed).toBe(3);
    const index = judged.queues.findIndex((row) => row.queue === 'default');
    expect(judged.attention[index]!.failedRecently).toEqual({ count: 3, minutes: 15, atLeast: false });
    expect(judged.attention[index]!.marks).toContainEqual({
      kind: 'failing',
      failures: 3,
      minutes: 15,
      latestError: 'RuntimeException: failure 2 in /app/Job.php:12',
    });
    // The newest failed about 100 s ago, the one before 200 s ago: three minutes hold one.
    const threeMinutes = await attention.read({ everyQueue: true }, new Map([['*', { failingMinutes: 3 }]]));
    expect(threeMinutes.attention[index]!.marks).toContainEqual(expect.objectContaining({ kind: 'failing', failures: 1, minutes: 3 }));
    expect(Math.abs(judged.now - now)).toBeLessThan(60);
  });

  it('lists them newest first through the failed pages and counts them, each row from its record', async () => {
    const { layout, laravel, ids, now } = await openWithFailures(3);
    // A job waiting in its queue, so that the filter offers the queue.
    await laravel.push('waiting');
    expect((await layout.counts()).failed).toBe(3);
    const failed = horizonFailed(layout.failedJobs);
    expect(await failed.failedCount()).toBe(3);
    const page = await present(layout.failedPages).page(0, 2);
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(page.rows[0]).toEqual({
      id: ids[2],
      exact: true,
      queue: 'default',
      name: 'HarnessJob',
      attempts: '1',
      maxAttempts: '',
      failedAt: new Date((now - 100) * 1000).toISOString().slice(0, 19).replace('T', ' '),
      failedAtSeconds: now - 99.75,
      errorFirstLine: 'RuntimeException: failure 2 in /app/Job.php:12',
      retryCommand: null,
    });
    expect((await present(layout.failedPages).page(2, 2)).rows.map((row) => row.id)).toEqual([ids[0]]);
    const search = await present(layout.failedPages).search({ error: 'FAILURE 1' }, { offset: 0, scanLimit: 100 });
    expect(search).toMatchObject({ done: true, scanned: 3, total: 3 });
    expect(search.matches.map((row) => row.id)).toEqual([ids[1]]);
    expect(await present(layout.failedPages).queueNames(10)).toEqual(['default']);
  });

  it('shows a failed job’s page from Horizon’s record: the payload decoded as a queued one, the exception, failed_at and retried_by', async () => {
    const { layout, redis, keys, ids, now } = await openWithFailures(1);
    const id = ids[0]!;
    // As RedisJobRepository::storeRetryReference() appends after Horizon's own retry.
    await redis.hset(
      keys.job(id),
      'retried_by',
      JSON.stringify([
        { id: 'retry-1', status: 'failed', retried_at: now - 50 },
        { id: 'retry-2', status: 'pending', retried_at: now - 10 },
      ]),
    );
    const snapshot = (await present(layout.jobSnapshot).read(id)) as JobSnapshot;
    expect(snapshot).toMatchObject({ id, queue: 'default', status: 'failed', name: 'HarnessJob', attempts: 1 });
    expect(snapshot.failed).toMatchObject({ at: now - 299.75, retry: { here: true, maxAttempts: false }, error: expect.stringContaining('failure 0') });
    expect(snapshot.failed!.retry).toMatchObject({ whatItDoes: expect.stringMatching(/new id, 0 attempts.*retried_by/) });
    expect(snapshot.message!.data.kind).toBe('php');
    expect(JSON.stringify(snapshot.message!.data)).toContain('<b>not markup</b>');
    const parts = Object.fromEntries(snapshot.message!.parts.map((part) => [part.label, part.value]));
    expect(parts.uuid).toBe(JSON.stringify(id));
    expect(parts['Horizon status']).toBe('failed');
    expect(parts['Horizon retried_by']).toMatch(/^retry-2 \(pending, retried .* UTC\); retry-1 \(failed, retried .* UTC\)$/);
    // Asked with its queue, as a queue's page links it: not in the queue's structures, so on Horizon's list.
    expect(await present(layout.jobSnapshot).read(id, 'default')).toMatchObject({ status: 'failed' });
  });

  it('forgets one into QueueLens’s trash as Horizon’s delete does, and restores it byte for byte with its index entry and expiry', async () => {
    const { layout, redis, keys, ids, trash } = await openWithFailures(2);
    const [kept, other] = ids as [string, string];
    const before = await redis.hgetallBuffer(keys.job(kept));
    const score = await redis.zscore(keys.failedIndex, kept);
    const ttl = await redis.pttl(keys.job(kept));
    const failed = horizonFailed(layout.failedJobs);

    expect(await failed.forgetFailedIds([kept, 'not-failed'], trash)).toBe(1);
    expect(await failed.forgetFailedIds([kept], trash)).toBe(0);
    expect(await redis.exists(keys.job(kept))).toBe(0);
    expect(await redis.zrange(keys.failedIndex, 0, '-1')).toEqual([other]);
    // Horizon's deleteFailed leaves recent_failed_jobs alone; so does QueueLens.
    expect(await redis.zscore(`${keys.prefix}recent_failed_jobs`, kept)).toBe(score);

    const bin = present(layout.trash);
    const listed = await bin.list(trash, 0, 10);
    expect(listed.rows).toEqual([
      expect.objectContaining({
        id: kept,
        name: 'HarnessJob',
        queue: 'default',
        from: 'failed',
        error: 'RuntimeException: failure 0 in /app/Job.php:12',
        who: 'alice',
      }),
    ]);
    expect(await bin.restore(trash, [kept])).toEqual([{ id: kept, outcome: 'restored', queue: 'default' }]);
    expect(await redis.hgetallBuffer(keys.job(kept))).toEqual(before);
    expect(await redis.zscore(keys.failedIndex, kept)).toBe(score);
    const restoredTtl = await redis.pttl(keys.job(kept));
    expect(restoredTtl).toBeGreaterThan(ttl - 60_000);
    expect(restoredTtl).toBeLessThanOrEqual(ttl);
    expect(await bin.restore(trash, [kept])).toMatchObject([{ id: kept, outcome: 'gone' }]);
    expect((await bin.list(trash, 0, 10)).rows).toEqual([]);
  });

  it('refuses to restore an id Horizon wrote again meanwhile, and keeps it in the trash', async () => {
    const { layout, redis, keys, ids, trash } = await openWithFailures(1);
    const id = ids[0]!;
    expect(await horizonFailed(layout.failedJobs).forgetFailedIds([id], trash)).toBe(1);
    // php artisan queue:retry pushes the same uuid again: Horizon's pushed() writes a pending hash under it.
    await redis.hset(keys.job(id), { id, status: 'pending' });
    expect(await present(layout.trash).restore(trash, [id])).toMatchObject([{ id, outcome: 'id-taken' }]);
    expect(await redis.hget(keys.job(id), 'status')).toBe('pending');
    expect(await redis.zscore(keys.failedIndex, id)).toBeNull();
    expect((await present(layout.trash).list(trash, 0, 10)).rows.map((row) => row.id)).toEqual([id]);
  });

  it('forgets those failed before a date, then every one, oldest first in bounded steps, counting them first, and restores them all', async () => {
    const { layout, redis, keys, ids, now, trash } = await openWithFailures(3);
    const failed = horizonFailed(layout.failedJobs);
    const between = new Date((now - 150) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    expect(await failed.countFailedBefore(between)).toBe(2);
    expect(await failed.countFailedBefore(null)).toBe(3);
    expect(await failed.forgetOldestFailed(between, trash)).toEqual({ forgotten: 2, remaining: 0 });
    expect(await redis.zrange(keys.failedIndex, 0, '-1')).toEqual([ids[2]]);
    expect(await failed.forgetFailed(null, null, {}, trash).catch((error: Error) => error.message)).toMatch(/asked for explicitly/);
    expect(await failed.forgetFailed(null, null, { all: true }, trash)).toBe(1);
    expect(await redis.exists(keys.failedIndex, ...ids.map((id) => keys.job(id)))).toBe(0);
    expect((await present(layout.trash).list(trash, 0, 10)).total).toBe(3);
    expect((await present(layout.trash).restore(trash, ids)).map((row) => row.outcome)).toEqual(['restored', 'restored', 'restored']);
    expect(await failed.failedCount()).toBe(3);
  });

  it('shows an entry whose record expired as such, and forgets it keeping nothing', async () => {
    const { layout, redis, keys, now, trash } = await openWithFailures(0);
    // Horizon's EXPIREAT passed before trimFailedJobs ran: the index entry outlives its hash.
    await redis.zadd(keys.failedIndex, String(-(now - 60)), 'expired-1');
    const [row] = (await present(layout.failedPages).page(0, 10)).rows;
    expect(row).toMatchObject({ id: 'expired-1', name: '', queue: '', errorFirstLine: HORIZON_RECORD_GONE, failedAtSeconds: now - 60 });
    const snapshot = (await present(layout.jobSnapshot).read('expired-1')) as JobSnapshot;
    expect(snapshot).toMatchObject({ status: 'failed', message: null, failed: { error: null } });
    expect(await horizonFailed(layout.failedJobs).forgetFailedIds(['expired-1'], trash)).toBe(1);
    expect(await redis.zcard(keys.failedIndex)).toBe(0);
    expect((await present(layout.trash).list(trash, 0, 10)).rows).toEqual([]);
  });

  it('shows exception bytes that are not UTF-8 as escapes and HTML as text, and keeps their bytes through a forget and restore', async () => {
    const open = await openWithFailures(0);
    const { layout, redis, keys, trash } = open;
    const exception = Buffer.concat([Buffer.from('Exception: <script>alert(1)</script> caf'), Buffer.from([0xe9, 0xff]), Buffer.from('\n#0 trace')]);
    const id = await horizonFails(redis, keys, await realPayload(open, 'bytes'), { exception, at: open.now - 5 });
    const [row] = (await present(layout.failedPages).page(0, 1)).rows;
    expect(row!.errorFirstLine).toBe('Exception: <script>alert(1)</script> caf\\xE9\\xFF');
    const snapshot = (await present(layout.jobSnapshot).read(id)) as JobSnapshot;
    expect(snapshot.failed!.error).toBe('Exception: <script>alert(1)</script> caf\\xE9\\xFF\n#0 trace');
    expect(await horizonFailed(layout.failedJobs).forgetFailedIds([id], trash)).toBe(1);
    expect((await present(layout.trash).list(trash, 0, 1)).rows[0]!.error).toBe('Exception: <script>alert(1)</script> caf\\xE9\\xFF');
    expect(await present(layout.trash).restore(trash, [id])).toMatchObject([{ id, outcome: 'restored' }]);
    expect(await redis.hgetBuffer(keys.job(id), 'exception')).toEqual(exception);
  });

  it('reads a record with a megabyte payload from its first bytes: the row from Horizon’s fields, the page says the payload was cut', async () => {
    const open = await openWithFailures(0);
    const { layout, redis, keys } = open;
    const real = JSON.parse((await realPayload(open, 'big')).toString('utf8')) as Record<string, unknown>;
    const payload = Buffer.from(JSON.stringify({ ...real, padding: 'x'.repeat(1_000_000) }));
    const id = await horizonFails(redis, keys, payload, { exception: 'Error: too big', at: open.now - 1, queue: 'imports' });
    const [row] = (await present(layout.failedPages).page(0, 1)).rows;
    expect(row).toMatchObject({ id, name: 'HarnessJob', queue: 'imports', attempts: '', errorFirstLine: 'Error: too big' });
    const snapshot = (await present(layout.jobSnapshot).read(id)) as JobSnapshot;
    expect(snapshot.message).toMatchObject({ length: payload.length, cut: true, problem: expect.stringMatching(/only its first 65,536 were read/) });
    // A failed_at Horizon did not write as a number is shown as stored.
    await redis.hset(keys.job(id), 'failed_at', 'yesterday');
    const parts = ((await present(layout.jobSnapshot).read(id)) as JobSnapshot).message!.parts;
    expect(parts).toContainEqual({ label: 'Horizon failed_at', value: 'yesterday' });
  });

  it('leaves a hash of another type, or one a re-pushed job now owns, and refuses a failed index of another type', async () => {
    const { layout, redis, keys, ids, trash } = await openWithFailures(1);
    const failed = horizonFailed(layout.failedJobs);
    await redis.zadd(keys.failedIndex, '-1', 'not-a-hash');
    await redis.set(keys.job('not-a-hash'), 'some other application’s string');
    const rows = (await present(layout.failedPages).page(0, 10)).rows;
    expect(rows.find((row) => row.id === 'not-a-hash')!.errorFirstLine).toBe('the key is a string, not Horizon’s job hash');
    // The same uuid pushed again by queue:retry: Horizon's pushed() made the hash pending.
    await redis.hset(keys.job(ids[0]!), 'status', 'pending');
    expect(await failed.forgetFailedIds(['not-a-hash', ids[0]!], trash)).toBe(2);
    expect(await redis.get(keys.job('not-a-hash'))).toBe('some other application’s string');
    expect(await redis.hget(keys.job(ids[0]!), 'status')).toBe('pending');
    expect((await present(layout.trash).list(trash, 0, 10)).rows).toEqual([]);

    await redis.del(keys.failedIndex);
    await redis.set(keys.failedIndex, 'x');
    await expect(failed.forgetFailedIds(['a'], trash)).rejects.toThrow(/failed_jobs/);
    await expect(failed.failedCount()).rejects.toThrow();
  });

  it('says where stock Laravel keeps failed jobs when no Horizon prefix is named', async () => {
    const { layout } = await openStock();
    expect(layout.failedJobs).toEqual({ absent: LARAVEL_FAILED_ELSEWHERE });
    expect(layout.failedPages).toEqual({ absent: LARAVEL_FAILED_ELSEWHERE });
    expect((await layout.counts()).failed).toBeNull();
  });
});

describe('detecting a Laravel prefix with Horizon’s keys beside it', () => {
  it('proposes the Horizon prefix with the Laravel prefix, and counts Horizon’s keys for it', async () => {
    const { redis, prefix, horizonPrefix, laravel, ids } = await openWithFailures(2);
    await laravel.push('waiting');
    await laravel.later(600);
    const root = prefix.slice(0, -'laravel_database_'.length);
    // A second application's Horizon on the same server: paired by its name, not taken for this one.
    await redis.zadd(`${root}shop_horizon:failed_jobs`, '-1', 'x');
    await redis.zadd(`${root}shop_horizon:recent_failed_jobs`, '-1', 'x');
    const detection = await detectLayouts(redis, { match: patternUnder(root), ownPrefix: `${root}ql:` });
    expect(detection.found).toEqual([expect.objectContaining({ layout: 'laravel', prefix, horizonPrefix })]);
    // The ready list, its notify list and the delayed set; failed_jobs, recent_failed_jobs and each failed job's hash.
    expect(detection.found[0]!.keys).toBe(3 + 2 + ids.length);
    expect(detection.strangers.count).toBe(2);
    const [suggested] = suggestedEntries(detection.found, { fields: { url: 'redis://127.0.0.1:6379/0' }, notes: [] });
    expect(suggested!.entry).toMatchObject({ layout: 'laravel', prefix, horizonPrefix });
  });
});
