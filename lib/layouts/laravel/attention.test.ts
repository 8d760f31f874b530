import { describe, expect, it } from 'vitest';
import { NO_ALERTS } from '../../dashboard/alerts';
import type { Connection } from '../../dashboard/connections';
import { readEveryQueueOverview } from '../../dashboard/every-queue-overview';
import { DEFAULT_MARKS, markRulesSchema, type MarkRules, type QueueMark } from '../../dashboard/marks';
import { testSettings } from '../staticphp/test-redis';
import { laravelLayout } from './layout';
import { LaravelHarness } from './php-harness';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory();

type Opened = Awaited<ReturnType<typeof openLaravel>>;

async function serverNow(redis: Opened['redis']): Promise<number> {
  return Number((await redis.time())[0]);
}

/** Every queue's marks, judged from the layout's own counts as the overview judges them. */
async function marksOf({ layout }: Opened, rules: MarkRules = DEFAULT_MARKS) {
  const { queues, attention, now } = await present(layout.attention).read({}, rules);
  return { now, byQueue: new Map(queues.map((row, index) => [row.queue, attention[index]!])) };
}

/**
 * Sets the expiry of queue `queue`'s one reservation `secondsAgo` in the
 * past, as if its worker had died that long ago and nobody popped since:
 * ZADD XX on the exact member the real pop wrote, its bytes untouched.
 */
async function expireReservation({ redis, layout }: Opened, queue: string, secondsAgo: number): Promise<number> {
  const key = layout.keys.reserved(queue);
  const [member] = await redis.zrangeBuffer(key, 0, '0');
  const expiredAt = (await serverNow(redis)) - secondsAgo;
  expect(await redis.zadd(key, 'XX', 'CH', String(expiredAt), member!)).toBe(1);
  return expiredAt;
}

function kinds(marks: readonly QueueMark[]): QueueMark['kind'][] {
  return marks.map((mark) => mark.kind);
}

const NO_FAILURES = { count: 0, minutes: 15, atLeast: false };

describe('the overview’s marks on Laravel queues, written and popped by the real Illuminate\\Queue\\RedisQueue', () => {
  it('marks a reservation nobody put back stuck, with no holder, and no worker for the job behind it; a real pop clears both', async () => {
    const opened = await openLaravel();
    const { laravel } = opened;
    const [a, b] = [await laravel.push('a'), await laravel.push('b')];
    expect(await laravel.pop(60)).toMatchObject({ id: a });
    expect((await marksOf(opened)).byQueue.get('default')!.marks).toEqual([]);

    const expiredAt = await expireReservation(opened, 'default', 300);
    const attention = (await marksOf(opened)).byQueue.get('default')!;
    expect(attention).toEqual({
      marks: [
        { kind: 'noWorker', ready: 1, waitingSeconds: expect.any(Number) },
        { kind: 'stuck', claims: 1, holders: [], ranOutAt: expiredAt },
      ],
      failedRecently: NO_FAILURES,
    });
    // Nobody popped since the reservation expired: none handed out for that long.
    const { waitingSeconds } = attention.marks[0] as { waitingSeconds: number };
    expect(waitingSeconds).toBeGreaterThanOrEqual(300);
    expect(waitingSeconds).toBeLessThan(300 + 5);

    // The real pop moves the expired reservation back (a again, at the tail) and takes b: a queue being popped earns nothing.
    expect(await laravel.pop(60)).toMatchObject({ id: b });
    expect((await marksOf(opened)).byQueue.get('default')!.marks).toEqual([]);
    expect((await laravel.drain()).map((job) => job.id)).toEqual([a]);
  });

  it('marks delayed jobs due past the threshold, counting every due one, and no worker for them; a real pop moves them and clears both', async () => {
    const opened = await openLaravel();
    const { laravel } = opened;
    const late = await laravel.later(-300);
    await laravel.later(-10);
    await laravel.later(600);
    const [noWorker, overdue] = (await marksOf(opened)).byQueue.get('default')!.marks;
    expect(overdue).toEqual({ kind: 'overdueDelayed', due: 2, dueSeconds: expect.any(Number) });
    expect((overdue as { dueSeconds: number }).dueSeconds).toBeGreaterThanOrEqual(300);
    expect((overdue as { dueSeconds: number }).dueSeconds).toBeLessThan(300 + 5);
    expect(noWorker).toEqual({ kind: 'noWorker', ready: 2, waitingSeconds: (overdue as { dueSeconds: number }).dueSeconds });

    expect(await laravel.pop(60)).toMatchObject({ id: late });
    expect((await marksOf(opened)).byQueue.get('default')!.marks).toEqual([]);
  });

  it('gives no mark to a queue being popped, even with every threshold at 0: a backlog, a live reservation and a job due later prove nobody absent', async () => {
    const opened = await openLaravel();
    const { laravel } = opened;
    for (const name of ['a', 'b', 'c']) await laravel.push(name);
    await laravel.later(600);
    await laravel.pop(60);
    const eager = markRulesSchema.parse({ '*': { noWorkerSeconds: 0, stuckSeconds: 0, overdueDelayedSeconds: 0, failingMinutes: 1 } });
    expect((await marksOf(opened, eager)).byQueue.get('default')).toEqual({ marks: [], failedRecently: { count: 0, minutes: 1, atLeast: false } });
  });

  it('judges each queue by its own entry, each field it leaves out at its default, `false` switching a mark off', async () => {
    const opened = await openLaravel();
    for (const queue of ['mail', 'reports', 'other']) {
      const laravel = new LaravelHarness(opened.prefix, queue);
      await laravel.push('ready');
      await laravel.pop(60);
      await laravel.push('waiting');
      await expireReservation(opened, queue, 120);
      await laravel.later(-120);
    }
    const rules = markRulesSchema.parse({
      mail: { stuckSeconds: 300 },
      reports: { noWorkerSeconds: false, overdueDelayedSeconds: false },
      '*': { overdueDelayedSeconds: 600 },
    });
    const { byQueue } = await marksOf(opened, rules);
    expect(kinds(byQueue.get('mail')!.marks)).toEqual(['noWorker', 'overdueDelayed']);
    expect(kinds(byQueue.get('reports')!.marks)).toEqual(['stuck']);
    expect(kinds(byQueue.get('other')!.marks)).toEqual(['noWorker', 'stuck']);
  });

  it('reports a queue whose key has the wrong type, and judges the others', async () => {
    const opened = await openLaravel();
    const { laravel, redis, layout } = opened;
    await laravel.push('a');
    await laravel.pop(60);
    await expireReservation(opened, 'default', 120);
    const broken = new LaravelHarness(opened.prefix, 'broken');
    await broken.push('b');
    await redis.set(layout.keys.delayed('broken'), 'not a sorted set');
    const { queues, attention } = await present(layout.attention).read({}, DEFAULT_MARKS);
    expect(queues.map((row) => row.queue)).toEqual(['broken', 'default']);
    expect(attention[0]).toEqual({
      marks: [],
      failedRecently: NO_FAILURES,
      error: `The key ${layout.keys.delayed('broken')} holds the wrong Redis type for the queue layout; nothing was changed. Inspect or remove that key.`,
    });
    expect(kinds(attention[1]!.marks)).toEqual(['stuck']);
  });

  it('reads a thousand queues in one pipeline, each judged on its own, empty and unparsable ones with no mark', async () => {
    const opened = await openLaravel();
    const { laravel, redis, prefix } = opened;
    await laravel.push('model');
    const [payload] = await redis.lrangeBuffer(opened.layout.keys.ready('default'), 0, 0);
    const now = await serverNow(redis);
    const names = Array.from({ length: 1000 }, (_, i) => `tenant-${String(i).padStart(4, '0')}`);
    const writes = redis.pipeline();
    names.forEach((name, i) => {
      const keys = opened.layout.keys;
      // Laravel's exact bytes, or bytes no JSON reader takes: the marks never decode a payload.
      const member = i % 2 === 0 ? payload! : Buffer.from(`not json ${i}`);
      if (i % 3 === 0) writes.rpush(keys.ready(name), member);
      if (i % 7 === 0) writes.zadd(keys.delayed(name), now - 120, member);
      if (i % 11 === 0) writes.zadd(keys.reserved(name), now - 120, member);
    });
    await writes.exec();
    const layout = laravelLayout(opened.layout.connection, { prefix, queues: names, horizonPrefix: null });
    const { queues, attention } = await present(layout.attention).read({}, DEFAULT_MARKS);
    expect(queues.map((row) => row.queue)).toEqual(names);
    expect(attention).toHaveLength(names.length);
    names.forEach((name, i) => {
      const expected: QueueMark['kind'][] = [];
      // Jobs can run (ready, or due) and a due job or an expired reservation proves nobody popped.
      if (i % 7 === 0 || (i % 3 === 0 && i % 11 === 0)) expected.push('noWorker');
      if (i % 11 === 0) expected.push('stuck');
      if (i % 7 === 0) expected.push('overdueDelayed');
      expect([name, kinds(attention[i]!.marks)]).toEqual([name, expected]);
      expect(attention[i]!.error).toBeUndefined();
    });
  });

  it('shows the marks on the overview, with no recent-failures figure where Laravel keeps no failed jobs', async () => {
    const opened = await openLaravel();
    const { laravel, layout } = opened;
    await laravel.later(-300);
    const connection: Connection = {
      name: 'laravel',
      label: 'laravel',
      settings: testSettings(),
      layout: { layout: 'laravel', prefix: opened.prefix, queues: null, horizonPrefix: null },
      readOnly: false,
      alerts: NO_ALERTS,
      marks: DEFAULT_MARKS,
    };
    const overview = await readEveryQueueOverview(layout, connection, `${opened.prefix}ql:`);
    expect(overview.absent.attention).toBeUndefined();
    expect(overview.failed).toBeNull();
    expect(overview.queues).toEqual([
      expect.objectContaining({
        queue: 'default',
        pending: 1,
        failedRecently: null,
        marks: [expect.objectContaining({ kind: 'noWorker' }), expect.objectContaining({ kind: 'overdueDelayed' })],
      }),
    ]);
  });
});
