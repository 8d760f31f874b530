import { randomBytes } from 'node:crypto';
import { test } from './test';
import { dashboardKeys } from '@/lib/dashboard/keys';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder, scanKeysUnder } from '@/lib/redis/scan-keys';
import { connectE2eQueue, e2eDashboardPrefix } from './support';

/**
 * Deletes the keys under `prefix` (the run's, or QueueLens's own inside it)
 * except the open sessions: the sign-in setup's session is every later
 * spec's, and the servers refuse a cookie whose session is gone.
 */
export async function deleteKeysButSessions(redis: RedisQueue['redis'], prefix: string): Promise<void> {
  const sessions = dashboardKeys(e2eDashboardPrefix()).sessions;
  for await (const batch of scanKeysUnder(redis, prefix)) {
    const doomed = batch.filter((key) => key !== sessions);
    if (doomed.length > 0) await redis.unlink(...doomed);
  }
}

/**
 * The keys one spec writes under the run's shared prefix, so that it deletes
 * exactly those: specs run one after another in one Redis namespace, and
 * the overview spec starts by asserting that no queue exists. A spec's jobs
 * are the ids the counter hands out while it runs (one worker: nothing else
 * pushes meanwhile) and its queues are the names it asks for here, unique
 * to the run.
 */
export class SpecKeys {
  private readonly queues = new Set<string>();
  private firstId = 1;
  private seqExisted = false;

  private constructor(private readonly queue: RedisQueue) {}

  static async start(queue: RedisQueue): Promise<SpecKeys> {
    const keys = new SpecKeys(queue);
    const seq = await queue.redis.get(queue.keys.seq);
    keys.seqExisted = seq !== null;
    keys.firstId = Number(seq ?? 0) + 1;
    return keys;
  }

  /** A queue name of this spec: `label` made unique, with `suffix` kept as given (markup, slashes). */
  queueName(label: string, suffix = ''): string {
    const name = `${label}-${randomBytes(3).toString('hex')}${suffix}`;
    this.queues.add(name);
    return name;
  }

  /** A queue name fixed beforehand (one the server's configuration names), deleted like the spec's other queues. */
  fixedQueueName(name: string): string {
    this.queues.add(name);
    return name;
  }

  /** An id for a job hash written by hand, taken from the counter so no push can collide with it. */
  async takeId(): Promise<number> {
    return this.queue.redis.incr(this.queue.keys.seq);
  }

  async cleanUp(): Promise<void> {
    const { redis, keys } = this.queue;
    const lastId = Number((await redis.get(keys.seq)) ?? 0);
    const ids = Array.from({ length: Math.max(0, lastId - this.firstId + 1) }, (_, index) => String(this.firstId + index));
    // Unique keys point at these jobs; none of the specs' pushes take one, but a hand-written hash might.
    const uniques = ids.length > 0 ? await Promise.all(ids.map((id) => redis.hget(keys.job(id), 'unique_key').catch(() => null))) : [];
    const doomed = [...ids.map((id) => keys.job(id)), ...uniques.filter((key): key is string => !!key).map((key) => keys.unique(key))];
    for (let start = 0; start < doomed.length; start += 500) await redis.unlink(...doomed.slice(start, start + 500));
    if (ids.length > 0) await redis.zrem(keys.failed, ...ids);
    for (const name of this.queues) {
      await redis.unlink(keys.levels(name), keys.delayed(name));
      await deleteKeysUnder(redis, keys.stream(name, ''));
      await redis.srem(keys.queues, name);
    }
    if (!this.seqExisted) await redis.del(keys.seq);
    // The audit entries the spec's actions recorded: QueueLens's own keys hold nothing else a later spec needs but the sessions.
    await deleteKeysButSessions(redis, e2eDashboardPrefix());
  }
}

/**
 * For the enclosing describe: connects to the run's queue before its first
 * test and hands the queue and its SpecKeys to `use`; after its last test
 * runs `beforeCleanUp`, deletes the spec's keys and disconnects.
 */
export function withSpecKeys(use: (opened: { queue: RedisQueue; keys: SpecKeys }) => void, beforeCleanUp?: () => Promise<void>): void {
  let opened: { queue: RedisQueue; keys: SpecKeys } | undefined;
  test.beforeAll(async () => {
    const queue = await connectE2eQueue();
    opened = { queue, keys: await SpecKeys.start(queue) };
    use(opened);
  });
  test.afterAll(async () => {
    if (!opened) return;
    await beforeCleanUp?.();
    await opened.keys.cleanUp();
    await opened.queue.close();
  });
}
