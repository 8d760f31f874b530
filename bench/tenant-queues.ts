import type { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { inFlight } from '../lib/redis/in-flight';
import { formatCount } from './report';

/** Jobs one pushMany writes: big enough to seed 100,000 jobs in seconds, small enough for one Redis call. */
const PUSH_BATCH = 2_000;

/** `count` queue names as an application with a queue per tenant has them, sorted as written. */
export function tenantNames(count: number): string[] {
  return Array.from({ length: count }, (_, n) => `tenant-${String(n).padStart(5, '0')}`);
}

/**
 * `jobsPerQueue` jobs on each of `names` (every fifth delayed an hour), then
 * on each of `troubled` a failed job and a reservation held for an hour:
 * what the overview's marks, the failed list and the reservations read.
 */
export async function seedTenantQueues(queue: RedisQueue, names: readonly string[], jobsPerQueue: number, troubled: readonly string[]): Promise<void> {
  const jobs = names.length * jobsPerQueue;
  await inFlight(Math.ceil(jobs / PUSH_BATCH), 4, async (batch) => {
    const start = batch * PUSH_BATCH;
    await queue.pushMany(
      Array.from({ length: Math.min(PUSH_BATCH, jobs - start) }, (_, offset) => {
        const n = start + offset;
        return { queue: names[n % names.length]!, name: 'SyncInventory', payload: { n }, options: n % 5 === 0 ? { delaySeconds: 3_600 } : {} };
      }),
    );
  });
  for (const name of troubled) {
    const failing = await queue.reserve([name], 'bench-worker', 3_600);
    if (failing) await queue.fail(failing, 'Failed on purpose by the benchmark');
    await queue.reserve([name], 'bench-worker', 3_600);
  }
  console.log(`  seeded ${formatCount(jobs)} jobs; ${troubled.length} queues with a failed job and a held reservation`);
}
