import type { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { inFlight } from '../lib/redis/in-flight';
import { formatCount } from './report';
import { failureText, heldCount, heldJob, holderOf, waitingCount, waitingJob, type SeedJob, type SeedPlan, type SeedStep } from './seed-plan';

/**
 * Jobs per pushMany pipeline, and pipelines in flight: enough that Redis
 * always has the next pipeline queued while Node builds another.
 */
const PUSH_BATCH = 1000;
const PUSHES_IN_FLIGHT = 8;
/** Reserves (each followed by its fail) in flight on the one connection. */
const RESERVES_IN_FLIGHT = 200;
/** Long enough that nothing reclaims a held job while the benchmark runs. */
export const HOLD_SECONDS = 3600;

async function pushAll(queue: RedisQueue, count: number, jobAt: (n: number) => SeedJob): Promise<void> {
  await inFlight(Math.ceil(count / PUSH_BATCH), PUSHES_IN_FLIGHT, async (batch) => {
    const start = batch * PUSH_BATCH;
    await queue.pushMany(
      Array.from({ length: Math.min(PUSH_BATCH, count - start) }, (_, offset) => {
        const { queue: name, name: jobName, payload, priority, delaySeconds } = jobAt(start + offset);
        return { queue: name, name: jobName, payload, options: { priority, delaySeconds } };
      }),
    );
  });
}

/**
 * Seeds the plan through the driver, as workers would leave it: the jobs to
 * fail or hold are pushed first, so that reserving exactly that many per
 * queue takes exactly them; the failed ones go through fail(), the held ones
 * stay reserved for HOLD_SECONDS; then the waiting jobs, delayed ones among
 * them. Returns the seconds it took.
 */
export async function seedQueueLens(queue: RedisQueue, plan: SeedPlan, step: SeedStep): Promise<number> {
  const started = process.hrtime.bigint();
  await step('QueueLens: push the jobs to fail or hold (pushMany)', heldCount(plan), () => pushAll(queue, heldCount(plan), (n) => heldJob(plan, n)));
  await step(`QueueLens: reserve them, fail ${formatCount(plan.failed)}`, heldCount(plan), () =>
    inFlight(heldCount(plan), RESERVES_IN_FLIGHT, async (n) => {
      const name = plan.queues[n % plan.queues.length]!;
      const job = await queue.reserve([name], holderOf(n), HOLD_SECONDS);
      if (!job) throw new Error(`Seeding: ${name} had nothing left to reserve`);
      if (n < plan.failed && !(await queue.fail(job, failureText(n)))) throw new Error(`Seeding: job ${job.id} could not be failed`);
    }),
  );
  await step('QueueLens: push the waiting jobs (pushMany)', waitingCount(plan), () => pushAll(queue, waitingCount(plan), (n) => waitingJob(plan, n)));
  return Number(process.hrtime.bigint() - started) / 1e9;
}
