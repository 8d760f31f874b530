import { describe, expect, it } from 'vitest';
import { isAbsent } from '../layouts/adapter';
import { testMarkoFactory } from '../layouts/marko/test-layout';
import { yii2LayoutDoctor } from '../layouts/yii2/doctor';
import { staticphpLayout } from '../layouts/staticphp/layout';
import { openFixtureChannel } from '../layouts/yii2/test-drivers';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { dashboardKeys } from './keys';
import type { ShownFinding } from '../shapes/layout-check';
import { LAYOUT_CHECK_SECONDS, repairLayoutFindings, stepLayoutCheck } from './layout-doctor-runs';

const openQueue = testQueueFactory();
const openMarko = testMarkoFactory();

/** A stock fixture channel with its next job (7) popped off the list by hand: an orphan message. */
async function brokenStock() {
  const queue = await openQueue();
  const fixture = await openFixtureChannel(queue, 'stock');
  await queue.redis.rpop(fixture.channel.keys.waiting);
  // Suspects are read again at once: nothing changes the channel between the two reads here.
  const doctor = yii2LayoutDoctor([fixture.channel], 0);
  const keys = dashboardKeys(`${queue.keys.prefix}ql:`);
  return { queue, doctor, keys, ...fixture };
}

async function checkToTheEnd(setup: Awaited<ReturnType<typeof brokenStock>>, connection = 'yii2-stock') {
  const findings: ShownFinding[] = [];
  let step = await stepLayoutCheck(setup.queue, setup.doctor, setup.keys, connection, null);
  const progress = [step.progress];
  findings.push(...step.findings);
  while (!step.done) {
    step = await stepLayoutCheck(setup.queue, setup.doctor, setup.keys, connection, step.run);
    progress.push(step.progress);
    findings.push(...step.findings);
  }
  return { run: step.run, findings, progress };
}

describe('layout doctor runs', () => {
  it('keeps a check’s state and findings on the server by id, shows findings without their repairs, and repairs by id only', async () => {
    const setup = await brokenStock();
    try {
      const { run, findings, progress } = await checkToTheEnd(setup);
      expect(progress.at(-1)).toMatch(/^Checked \d+ keys and entries of channel /);
      expect(findings.map(({ kind }) => kind)).toEqual(['orphan-message']);
      const [orphan] = findings;
      expect(orphan).toMatchObject({ severity: 'warning', title: 'Messages no index holds', repairable: true });
      expect(orphan).not.toHaveProperty('repair');
      // yii2's findings are named by their subject ("queue.messages 7"), not by their job.
      expect(orphan).not.toHaveProperty('job');
      const key = setup.keys.layoutDoctorRun('yii2-stock', run);
      expect(await setup.queue.redis.ttl(key)).toBeGreaterThan(LAYOUT_CHECK_SECONDS - 5);

      // Another connection's check of the same id knows nothing of it.
      expect((await repairLayoutFindings(setup.queue, setup.doctor, setup.keys, 'yii2-ng', run, [orphan!.id])).outcomes).toEqual([
        { id: orphan!.id, outcome: 'unknown' },
      ]);
      expect(await setup.queue.redis.hexists(setup.channel.keys.messages, '7')).toBe(1);

      const repaired = await repairLayoutFindings(setup.queue, setup.doctor, setup.keys, 'yii2-stock', run, [orphan!.id, 'AAAAAAAAAAAAAAAAAAAAAA']);
      expect(repaired.outcomes).toEqual([
        { id: orphan!.id, outcome: 'repaired' },
        { id: 'AAAAAAAAAAAAAAAAAAAAAA', outcome: 'unknown' },
      ]);
      // The orphan is back in the delayed set, due now, for the driver's next move to put in line.
      const [now] = await setup.queue.redis.time();
      expect(Number(await setup.queue.redis.zscore(setup.channel.keys.delayed, '7'))).toBeLessThanOrEqual(Number(now));
      // Named again, it is no longer one of the check's findings.
      expect((await repairLayoutFindings(setup.queue, setup.doctor, setup.keys, 'yii2-stock', run, [orphan!.id])).outcomes[0]!.outcome).toBe('unknown');
    } finally {
      await setup.cleanup();
    }
  });

  it('reports a repair whose condition is gone, and refuses a check id it does not know as the request’s fault', async () => {
    const setup = await brokenStock();
    try {
      const { run, findings } = await checkToTheEnd(setup);
      // A worker (here: a hand edit) put job 7 back in line before the operator repaired it.
      await setup.queue.redis.rpush(setup.channel.keys.waiting, '7');
      const result = await repairLayoutFindings(
        setup.queue,
        setup.doctor,
        setup.keys,
        'yii2-stock',
        run,
        findings.map(({ id }) => id),
      );
      expect(result.outcomes.map(({ outcome }) => outcome)).toEqual(['gone']);
      expect(await setup.queue.redis.lrange(setup.channel.keys.waiting, -1, -1)).toEqual(['7']);

      await expect(stepLayoutCheck(setup.queue, setup.doctor, setup.keys, 'yii2-stock', 'x'.repeat(24))).rejects.toMatchObject({ invalidRequest: true });
      await expect(stepLayoutCheck(setup.queue, setup.doctor, setup.keys, 'yii2-stock', '../../etc')).rejects.toMatchObject({ invalidRequest: true });
    } finally {
      await setup.cleanup();
    }
  });

  it('runs marko’s check the same way, and repairs its one safe repair by id', async () => {
    const { layout, queue, keys, worker } = await openMarko();
    const doctor = layout.doctor;
    if (isAbsent(doctor)) throw new Error(doctor.absent);
    await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: {} });
    await queue.redis.zadd(keys.failedIndex, 1_700_000_000, 'ghost');
    const dashboard = dashboardKeys(`${queue.keys.prefix}ql:`);
    let step = await stepLayoutCheck(queue, doctor, dashboard, 'marko', null);
    const found = [...step.findings];
    while (!step.done) {
      step = await stepLayoutCheck(queue, doctor, dashboard, 'marko', step.run);
      found.push(...step.findings);
    }
    expect(found.map(({ kind, subject, repairable }) => [kind, subject, repairable])).toEqual([['index-without-record', `${keys.failedIndex} ghost`, true]]);
    const { outcomes } = await repairLayoutFindings(queue, doctor, dashboard, 'marko', step.run, [found[0]!.id]);
    expect(outcomes).toEqual([{ id: found[0]!.id, outcome: 'repaired' }]);
    expect(await queue.redis.zscore(keys.failedIndex, 'ghost')).toBeNull();
  });

  it('runs StaticPHP’s check the same way: its progress, its findings named by their job, and a check it does not know refused', async () => {
    const queue = await openQueue();
    const doctor = staticphpLayout(queue).doctor;
    if (isAbsent(doctor)) throw new Error(doctor.absent);
    const keys = dashboardKeys(`${queue.keys.prefix}ql:`);
    await queue.redis.sadd(queue.keys.queues, 'mail');
    await queue.redis.zadd(queue.keys.levels('mail'), 0, '5');
    const broken = await queue.push('reports', 'r', {});
    await queue.redis.hset(queue.keys.job(broken), 'payload', '{not json');

    let step = await stepLayoutCheck(queue, doctor, keys, 'default', null);
    const { run } = step;
    const found = [...step.findings];
    expect(await queue.redis.ttl(keys.layoutDoctorRun('default', run))).toBeGreaterThan(LAYOUT_CHECK_SECONDS - 5);
    while (!step.done) {
      step = await stepLayoutCheck(queue, doctor, keys, 'default', run);
      expect(step.run).toBe(run);
      found.push(...step.findings);
    }
    expect(step.progress).toMatch(/^Checked \d+ keys and entries$/);
    expect(found.find(({ kind }) => kind === 'level-without-stream')).not.toHaveProperty('job');
    const payload = found.find(({ kind }) => kind === 'invalid-payload')!;
    expect(payload).toMatchObject({ job: broken, title: 'Payloads that are not JSON', repairable: true });
    expect((await repairLayoutFindings(queue, doctor, keys, 'default', run, [payload.id])).outcomes).toEqual([{ id: payload.id, outcome: 'repaired' }]);
    expect(await queue.redis.zscore(queue.keys.failed, String(broken))).not.toBeNull();

    await expect(stepLayoutCheck(queue, doctor, keys, 'default', 'a'.repeat(24))).rejects.toMatchObject({
      invalidRequest: true,
      message: expect.stringMatching(/run the check again/),
    });
    await expect(stepLayoutCheck(queue, doctor, keys, 'default', '../../etc')).rejects.toMatchObject({ invalidRequest: true });
  });
});
