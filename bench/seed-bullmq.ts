import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { inFlight } from '../lib/redis/in-flight';
import { formatCount } from './report';
import { failureText, heldCount, heldJob, holderOf, waitingCount, waitingJob, type SeedJob, type SeedPlan, type SeedStep } from './seed-plan';

/** BullMQ's own default prefix: bull-board is benchmarked as it is usually deployed. */
export const BULL_PREFIX = 'bull';
/** Consecutive jobs per step; a step adds them with one addBulk per queue. */
const ADD_STEP = 5000;
const STEPS_IN_FLIGHT = 4;
/** getNextJob calls (each followed by its moveToFailed) in flight. */
const TAKES_IN_FLIGHT = 200;

/**
 * The plan's priorities in BullMQ's terms, where 1 runs first and 0 means
 * none (10, 5, -5 become 10, 15, 25). The order differs from QueueLens' (a
 * job without priority comes before prioritized ones), which counts and
 * pages do not depend on; what matters is that both have the same mix.
 */
function bullPriority(priority: number): number | undefined {
  return priority === 0 ? undefined : 20 - priority;
}

async function addAll(queues: ReadonlyMap<string, Queue>, count: number, jobAt: (n: number) => SeedJob): Promise<void> {
  await inFlight(Math.ceil(count / ADD_STEP), STEPS_IN_FLIGHT, async (step) => {
    const perQueue = new Map<string, SeedJob[]>();
    for (let n = step * ADD_STEP; n < Math.min(count, (step + 1) * ADD_STEP); n++) {
      const job = jobAt(n);
      perQueue.set(job.queue, [...(perQueue.get(job.queue) ?? []), job]);
    }
    await Promise.all(
      [...perQueue].map(([name, jobs]) =>
        queues
          .get(name)!
          .addBulk(jobs.map((job) => ({ name: job.name, data: job.payload, opts: { priority: bullPriority(job.priority), delay: job.delaySeconds * 1000 } }))),
      ),
    );
  });
}

/**
 * The same plan in BullMQ's layout, on `connection`'s database: the jobs to
 * fail or hold are added first and taken by manual workers (no processor:
 * `getNextJob` moves a job to active and nothing ever runs it), the failed
 * ones through `moveToFailed`; no stalled-job checker runs, so the held ones
 * stay active. Then the waiting jobs, delayed ones among them. Returns the
 * seconds it took.
 */
export async function seedBullMQ(connection: Redis, plan: SeedPlan, step: SeedStep): Promise<number> {
  const started = process.hrtime.bigint();
  const queues = new Map(plan.queues.map((name) => [name, new Queue(name, { connection, prefix: BULL_PREFIX })]));
  // The workers share the connection too; BullMQ duplicates it for their blocking reads.
  const workers = plan.queues.map((name) => new Worker(name, null, { connection, prefix: BULL_PREFIX, autorun: false }));
  try {
    await step('BullMQ: add the jobs to fail or hold (addBulk)', heldCount(plan), () => addAll(queues, heldCount(plan), (n) => heldJob(plan, n)));
    await step(`BullMQ: take them (getNextJob), fail ${formatCount(plan.failed)}`, heldCount(plan), () =>
      inFlight(heldCount(plan), TAKES_IN_FLIGHT, async (n) => {
        const token = holderOf(n);
        const job = await workers[n % workers.length]!.getNextJob(token, { block: false });
        if (!job) throw new Error(`Seeding: ${plan.queues[n % plan.queues.length]} had nothing left to take`);
        if (n < plan.failed) await job.moveToFailed(new Error(failureText(n)), token, false);
      }),
    );
    await step('BullMQ: add the waiting jobs (addBulk)', waitingCount(plan), () => addAll(queues, waitingCount(plan), (n) => waitingJob(plan, n)));
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
    await Promise.all([...queues.values()].map((queue) => queue.close()));
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}
