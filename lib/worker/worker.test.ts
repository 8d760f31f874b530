import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RedisQueue } from '../layouts/staticphp/redis-queue';
import { sleep, testSettings, testQueueFactory, waitFor } from '../layouts/staticphp/test-redis';
import { Worker, type JobHandler, type WorkerEvent } from './worker';

const openQueue = testQueueFactory();

/** Runs a worker until `done` holds, then stops it and waits for it. */
async function runUntil(worker: Worker, done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const running = worker.run();
  try {
    await waitFor(async () => ((await done()) ? true : undefined), timeoutMs);
  } finally {
    worker.stop();
    await running;
  }
}

describe('Worker', () => {
  it('two workers racing for one backlog never share a job', async () => {
    const queue = await openQueue();
    const other = await RedisQueue.connect(queue.settings);
    const total = 400;
    await queue.pushMany(Array.from({ length: total }, (_, n) => ({ queue: 'race', name: 'record', payload: { n } })));
    const runs = new Map<number, string[]>();
    const recorder =
      (label: string): JobHandler =>
      async (_payload, { job }) => {
        runs.set(job.id, [...(runs.get(job.id) ?? []), label]);
        await sleep(Math.random() * 3);
      };
    const first = new Worker(queue, { queues: ['race'], handlers: { record: recorder('first') }, concurrency: 8, idleMs: 20, workerId: 'first:1' });
    const second = new Worker(other, { queues: ['race'], handlers: { record: recorder('second') }, concurrency: 8, idleMs: 20, workerId: 'second:2' });
    const running = [first.run(), second.run()];
    try {
      await waitFor(async () => ((await queue.stats()).length === 0 ? true : undefined), 20_000);
    } finally {
      first.stop();
      second.stop();
      await Promise.all(running);
      await other.close();
    }
    expect(runs.size).toBe(total);
    const shared = [...runs].filter(([, labels]) => labels.length !== 1);
    expect(shared).toEqual([]);
    const byFirst = [...runs.values()].filter(([label]) => label === 'first').length;
    expect(byFirst).toBeGreaterThan(0);
    expect(byFirst).toBeLessThan(total);
  });

  it('releases with backoff and last_error until max_attempts, then fails the job', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'always-throws', {}, { maxAttempts: 3 });
    const events: WorkerEvent[] = [];
    const worker = new Worker(queue, {
      queues: ['default'],
      handlers: {
        'always-throws': () => {
          throw new Error('the printer is on fire');
        },
      },
      retryDelaySeconds: () => 0,
      idleMs: 50,
      onEvent: (event) => events.push(event),
    });
    await runUntil(worker, async () => (await queue.failedCount()) === 1);
    expect(events.map((event) => event.type)).toEqual(['released', 'released', 'failed']);
    const [row] = await queue.failedRows(1);
    expect(row).toMatchObject({ id, attempts: '3' });
    expect(row?.error).toMatch(/^Error: the printer is on fire\n\s+at /);
    expect(row?.last_error).toMatch(/^Error: the printer is on fire/);
  });

  it('completes what succeeds, and fails a job that outruns its timeout or has no handler', async () => {
    const queue = await openQueue();
    const ok = await queue.push('default', 'works', { value: 2 });
    const slow = await queue.push('default', 'hangs', {}, { maxAttempts: 1 });
    const unknown = await queue.push('default', 'nobody-handles-this', {}, { maxAttempts: 1 });
    let seen: unknown;
    const worker = new Worker(queue, {
      queues: ['default'],
      timeoutSeconds: 1,
      idleMs: 50,
      handlers: {
        works: (payload) => {
          seen = payload;
        },
        hangs: (_payload, { signal }) => new Promise((resolve) => signal.addEventListener('abort', resolve)),
      },
    });
    await runUntil(worker, async () => (await queue.failedCount()) === 2);
    expect(seen).toEqual({ value: 2 });
    expect(await queue.redis.exists(queue.keys.job(ok))).toBe(0);
    const errors = Object.fromEntries((await queue.failedRows(10)).map((row) => [row.id, row.error]));
    expect(errors[slow]).toMatch(/ran longer than the 1s timeout/);
    expect(errors[unknown]).toMatch(/No handler is registered for job name "nobody-handles-this"/);
  });

  it('runs a job that released itself on its last attempt, as PHP does, and fails one reclaimed past its max_attempts unrun', async () => {
    const queue = await openQueue();
    // As PHP leaves a job whose handler called $job->release() on its only attempt.
    const selfReleased = await queue.push('selfrel', 'record', { n: 1 }, { maxAttempts: 1 });
    await queue.redis.hset(queue.keys.job(selfReleased), 'attempts', '1');
    // A holder that died mid-job on its only attempt, its claim run out.
    const abandoned = await queue.push('dead', 'record', { n: 2 }, { maxAttempts: 1 });
    expect((await queue.reserve(['dead'], 'deadhost:1', 1))?.id).toBe(abandoned);
    await sleep(1100);

    const ran: number[] = [];
    const events: WorkerEvent[] = [];
    const worker = new Worker(queue, {
      queues: ['selfrel', 'dead'],
      timeoutSeconds: 1,
      idleMs: 50,
      handlers: { record: (_payload, { job }) => void ran.push(job.id) },
      onEvent: (event) => events.push(event),
    });
    await runUntil(worker, async () => (await queue.failedCount()) === 1 && (await queue.redis.exists(queue.keys.job(selfReleased))) === 0);

    expect(ran).toEqual([selfReleased]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'completed', job: expect.objectContaining({ id: selfReleased, attempts: 2, reclaimed: false }) }),
    );
    expect(await queue.redis.exists(queue.keys.job(selfReleased))).toBe(0);
    const [row] = await queue.failedRows(1);
    expect(row).toMatchObject({ id: abandoned, attempts: '2' });
    expect(row?.error).toMatch(/reserved 2 times, more than its max_attempts of 1; the workers holding it stopped before finishing/);
  });

  it('a busy slot settles each job and is handed the next in the same call', async () => {
    const queue = await openQueue();
    const total = 30;
    await queue.pushMany(Array.from({ length: total }, (_, n) => ({ queue: 'busy', name: 'record', payload: { n } })));
    const handedOut = { byReserve: 0, bySettle: 0 };
    const reserve = queue.reserve.bind(queue);
    const settleAndReserve = queue.settleAndReserve.bind(queue);
    queue.reserve = async (...args) => {
      const job = await reserve(...args);
      if (job) handedOut.byReserve++;
      return job;
    };
    queue.settleAndReserve = async (...args) => {
      const settled = await settleAndReserve(...args);
      if (settled.next) handedOut.bySettle++;
      return settled;
    };
    const ran: number[] = [];
    const worker = new Worker(queue, { queues: ['busy'], idleMs: 50, handlers: { record: (payload) => void ran.push((payload as { n: number }).n) } });
    await runUntil(worker, async () => (await queue.stats()).length === 0);
    expect(ran).toEqual(Array.from({ length: total }, (_, n) => n));
    expect(handedOut).toEqual({ byReserve: 1, bySettle: total - 1 });
  });

  it('backs off while Redis is unreachable instead of crashing', async () => {
    const queue = await RedisQueue.connect(testSettings());
    await queue.close();
    const events: WorkerEvent[] = [];
    const worker = new Worker(queue, { queues: ['default'], handlers: {}, onEvent: (event) => events.push(event) });
    await runUntil(worker, () => events.length >= 2, 5_000);
    expect(events.slice(0, 2)).toMatchObject([
      { type: 'queue-unreachable', retryInMs: 250 },
      { type: 'queue-unreachable', retryInMs: 500 },
    ]);
    expect((events[0] as { error: string }).error).toMatch(/^The queue could not reach redis: /);
  });
});

describe('the worker process', () => {
  function startWorker(prefix: string, timeoutSeconds: number) {
    return spawn('node', ['bin/queuelens.js', 'work', 'default', '--timeout', String(timeoutSeconds), '--prefix', prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  it('killed with SIGKILL mid-job: its job is reclaimed once the claim runs out', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'demo.sleep', { ms: 60_000 });
    const child = startWorker(queue.keys.prefix, 2);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const holder = await waitFor(async () => (await queue.redis.hget(queue.keys.job(id), 'reserved_by')) || undefined);
    expect(holder).toMatch(new RegExp(`:${child.pid}$`));
    child.kill('SIGKILL');
    await exited;
    expect(await queue.reserve(['default'], 'rescuer:1', 2)).toBeNull();
    const rescued = await waitFor(async () => (await queue.reserve(['default'], 'rescuer:1', 2)) ?? undefined);
    expect(rescued).toMatchObject({ id, attempts: 2, fields: { reserved_by: 'rescuer:1' } });
  });

  it('on SIGTERM finishes the running job, then exits 0', async () => {
    const queue = await openQueue();
    const id = await queue.push('default', 'demo.sleep', { ms: 1500 });
    const child = startWorker(queue.keys.prefix, 30);
    const exitCode = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await waitFor(async () => (await queue.redis.hget(queue.keys.job(id), 'reserved_by')) || undefined);
    child.kill('SIGTERM');
    expect(await exitCode).toBe(0);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
    expect(await queue.stats()).toEqual([]);
  });
});
