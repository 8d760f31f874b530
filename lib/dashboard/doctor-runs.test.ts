import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../queue/test-redis';
import { DOCTOR_RUN_SECONDS, stepDoctorRun } from './doctor-runs';
import { dashboardKeys } from './keys';

const openQueue = testQueueFactory();

describe('doctor runs', () => {
  it('keeps a check’s state in Redis by id between steps, with an expiry, and drops it when done', async () => {
    const queue = await openQueue();
    const keys = dashboardKeys(`${queue.keys.prefix}ql:`);
    await queue.redis.sadd(queue.keys.queues, 'mail');
    await queue.redis.zadd(queue.keys.levels('mail'), 0, '5');

    let step = await stepDoctorRun(queue, keys, null);
    const { run } = step;
    const findings = [...step.findings];
    expect(await queue.redis.ttl(keys.doctorRun(run))).toBeGreaterThan(DOCTOR_RUN_SECONDS - 5);
    while (!step.done) {
      step = await stepDoctorRun(queue, keys, run);
      expect(step.run).toBe(run);
      findings.push(...step.findings);
    }
    expect(findings.map((finding) => finding.kind)).toContain('level-without-stream');
    expect(step.progress).toMatch(/^Checked \d+ keys and entries$/);
    expect(await queue.redis.exists(keys.doctorRun(run))).toBe(0);
  });

  it('refuses an id it does not know or that is not one, as the request’s fault', async () => {
    const queue = await openQueue();
    const keys = dashboardKeys(`${queue.keys.prefix}ql:`);
    await expect(stepDoctorRun(queue, keys, 'a'.repeat(24))).rejects.toMatchObject({ invalidRequest: true, message: expect.stringMatching(/run the check again/) });
    await expect(stepDoctorRun(queue, keys, '../../etc')).rejects.toMatchObject({ invalidRequest: true });
  });
});
