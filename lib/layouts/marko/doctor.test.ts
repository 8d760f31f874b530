import { describe, expect, it } from 'vitest';
import { isAbsent } from '../adapter';
import { LIST_SEARCH_LIMIT, markoDoctor, repairMarko, type MarkoFinding } from './doctor';
import { MAIL_JOB, testMarkoFactory } from './test-layout';

const openMarko = testMarkoFactory();

/** The check over the layout's keys, every queue found by SCAN. */
async function openChecked() {
  const opened = await openMarko();
  return {
    ...opened,
    check: (onProgress?: (line: string) => void) => markoDoctor(opened.queue, opened.keys, null).check(onProgress) as Promise<MarkoFinding[]>,
  };
}

describe("marko's doctor", () => {
  it('finds nothing wrong in a layout a worker keeps moving', async () => {
    const { check, worker } = await openChecked();
    const now = await worker.now();
    for (let i = 0; i < 5; i++) await worker.push('mail', MAIL_JOB);
    await worker.later(30, 'mail', MAIL_JOB, now);
    const popped = (await worker.pop('mail', { now }))!;
    await worker.release('mail', { ...MAIL_JOB, ...popped }, 10, now);
    await worker.fail('mail', (await worker.pop('mail', { now }))!.id, 'boom', now);
    await worker.complete('mail', (await worker.pop('mail', { now }))!.id);
    await worker.pop('mail', { now });
    expect(await check()).toEqual([]);
  });

  it('finds nothing while a worker pushes, pops, completes and fails under it: each page is read in one snapshot', async () => {
    const { check, worker } = await openChecked();
    for (let i = 0; i < 300; i++) await worker.push(i % 2 === 0 ? 'mail' : 'reports', MAIL_JOB);
    let running = true;
    const work = (async () => {
      for (let round = 0; running; round++) {
        const queue = round % 2 === 0 ? 'mail' : 'reports';
        await worker.push(queue, MAIL_JOB);
        const job = await worker.pop(queue);
        if (job && round % 3 === 0) await worker.fail(queue, job.id, 'boom');
        else if (job) await worker.complete(queue, job.id);
      }
    })();
    try {
      for (let round = 0; round < 5; round++) expect((await check()).map((finding) => finding.explanation)).toEqual([]);
    } finally {
      running = false;
      await work;
    }
  });

  it('tells an orphan from a job deep in a ready list too long to search, by the ids its walk of the list saw', async () => {
    const { check, redis, keys } = await openChecked();
    const ids = Array.from({ length: 2 * LIST_SEARCH_LIMIT + 500 }, (_, i) => `job-${i}`);
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hset(keys.job(id), 'queue', 'mail', 'payload', 'p', 'attempts', 0);
    pipeline.rpush(keys.ready('mail'), ...ids).hset(keys.job('lost'), 'queue', 'mail', 'payload', 'p', 'attempts', 0);
    await pipeline.exec();
    expect((await check()).map((finding) => [finding.kind, finding.subject])).toEqual([['orphan-job', keys.job('lost')]]);
  });

  it('reports each broken state with the right kind, and repairs only the index entry with no record', async () => {
    const { check, queue, layout, redis, keys, worker } = await openChecked();
    const now = await worker.now();
    const twice = await worker.push('mail', MAIL_JOB);
    await redis.zadd(keys.reserved('mail'), now + 90, twice);
    const orphan = await worker.push('mail', MAIL_JOB);
    await redis.lrem(keys.ready('mail'), 0, orphan);
    await redis.zadd(keys.delayed('mail'), now + 60, 'vanished');
    await redis.hset(keys.job('nowhere'), 'payload', 'x');
    await redis.set(keys.job('stringy'), 'x');
    await redis.hset(keys.failedJobs, 'unindexed', '{}', 'garbled', 'not json');
    await redis.zadd(keys.failedIndex, now, 'garbled', now, 'recordless');

    const progress: string[] = [];
    const findings = await check((line) => progress.push(line));
    expect(progress.at(-1)).toMatch(/^Checked \d+ keys and entries$/);
    const byKind = findings.map((finding) => [finding.kind, finding.subject, finding.repair !== null]).sort();
    expect(byKind).toEqual(
      [
        ['dangling-id', `${keys.delayed('mail')} vanished`, false],
        ['id-in-two-places', keys.job(twice), false],
        ['index-without-record', `${keys.failedIndex} recordless`, true],
        ['orphan-job', keys.job('nowhere'), false],
        ['orphan-job', keys.job(orphan), false],
        ['record-without-index', `${keys.failedJobs} unindexed`, false],
        ['unreadable-failed-record', `${keys.failedJobs} garbled`, false],
        ['wrong-type', keys.job('stringy'), false],
      ].sort(),
    );
    expect(findings.find((finding) => finding.kind === 'id-in-two-places')!.explanation).toContain('is ready and reserved at once');

    const repairs = findings.flatMap((finding) => (finding.repair ? [finding.repair] : []));
    // The record comes back before the repair runs: the repair re-checks and leaves it alone.
    await redis.hset(keys.failedJobs, 'recordless', '{}');
    expect(await repairMarko(queue, keys, repairs)).toEqual([false]);
    await redis.hdel(keys.failedJobs, 'recordless');
    expect(await repairMarko(queue, keys, repairs)).toEqual([true]);
    expect(await redis.zscore(keys.failedIndex, 'recordless')).toBeNull();
    expect(await redis.zscore(keys.failedIndex, 'garbled')).not.toBeNull();

    // Through the layout: what is left is reported, nothing more is repaired.
    if (isAbsent(layout.doctor)) throw new Error('the marko layout has a doctor');
    const report = await layout.doctor.checkAndRepair();
    expect(report.repaired).toEqual([]);
    expect(report.notRepaired.map((finding) => finding.kind).sort()).toEqual(
      byKind
        .filter(([kind]) => kind !== 'index-without-record')
        .map(([kind]) => kind)
        .sort(),
    );
  });
});
