import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { queuelens } from './test-cli';

const openQueue = testQueueFactory();

describe('queuelens doctor', () => {
  it('exits 0 on a clean layout, 1 with each finding named, and repairs', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    const id = await queue.push('mail', 'send', {});
    expect(await queuelens('doctor', ...prefix)).toEqual({ code: 0, stdout: 'No problems found.\n', stderr: '' });

    await queue.redis.hset(queue.keys.job(id), 'payload', '{nope');
    await queue.redis.zadd(queue.keys.failed, 1, '99');
    const report = await queuelens('doctor', ...prefix);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain(`warning   invalid-payload job ${id} ${queue.keys.job(id)}`);
    expect(report.stdout).toContain(`info      dangling-failed job 99 ${queue.keys.failed}`);

    const json = JSON.parse((await queuelens('doctor', '--json', ...prefix)).stdout) as { findings: { kind: string; jobId: number }[] };
    expect(json.findings.map(({ kind, jobId }) => [kind, jobId]).sort()).toEqual([
      ['dangling-failed', 99],
      ['invalid-payload', id],
    ]);

    const repaired = await queuelens('doctor', '--repair', ...prefix);
    expect(repaired.code).toBe(0);
    expect(
      repaired.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('  ')[0])
        .sort(),
    ).toEqual(['repaired', 'repaired']);
    expect(await queuelens('doctor', ...prefix)).toMatchObject({ code: 0, stdout: 'No problems found.\n' });
  });

  it('reports and repairs every finding in one run, and no drained queue', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    for (const name of ['drained-a', 'drained-b', 'drained-c']) {
      await queue.push(name, 'a', {});
      await queue.complete((await queue.reserve([name], 'w:1', 60))!);
    }
    expect(await queuelens('doctor', ...prefix)).toEqual({ code: 0, stdout: 'No problems found.\n', stderr: '' });

    await queue.push('mail', 'keep', {});
    const bare = [];
    for (let n = 0; n < 3; n++) bare.push(await queue.redis.xadd(queue.keys.stream('mail', 0), '*', 'other', String(n)));
    await queue.redis.zadd(queue.keys.failed, 1, '97', 2, '98', 3, '99');
    const report = JSON.parse((await queuelens('doctor', '--json', ...prefix)).stdout) as { findings: { kind: string; subject: string }[] };
    expect(report.findings.map(({ kind, subject }) => `${kind} ${subject}`).sort()).toEqual(
      [
        ...['97', '98', '99'].map((id) => `dangling-failed ${queue.keys.failed} ${id}`),
        ...bare.map((entry) => `tombstone-entry ${queue.keys.stream('mail', 0)} ${entry}`),
      ].sort(),
    );

    const repaired = await queuelens('doctor', '--repair', ...prefix);
    expect(repaired.code).toBe(0);
    expect(
      repaired.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('  ')[0]),
    ).toEqual(Array(6).fill('repaired'));
    expect(await queuelens('doctor', ...prefix)).toMatchObject({ code: 0, stdout: 'No problems found.\n' });
    expect(await queue.redis.scard(queue.keys.queues)).toBe(4);
  });

  it('exits 1 after --repair when a finding can only be reported', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'send', {});
    await queue.redis.set(queue.keys.unique('odd'), 'x');
    await queue.redis.lpush(queue.keys.job(1000), 'a list');
    await queue.redis.set(queue.keys.seq, '1000');
    const outcome = await queuelens('doctor', '--repair', '--json', '--prefix', queue.keys.prefix);
    expect(outcome.code).toBe(1);
    const body = JSON.parse(outcome.stdout) as Record<string, { kind: string; key: string }[]>;
    expect(body.repaired!.map((finding) => finding.kind)).toEqual(['wrong-unique']);
    expect(body.notRepaired!.map((finding) => [finding.kind, finding.key])).toEqual([['wrong-type', queue.keys.job(1000)]]);
  });

  it('exits 2 on bad usage', async () => {
    expect((await queuelens('doctor', 'extra')).code).toBe(2);
    expect((await queuelens('doctor', '--fix')).code).toBe(2);
  });
});
