import { describe, expect, it } from 'vitest';
import { isAbsent, type LayoutDoctor } from '../adapter';
import { LIST_SEARCH_LIMIT, type MarkoFinding } from './doctor';
import { MAIL_JOB, testMarkoFactory } from './test-layout';

const openMarko = testMarkoFactory();

function doctorOf(layout: { doctor: object }): LayoutDoctor<MarkoFinding> {
  if (isAbsent(layout.doctor)) throw new Error('the marko layout has a doctor');
  return layout.doctor as LayoutDoctor<MarkoFinding>;
}

describe("marko's doctor", () => {
  it('finds nothing wrong in a layout a worker keeps moving', async () => {
    const { layout, worker } = await openMarko();
    const now = await worker.now();
    for (let i = 0; i < 5; i++) await worker.push('mail', MAIL_JOB);
    await worker.later(30, 'mail', MAIL_JOB, now);
    const popped = (await worker.pop('mail', { now }))!;
    await worker.release('mail', { ...MAIL_JOB, ...popped }, 10, now);
    await worker.fail('mail', (await worker.pop('mail', { now }))!.id, 'boom', now);
    await worker.complete('mail', (await worker.pop('mail', { now }))!.id);
    await worker.pop('mail', { now });
    expect(await doctorOf(layout).check()).toEqual([]);
  });

  it('finds nothing while a worker pushes, pops, completes and fails under it: each page is read in one snapshot', async () => {
    const { layout, worker } = await openMarko();
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
      for (let check = 0; check < 5; check++) expect((await doctorOf(layout).check()).map((f) => f.explanation)).toEqual([]);
    } finally {
      running = false;
      await work;
    }
  });

  it('tells an orphan from a job deep in a ready list too long to search, by the ids its walk of the list saw', async () => {
    const { layout, redis, keys } = await openMarko();
    const ids = Array.from({ length: 2 * LIST_SEARCH_LIMIT + 500 }, (_, i) => `job-${i}`);
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hset(keys.job(id), 'queue', 'mail', 'payload', 'p', 'attempts', 0);
    pipeline.rpush(keys.ready('mail'), ...ids).hset(keys.job('lost'), 'queue', 'mail', 'payload', 'p', 'attempts', 0);
    await pipeline.exec();
    const findings = await doctorOf(layout).check();
    expect(findings.map((finding) => [finding.kind, finding.jobId])).toEqual([['orphan-job', 'lost']]);
  });

  it('reports each broken state with the right kind, and repairs only the index entry with no record', async () => {
    const { layout, redis, keys, worker } = await openMarko();
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

    const doctor = doctorOf(layout);
    const progress: string[] = [];
    const findings = await doctor.check((line) => progress.push(line));
    expect(progress.at(-1)).toMatch(/^Checked \d+ keys and entries$/);
    const byKind = findings.map((finding) => [finding.kind, finding.subject, finding.jobId ?? null, finding.repair !== null]).sort();
    expect(byKind).toEqual([
      ['dangling-id', `${keys.delayed('mail')} vanished`, 'vanished', false],
      ['id-in-two-places', keys.job(twice), twice, false],
      ['index-without-record', `${keys.failedIndex} recordless`, 'recordless', true],
      ['orphan-job', keys.job('nowhere'), 'nowhere', false],
      ['orphan-job', keys.job(orphan), orphan, false],
      ['record-without-index', `${keys.failedJobs} unindexed`, 'unindexed', false],
      ['unreadable-failed-record', `${keys.failedJobs} garbled`, 'garbled', false],
      ['wrong-type', keys.job('stringy'), null, false],
    ].sort());
    expect(findings.find((finding) => finding.kind === 'id-in-two-places')!.explanation).toContain('is ready and reserved at once');

    const repairable = findings.filter((finding) => finding.repair !== null);
    // The record comes back before the repair runs: the repair re-checks and leaves it alone.
    await redis.hset(keys.failedJobs, 'recordless', '{}');
    expect(await doctor.repair(repairable.map((finding) => finding.repair!))).toEqual([false]);
    await redis.hdel(keys.failedJobs, 'recordless');
    expect(await doctor.repair(repairable.map((finding) => finding.repair!))).toEqual([true]);
    expect(await redis.zscore(keys.failedIndex, 'recordless')).toBeNull();
    expect(await redis.zscore(keys.failedIndex, 'garbled')).not.toBeNull();
  });
});
