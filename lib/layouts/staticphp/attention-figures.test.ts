import { describe, expect, it } from 'vitest';
import { testQueueFactory } from './test-redis';
import { readQueueFigures, readRecentFailures } from './attention-figures';

const openQueue = testQueueFactory();

/** Look further at once: every wait and every hold counts as long. */
const NOW_ON = { waitedSeconds: 0, heldSeconds: 0 };

async function serverNow(queue: Awaited<ReturnType<typeof openQueue>>): Promise<number> {
  return Number((await queue.redis.time())[0]);
}

/** The waiting figures of `names`, in order, once their counts are seen to be stats()'s own. */
async function waitingFiguresOf(queue: Awaited<ReturnType<typeof openQueue>>, names: string[], further: Parameters<typeof readQueueFigures>[2]) {
  const read = await readQueueFigures(queue, names, further);
  expect(read.map(({ stats }) => stats)).toEqual(await queue.countsOf(names));
  return read.map(({ waiting }) => waiting);
}

describe('readQueueFigures', () => {
  it('finds the oldest job not handed out, the last delivery and the due delayed jobs, per queue in order', async () => {
    const queue = await openQueue();
    const now = await serverNow(queue);
    // Three entries at two levels; the first one is delivered, the other two wait.
    await queue.push('mail', 'a', {});
    const waiting = await queue.push('mail', 'b', {}, { priority: 5 });
    await queue.push('mail', 'c', {});
    const held = (await queue.reserve(['mail'], 'w:1', 30))!;
    expect(held.id).toBe(waiting);
    await queue.push('later', 'd', {}, { delaySeconds: 600 });
    const due = await queue.push('later', 'e', {}, { delaySeconds: 600 });
    await queue.redis.zadd(queue.keys.delayed('later'), now - 120, String(due));

    const [mail, later, none] = await waitingFiguresOf(queue, ['mail', 'later', 'never-pushed'], NOW_ON);
    expect(mail).toMatchObject({ due: 0, oldestDueAt: null });
    const mailFigures = mail as { oldestWaitingAt: number; lastDeliveredEntryAt: number };
    expect(mailFigures.oldestWaitingAt).toBeGreaterThanOrEqual(now - 1);
    expect(mailFigures.lastDeliveredEntryAt).toBeGreaterThanOrEqual((now - 1) * 1000);
    expect(mailFigures).toMatchObject({
      newestHeldDeliveryAt: expect.any(Number),
      heldLong: [{ queue: 'mail', level: '5', entry: held.entry, deliveries: 1 }],
    });
    expect(later).toEqual({ oldestWaitingAt: now - 120, lastDeliveredEntryAt: null, due: 1, oldestDueAt: now - 120, newestHeldDeliveryAt: null, heldLong: [] });
    expect(none).toEqual({ oldestWaitingAt: null, lastDeliveredEntryAt: null, due: 0, oldestDueAt: null, newestHeldDeliveryAt: null, heldLong: [] });

    // Once every entry is handed out nothing waits, so the last delivery is not looked for; all three are held.
    await queue.reserve(['mail'], 'w:1', 30);
    await queue.reserve(['mail'], 'w:1', 30);
    const [drained] = await waitingFiguresOf(queue, ['mail'], NOW_ON);
    expect(drained).toMatchObject({ oldestWaitingAt: null, lastDeliveredEntryAt: null, due: 0, oldestDueAt: null, newestHeldDeliveryAt: null });
    expect((drained as { heldLong: unknown[] }).heldLong).toHaveLength(3);
  });

  it('reads the last delivery only for a queue whose oldest job has waited long enough', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'a', {});
    await queue.push('mail', 'b', {});
    await queue.reserve(['mail'], 'w:1', 30);
    const [young] = await waitingFiguresOf(queue, ['mail'], { waitedSeconds: 3600, heldSeconds: 3600 });
    expect(young).toMatchObject({ lastDeliveredEntryAt: null, newestHeldDeliveryAt: null, heldLong: [] });
    expect((young as { oldestWaitingAt: number | null }).oldestWaitingAt).not.toBeNull();
    const [old] = await waitingFiguresOf(queue, ['mail'], NOW_ON);
    const [seconds] = await queue.redis.time();
    const figures = old as { lastDeliveredEntryAt: number | null; newestHeldDeliveryAt: number };
    expect(figures.lastDeliveredEntryAt).not.toBeNull();
    // Handed out just now: within a few seconds of the server's clock.
    expect(Math.abs(Number(seconds) * 1000 - figures.newestHeldDeliveryAt)).toBeLessThan(5_000);
  });

  it('reports a queue whose keys are of the wrong type and still reads the others', async () => {
    const queue = await openQueue();
    await queue.push('fine', 'a', {});
    await queue.redis.set(queue.keys.delayed('broken'), 'not a set');
    await queue.push('broken-stream', 'b', {});
    await queue.redis.del(queue.keys.stream('broken-stream', '0'));
    await queue.redis.set(queue.keys.stream('broken-stream', '0'), 'not a stream');
    const read = await readQueueFigures(queue, ['broken', 'broken-stream', 'fine'], NOW_ON);
    expect(read.map(({ stats }) => stats)).toEqual(await queue.countsOf(['broken', 'broken-stream', 'fine']));
    const [broken, brokenStream, fine] = read;
    expect(broken).toEqual({
      stats: { queue: 'broken', pending: 0, delayed: 0, reserved: 0, total: 0, error: expect.stringMatching(/^Redis refused a queue command: WRONGTYPE/) },
      waiting: null,
    });
    expect(brokenStream!.stats.error).toMatch(/WRONGTYPE/);
    expect(brokenStream!.waiting).toBeNull();
    expect(fine!.stats).toEqual({ queue: 'fine', pending: 1, delayed: 0, reserved: 0, total: 1 });
    expect(fine!.waiting).toMatchObject({ lastDeliveredEntryAt: null, due: 0 });
    expect(fine!.waiting!.oldestWaitingAt).not.toBeNull();
  });

  it('reads more queues than one round trip takes, each queue’s figures in its own place', async () => {
    const queue = await openQueue();
    // 450 queues: three round trips, the wrong-typed one in the middle of the second.
    const names = Array.from({ length: 450 }, (_, n) => `q-${String(n).padStart(3, '0')}`);
    const pushed = names.filter((_, n) => n % 7 === 0);
    for (const name of pushed) await queue.push(name, 'a', {}, { delaySeconds: 600 });
    await queue.redis.set(queue.keys.delayed('q-333'), 'not a set');
    const read = await waitingFiguresOf(queue, names, NOW_ON);
    expect(read).toHaveLength(450);
    names.forEach((name, n) => {
      const figures = read[n];
      if (name === 'q-333') expect(figures).toBeNull();
      else expect(figures).toMatchObject({ oldestWaitingAt: null, due: 0 });
    });
    expect((await readQueueFigures(queue, names, NOW_ON)).filter(({ stats }) => stats.delayed === 1).map(({ stats }) => stats.queue)).toEqual(pushed);
  });
});

describe('readRecentFailures', () => {
  it('counts the failures since a moment by queue, newest first, with the newest error’s first line', async () => {
    const queue = await openQueue();
    const fail = async (name: string, error: string) => {
      await queue.push(name, 'job', {});
      await queue.fail((await queue.reserve([name], 'w:1', 30))!, error);
    };
    await fail('mail', 'old failure');
    await fail('mail', 'SMTP refused\n  at send (mail.php:12)');
    await fail('pdf', 'out of memory');
    const now = await serverNow(queue);
    // One failure from long ago, outside the window.
    const [oldest] = await queue.redis.zrange(queue.keys.failed, '0', '0');
    await queue.redis.zadd(queue.keys.failed, String(now - 3600), oldest!);

    const recent = await readRecentFailures(queue, now - 900, 10);
    expect(recent.truncated).toBe(false);
    expect([...recent.byQueue.keys()].sort()).toEqual(['mail', 'pdf']);
    expect(recent.byQueue.get('mail')).toMatchObject({ failedAt: [expect.any(Number)], latest: { errorFirstLine: 'SMTP refused' } });
    expect(recent.byQueue.get('pdf')?.latest.errorFirstLine).toBe('out of memory');

    const capped = await readRecentFailures(queue, now - 900, 1);
    expect(capped.truncated).toBe(true);
    expect([...capped.byQueue.values()].flatMap((failures) => failures.failedAt)).toHaveLength(1);
  });
});
