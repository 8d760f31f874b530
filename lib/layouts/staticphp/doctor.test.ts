import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../redis/config';
import { applyRepair, applyRepairs, type DoctorRepair } from './doctor-repairs';
import { RedisQueue } from './redis-queue';
import { sleep, testQueueFactory } from './test-redis';
import { staticphpKeyTable } from './key-table';
import { runDoctor, type Finding, type FindingKind } from './doctor';

const openQueue = testQueueFactory();

function ofKind(findings: Finding[], kind: FindingKind): Finding[] {
  return findings.filter((finding) => finding.kind === kind);
}

/** Finds exactly one finding of `kind`, repairs it, and checks the repair is idempotent and leaves the layout clean. */
async function repairOnly(queue: RedisQueue, kind: FindingKind, expected: Partial<Finding>): Promise<Finding> {
  const findings = await runDoctor(queue);
  expect(findings.map((finding) => finding.kind)).toEqual([kind]);
  const [found] = findings;
  expect(found).toMatchObject(expected);
  expect(found!.explanation.length).toBeGreaterThan(20);
  expect(found!.repairDescription.length).toBeGreaterThan(20);
  expect(await applyRepair(queue, found!.repair!)).toBe(true);
  expect(await applyRepair(queue, found!.repair!)).toBe(false);
  expect(await runDoctor(queue)).toEqual([]);
  return found!;
}

describe('the doctor', () => {
  it('finds nothing wrong in a layout the driver wrote', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {}, { priority: 2, uniqueKey: 'u-1' });
    await queue.push('mail', 'b', {}, { delaySeconds: 600 });
    const reserved = await queue.push('mail', 'c', {}, { priority: 9 });
    expect((await queue.reserve(['mail'], 'w:1', 60))?.id).toBe(reserved);
    await queue.push('mail', 'd', {}, { maxAttempts: 1 });
    await queue.fail((await queue.reserve(['mail'], 'w:1', 60))!, 'boom');
    expect(await runDoctor(queue)).toEqual([]);
  });

  it('requeues an orphan job hash, once', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', { to: 1 }, { priority: 4 });
    const entry = (await queue.redis.hget(queue.keys.job(id), 'entry'))!;
    await queue.redis.xdel(queue.keys.stream('mail', 4), entry);
    await repairOnly(queue, 'orphan-job', { jobId: id, severity: 'warning', key: queue.keys.job(id), repair: { kind: 'requeue-orphan', id } });
    expect(await queue.redis.xlen(queue.keys.stream('mail', 4))).toBe(1);
    expect((await queue.reserve(['mail'], 'w:1', 60))?.id).toBe(id);
  });

  it('reports a hash without a queue as an orphan it cannot requeue', async () => {
    const queue = await openQueue();
    await queue.redis.set(queue.keys.seq, 5);
    await queue.redis.hset(queue.keys.job(5), 'name', 'x', 'payload', '{}');
    const findings = await runDoctor(queue);
    expect(findings).toMatchObject([{ kind: 'orphan-job', jobId: 5, repair: null }]);
  });

  it('drops a stream entry whose hash is gone', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'send', {});
    await queue.push('mail', 'keep', {});
    await queue.redis.del(queue.keys.job(id));
    await repairOnly(queue, 'tombstone-entry', { jobId: id, severity: 'info', key: queue.keys.stream('mail', 0) });
    expect(await queue.redis.xlen(queue.keys.stream('mail', 0))).toBe(1);
  });

  it('clears an entry field that names no entry', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'later', {}, { delaySeconds: 600 });
    await queue.redis.hset(queue.keys.job(id), 'entry', '1-1');
    await repairOnly(queue, 'dangling-entry', { jobId: id, repair: { kind: 'clear-entry', id, entry: '1-1' } });
    expect(await queue.redis.hget(queue.keys.job(id), 'entry')).toBe('');

    // An entry field that is not a stream id at all names no entry either.
    await queue.redis.hset(queue.keys.job(id), 'entry', 'garbage');
    await repairOnly(queue, 'dangling-entry', { jobId: id, repair: { kind: 'clear-entry', id, entry: 'garbage' } });
  });

  it('finds nothing wrong once the worker that held a parked job has finished it', async () => {
    const queue = await openQueue();
    const id = await queue.push('mail', 'long', {});
    expect((await queue.reserve(['mail'], 'patient:1', 30))?.id).toBe(id);
    await sleep(1100);
    // A one-second worker reclaims the entry while the holder's claim is live: the job is parked in delayed.
    expect(await queue.reserve(['mail'], 'hasty:2', 1)).toBeNull();
    expect(await queue.redis.zscore(queue.keys.delayed('mail'), String(id))).not.toBeNull();
    // The PHP driver's complete deletes the hash and leaves the parked id in delayed (QueueLens's own
    // complete removes it too); the queue's next reserve drops it when due.
    await queue.redis.del(queue.keys.job(id));
    expect(await runDoctor(queue)).toEqual([]);
  });

  it('drops failed ids whose hash is gone', async () => {
    const queue = await openQueue();
    await queue.redis.zadd(queue.keys.failed, 100, '78');
    await repairOnly(queue, 'dangling-failed', { jobId: 78, key: queue.keys.failed });
    expect(await queue.redis.exists(queue.keys.failed)).toBe(0);
  });

  it('frees a unique key that names a missing job or a job holding another key', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'keep', {});
    await queue.redis.set(queue.keys.unique('gone'), '999');
    await repairOnly(queue, 'wrong-unique', { key: queue.keys.unique('gone'), repair: { kind: 'free-unique', key: 'gone', id: '999' } });

    const id = await queue.push('mail', 'a', {}, { uniqueKey: 'mine' });
    await queue.redis.set(queue.keys.unique('theirs'), String(id));
    await repairOnly(queue, 'wrong-unique', { jobId: id, key: queue.keys.unique('theirs') });
    expect(await queue.redis.get(queue.keys.unique('mine'))).toBe(String(id));
  });

  it('finds nothing in drained queues: PHP never unregisters a queue, nor its levels and streams', async () => {
    const queue = await openQueue();
    for (const [name, priority] of [
      ['old', 0],
      ['older', 2],
      ['oldest', -5],
    ] as const) {
      await queue.push(name, 'a', {}, { priority });
      await queue.complete((await queue.reserve([name], 'w:1', 60))!);
      expect(await queue.redis.exists(queue.keys.stream(name, priority), queue.keys.levels(name))).toBe(2);
    }
    expect(await queue.redis.scard(queue.keys.queues)).toBe(3);
    expect(await runDoctor(queue)).toEqual([]);
  });

  it('reports every finding, several of each kind in one key, each once, and repairs them all', async () => {
    const queue = await openQueue();
    const { keys, redis } = queue;
    // Three drained queues beside the broken state: none of them is a finding.
    for (const name of ['drained-a', 'drained-b', 'drained-c']) {
      await queue.push(name, 'a', {});
      await queue.complete((await queue.reserve([name], 'w:1', 60))!);
    }
    const ids = await queue.pushMany(
      Array.from({ length: 12 }, (_, n) => ({ queue: 'mail', name: `n${n}`, payload: {}, options: n >= 9 ? { delaySeconds: 600 } : {} })),
    );
    const [orphans, tombstones, invalid, delayed] = [ids.slice(0, 3), ids.slice(3, 6), ids.slice(6, 9), ids.slice(9, 12)];
    for (const id of orphans) await redis.xdel(keys.stream('mail', 0), (await redis.hget(keys.job(id), 'entry'))!);
    for (const id of tombstones) await redis.del(keys.job(id));
    // Entries that carry no job id at all: one finding each, not one per stream.
    const bare = [await redis.xadd(keys.stream('mail', 0), '*', 'other', 'x'), await redis.xadd(keys.stream('mail', 0), '*', 'other', 'y')];
    for (const id of invalid) await redis.hset(keys.job(id), 'payload', '{nope');
    for (const id of delayed) await redis.hset(keys.job(id), 'entry', `1-${id}`);
    // Delayed ids whose hash is gone are the driver's own state (a parked job finished by its holder): none of them is a finding.
    await redis.zadd(keys.delayed('mail'), 1, '9001', 2, '9002', 3, '9003');
    await redis.zadd(keys.failed, 1, '9011', 2, '9012', 3, '9013');
    await redis.zadd(keys.levels('mail'), 7, '7', 8, '8', 9, '9');
    for (const key of ['u1', 'u2', 'u3']) await redis.set(keys.unique(key), '9999');

    const findings = await runDoctor(queue);
    const counts = Object.fromEntries([...new Set(findings.map((finding) => finding.kind))].map((kind) => [kind, ofKind(findings, kind).length]));
    expect(counts).toEqual({
      'orphan-job': 3,
      'tombstone-entry': 5,
      'invalid-payload': 3,
      'dangling-entry': 3,
      'dangling-failed': 3,
      'level-without-stream': 3,
      'wrong-unique': 3,
    });
    expect(
      ofKind(findings, 'tombstone-entry')
        .flatMap((finding) => finding.jobId ?? [])
        .sort((x, y) => x - y),
    ).toEqual(tombstones);
    expect(
      ofKind(findings, 'tombstone-entry')
        .filter((finding) => finding.jobId === undefined)
        .map((finding) => finding.subject)
        .sort(),
    ).toEqual(bare.map((entry) => `${keys.stream('mail', 0)} ${entry}`).sort());
    expect(ofKind(findings, 'dangling-failed').map((finding) => finding.jobId)).toEqual([9011, 9012, 9013]);

    expect(
      (
        await applyRepairs(
          queue,
          findings.map((finding) => finding.repair!),
        )
      ).every(Boolean),
    ).toBe(true);
    expect(await runDoctor(queue)).toEqual([]);
  });

  it('tells apart members of one set that are no job ids', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'later', {}, { delaySeconds: 600 });
    await queue.redis.zadd(queue.keys.delayed('mail'), 1, 'abc', 2, 'def');
    await queue.redis.zadd(queue.keys.failed, 1, 'ghi', 2, 'jkl');
    const findings = await runDoctor(queue);
    expect(findings.map((finding) => [finding.kind, finding.subject, finding.repair]).sort()).toEqual([
      ['dangling-delayed', `${queue.keys.delayed('mail')} abc`, null],
      ['dangling-delayed', `${queue.keys.delayed('mail')} def`, null],
      ['dangling-failed', `${queue.keys.failed} ghi`, null],
      ['dangling-failed', `${queue.keys.failed} jkl`, null],
    ]);
  });

  it('drops a level without a stream', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.redis.zadd(queue.keys.levels('mail'), 7, '7');
    await repairOnly(queue, 'level-without-stream', { key: queue.keys.stream('mail', 7), repair: { kind: 'drop-level', queue: 'mail', level: '7' } });
    expect(await queue.redis.zrange(queue.keys.levels('mail'), 0, '-1')).toEqual(['0']);
  });

  it('finds nothing in a job that released itself on its last attempt: PHP runs it', async () => {
    const queue = await openQueue();
    const ready = await queue.push('mail', 'a', {}, { maxAttempts: 2, uniqueKey: 'k' });
    const later = await queue.push('mail', 'b', {}, { maxAttempts: 1, delaySeconds: 600 });
    // What PHP's RELEASE leaves of a handler's $job->release() on the last
    // attempt: back in its stream (or delayed), attempts == max_attempts.
    await queue.redis.hset(queue.keys.job(ready), 'attempts', '2');
    await queue.redis.hset(queue.keys.job(later), 'attempts', '1');
    expect(await runDoctor(queue)).toEqual([]);
    expect(await queue.redis.zcard(queue.keys.failed)).toBe(0);
  });

  it('fails a job whose payload is not JSON, ready or delayed', async () => {
    const queue = await openQueue();
    const ready = await queue.push('mail', 'a', {});
    const later = await queue.push('mail', 'b', {}, { delaySeconds: 600 });
    await queue.redis.hset(queue.keys.job(ready), 'payload', '{nope');
    await queue.redis.hset(queue.keys.job(later), 'payload', 'O:8:"stdClass"');
    const findings = await runDoctor(queue);
    expect(
      ofKind(findings, 'invalid-payload')
        .map((finding) => finding.jobId)
        .sort(),
    ).toEqual([ready, later]);
    expect(
      await applyRepairs(
        queue,
        findings.map((finding) => finding.repair!),
      ),
    ).toEqual([true, true]);
    expect(
      await applyRepairs(
        queue,
        findings.map((finding) => finding.repair!),
      ),
    ).toEqual([false, false]);
    expect(await runDoctor(queue)).toEqual([]);
    expect(await queue.redis.zcard(queue.keys.failed)).toBe(2);
    expect(await queue.redis.hget(queue.keys.job(later), 'error')).toBe('Payload is not valid JSON, so no handler could be given it.');
  });

  it('raises queue:seq to the highest job id, never lowers it', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    const second = await queue.push('mail', 'b', {});
    await queue.redis.set(queue.keys.seq, '0');
    await expect(queue.push('mail', 'c', {})).rejects.toThrow(/already taken/);
    await queue.redis.set(queue.keys.seq, '1');
    await repairOnly(queue, 'seq-behind', { severity: 'critical', repair: { kind: 'raise-seq', to: second } });
    expect(await queue.push('mail', 'c', {})).toBe(second + 1);
    expect(await applyRepair(queue, { kind: 'raise-seq', to: second })).toBe(false);
    expect(await queue.redis.get(queue.keys.seq)).toBe(String(second + 1));
  });

  it('reports keys of the wrong type without a repair', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.redis.set(queue.keys.job(1), 'not a hash');
    await queue.redis.sadd(queue.keys.unique('x'), 'a set');
    await queue.redis.set(queue.keys.delayed('mail'), 'a string');
    const findings = await runDoctor(queue);
    const wrong = ofKind(findings, 'wrong-type');
    expect(wrong.map((finding) => finding.key).sort()).toEqual([queue.keys.delayed('mail'), queue.keys.job(1), queue.keys.unique('x')].sort());
    expect(wrong.every((finding) => finding.repair === null && finding.severity === 'critical')).toBe(true);
    // The stream entry's job is now a string, not a job: reserve would drop it.
    expect(ofKind(findings, 'tombstone-entry')).toHaveLength(1);
  });

  it('a repair racing workers neither duplicates nor loses a job', async () => {
    const queue = await openQueue();
    const worker = await openQueue({ prefix: queue.keys.prefix });
    const invalid = await queue.pushMany(Array.from({ length: 40 }, () => ({ queue: 'race', name: 'x', payload: {} })));
    const orphans = await queue.pushMany(Array.from({ length: 40 }, () => ({ queue: 'race', name: 'y', payload: {} })));
    for (const id of invalid) await queue.redis.hset(queue.keys.job(id), 'payload', '{nope');
    for (const id of orphans) await queue.redis.xdel(queue.keys.stream('race', 0), (await queue.redis.hget(queue.keys.job(id), 'entry'))!);
    const findings = await runDoctor(queue);
    expect(ofKind(findings, 'invalid-payload')).toHaveLength(40);
    expect(ofKind(findings, 'orphan-job')).toHaveLength(40);
    const repairs = findings.map((finding) => finding.repair!) satisfies DoctorRepair[];

    const reserved: number[] = [];
    const reserving = (async () => {
      for (let idle = 0; idle < 20;) {
        const job = await worker.reserve(['race'], 'w:1', 60);
        if (job) reserved.push(job.id);
        else {
          idle += 1;
          await sleep(5);
        }
      }
    })();
    // Two doctors repairing the same findings at once, while the worker reserves.
    const [first, second] = await Promise.all([applyRepairs(queue, repairs), applyRepairs(worker, repairs)]);
    await reserving;

    const requeued = repairs.filter((repair, i) => repair.kind === 'requeue-orphan' && (first[i] || second[i]));
    expect(repairs.every((_, i) => !(first[i] && second[i]))).toBe(true);
    expect(requeued).toHaveLength(40);
    // Each job ran at most once; each job that cannot run was failed (by the doctor or by a reserve), never handed out.
    expect(new Set(reserved).size).toBe(reserved.length);
    for (const id of orphans) expect(reserved).toContain(id);
    for (const id of invalid) expect(reserved).not.toContain(id);
    expect((await queue.redis.zrange(queue.keys.failed, 0, '-1')).map(Number).sort((a, b) => a - b)).toEqual(invalid.sort((a, b) => a - b));
  });
});

// Commands that cost the same whatever the size of the structure they touch
// (or that carry an explicit bound of at most 1000). On a loaded machine the
// kernel can pause redis-server in the middle of one of them long enough to
// cross 10 ms, which SLOWLOG then records; those entries say nothing about
// the doctor's reads. Anything else in the log (a ZRANGE 0 -1, an HGETALL, a
// KEYS, a COUNT above 1000) fails the test.
const CONSTANT_COST = new Set(['type', 'hget', 'hmget', 'zscore', 'xlen', 'zcard', 'get', 'echo', 'time', 'sismember', 'exists']);

function isBoundedRead(args: string[]): boolean {
  const [name = '', ...rest] = args.map((arg) => arg.toLowerCase());
  if (CONSTANT_COST.has(name)) return true;
  const countAt = rest.lastIndexOf('count');
  const count = countAt >= 0 ? Number(rest[countAt + 1]) : Number.NaN;
  if (['scan', 'sscan', 'xrange'].includes(name)) return count <= 1000;
  if (name === 'xpending') return Number(rest[4]) <= 1000;
  if (name === 'zrange') return Number(rest[2]) - Number(rest[1]) < 1000 && Number(rest[1]) >= 0;
  return false;
}

function expectNoSlowCommands(log: unknown): void {
  const entries = log as [number, number, number, string[]][];
  const unbounded = entries.filter((entry) => !isBoundedRead(entry[3]));
  expect(unbounded).toEqual([]);
  if (entries.length > 0)
    console.warn(
      `SLOWLOG: ${entries.length} bounded commands crossed 10 ms (machine load):`,
      entries.map((entry) => `${entry[3].join(' ')} ${entry[2]}µs`),
    );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('the doctor and the census on 200,000 jobs', () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill('SIGKILL');
    server = undefined;
  });

  // The shared server's SLOWLOG settings are not ours to change: this runs on
  // a redis-server of its own, logging every command slower than 10 ms.
  it('reads in bounded steps: no command it sends is slow', async () => {
    const port = await freePort();
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--slowlog-log-slower-than', '10000'], {
      stdio: 'ignore',
    });
    let queue: RedisQueue | undefined;
    for (let tries = 0; !queue; tries++) {
      try {
        queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port, prefix: 'big:' }));
      } catch (error) {
        if (tries > 50) throw error;
        await sleep(100);
      }
    }
    try {
      const { keys, redis } = queue;
      const total = 200_000;
      for (let start = 1; start <= total; start += 5000) {
        const pipeline = redis.pipeline();
        for (let id = start; id < start + 5000; id++) {
          const delayed = id % 4 === 0;
          const failed = id % 4 === 1;
          const entry = delayed || failed ? '' : pipeline.xadd(keys.stream('bulk', id % 3), `${id}-1`, 'job', String(id)) && `${id}-1`;
          pipeline.hset(
            keys.job(id),
            'queue',
            'bulk',
            'name',
            'n',
            'payload',
            `{"id":${id}}`,
            'attempts',
            '0',
            'max_attempts',
            '3',
            'priority',
            String(id % 3),
            'unique_key',
            '',
            'available_at',
            '0',
            'reserved_until',
            '0',
            'reserved_by',
            '',
            'last_error',
            '',
            'created_at',
            '2026-01-01 00:00:00',
            'entry',
            entry,
          );
          if (delayed) pipeline.zadd(keys.delayed('bulk'), 2_000_000_000, String(id));
          if (failed) pipeline.zadd(keys.failed, 1_700_000_000, String(id)).hset(keys.job(id), 'error', 'e', 'failed_at', '2026-01-01 00:00:00');
        }
        await pipeline.exec();
      }
      await redis.pipeline().zadd(keys.levels('bulk'), 0, '0', 1, '1', 2, '2').sadd(keys.queues, 'bulk').set(keys.seq, total).exec();
      await redis.slowlog('RESET');

      let steps = 0;
      const findings = await runDoctor(queue, () => (steps += 1));
      expect(findings).toEqual([]);
      expect(steps).toBeGreaterThan(200);
      expectNoSlowCommands(await redis.slowlog('GET', 100));

      // The census over the same 200,000 jobs: bounded SCAN steps only.
      let census = { cursor: '0', jobs: 0, steps: 0 };
      do {
        const step = await staticphpKeyTable(queue).censusStep(census.cursor);
        census = { cursor: step.cursor, jobs: census.jobs + (step.tallies['Job hashes'] ?? 0), steps: census.steps + 1 };
      } while (census.cursor !== '0');
      expect(census.jobs).toBeGreaterThanOrEqual(total);
      expect(census.steps).toBeGreaterThan(100);
      expectNoSlowCommands(await redis.slowlog('GET', 100));

      // And a finding among them is still found.
      await redis.hset(keys.job(123_459), 'payload', 'not json');
      expect((await runDoctor(queue)).map((finding) => finding.jobId)).toEqual([123_459]);
      expectNoSlowCommands(await redis.slowlog('GET', 100));
    } finally {
      await queue.close();
    }
  }, 400_000);
});
