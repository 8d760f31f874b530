import { execPipeline } from './pipeline';
import { INVALID_PAYLOAD_ERROR, type RedisQueue } from './redis-queue';
import { assertScriptSucceeded } from './scripts';

/**
 * One repair the doctor proposes, with what its script needs to re-check the
 * broken condition. Plain data, so a dry run can print it and a page can send
 * it back to be applied.
 */
export type DoctorRepair =
  | { kind: 'requeue-orphan'; id: number }
  | { kind: 'drop-tombstone'; queue: string; level: string; entry: string }
  | { kind: 'clear-entry'; id: number; entry: string }
  | { kind: 'drop-failed'; id: number }
  | { kind: 'free-unique'; key: string; id: string }
  | { kind: 'drop-level'; queue: string; level: string }
  | { kind: 'fail-invalid-payload'; id: number }
  | { kind: 'raise-seq'; to: number };

export type RepairKind = DoctorRepair['kind'];

/** Repairs per pipelined round trip: each is its own short script. */
export const REPAIR_BATCH_SIZE = 200;

function queueRepairCall(queue: RedisQueue, pipeline: ReturnType<RedisQueue['redis']['pipeline']>, repair: DoctorRepair): void {
  const { keys } = queue;
  const { prefix } = keys;
  const group = queue.settings.group;
  switch (repair.kind) {
    case 'requeue-orphan':
      pipeline.queuelensDoctorRequeueOrphan(keys.job(repair.id), keys.failed, keys.queues, prefix, repair.id);
      return;
    case 'drop-tombstone':
      pipeline.queuelensDoctorDropTombstone(keys.stream(repair.queue, repair.level), prefix, group, repair.entry);
      return;
    case 'clear-entry':
      pipeline.queuelensDoctorClearEntry(keys.job(repair.id), prefix, repair.id, repair.entry);
      return;
    case 'drop-failed':
      pipeline.queuelensDoctorDropFailed(keys.failed, prefix, repair.id);
      return;
    case 'free-unique':
      pipeline.queuelensDoctorFreeUnique(keys.unique(repair.key), prefix, repair.key, repair.id);
      return;
    case 'drop-level':
      pipeline.queuelensDoctorDropLevel(keys.levels(repair.queue), prefix, repair.queue, repair.level);
      return;
    case 'fail-invalid-payload':
      pipeline.queuelensDoctorFailInvalidPayload(keys.job(repair.id), keys.failed, prefix, group, repair.id, INVALID_PAYLOAD_ERROR);
      return;
    case 'raise-seq':
      pipeline.queuelensDoctorRaiseSeq(keys.seq, prefix, repair.to);
      return;
  }
}

/**
 * A refusal worth waiting out: scripts answering `code` are sent again every
 * `everyMs` until `forMs` has passed (yii2's moving_lock, held a second).
 */
export interface RefusalToWaitOut {
  code: number;
  forMs: number;
  everyMs: number;
}

/**
 * Runs one repair script per repair, REPAIR_BATCH_SIZE to a pipelined round
 * trip, `queueCall` adding each to the pipeline: `true` when the script
 * changed something (answered `{1}`). Shared by every layout's repairs.
 * Repairs refused with `waitOut`'s code are sent again, alone, while it
 * allows; any refusal left then throws.
 */
export async function runRepairScripts<Repair>(
  queue: RedisQueue,
  repairs: readonly Repair[],
  queueCall: (pipeline: ReturnType<RedisQueue['redis']['pipeline']>, repair: Repair) => void,
  waitOut?: RefusalToWaitOut,
): Promise<boolean[]> {
  return queue.attempt(async () => {
    const outcomes: boolean[] = [];
    for (let start = 0; start < repairs.length; start += REPAIR_BATCH_SIZE) {
      const replies = await repliesWaitingOut(queue, repairs.slice(start, start + REPAIR_BATCH_SIZE), queueCall, waitOut);
      for (const reply of replies) outcomes.push((assertScriptSucceeded(reply) as number[])[0] === 1);
    }
    return outcomes;
  });
}

async function repliesWaitingOut<Repair>(
  queue: RedisQueue,
  batch: readonly Repair[],
  queueCall: (pipeline: ReturnType<RedisQueue['redis']['pipeline']>, repair: Repair) => void,
  waitOut: RefusalToWaitOut | undefined,
): Promise<unknown[]> {
  const replies: unknown[] = [];
  const deadline = Date.now() + (waitOut?.forMs ?? 0);
  let pending = batch.map((_, index) => index);
  for (;;) {
    const pipeline = queue.redis.pipeline();
    for (const index of pending) queueCall(pipeline, batch[index]!);
    const answered = await execPipeline(pipeline);
    pending.forEach((index, n) => (replies[index] = answered[n]));
    pending = pending.filter((index) => waitOut !== undefined && isRefusal(replies[index], waitOut.code));
    if (pending.length === 0 || Date.now() >= deadline) return replies;
    await new Promise((resolve) => setTimeout(resolve, waitOut!.everyMs));
  }
}

/** A script's `{code, key}` refusal with this code. */
export function isRefusal(reply: unknown, code: number): boolean {
  return Array.isArray(reply) && reply[0] === code;
}

/**
 * Applies repairs, each as its own atomic script that first re-checks the
 * broken condition: `true` when it changed something, `false` when the
 * condition no longer held (a worker or another repair got there first), so
 * applying a repair twice is harmless. Throws QueueError when a script
 * refuses (a key of the wrong type) or Redis cannot be reached.
 */
export function applyRepairs(queue: RedisQueue, repairs: readonly DoctorRepair[]): Promise<boolean[]> {
  return runRepairScripts(queue, repairs, (pipeline, repair) => queueRepairCall(queue, pipeline, repair));
}

/** One repair; see applyRepairs. */
export async function applyRepair(queue: RedisQueue, repair: DoctorRepair): Promise<boolean> {
  const [outcome] = await applyRepairs(queue, [repair]);
  return outcome === true;
}
