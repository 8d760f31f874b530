import { runRepairScripts } from '../../redis/repair-scripts';
import { INVALID_PAYLOAD_ERROR, type RedisQueue } from './redis-queue';

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
