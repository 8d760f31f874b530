import { runRepairScripts } from '../../redis/repair-scripts';
import { INVALID_PAYLOAD_ERROR, type RedisQueue } from './redis-queue';
import {
  doctorClearEntry,
  doctorDropFailed,
  doctorDropLevel,
  doctorDropTombstone,
  doctorFailInvalidPayload,
  doctorFreeUnique,
  doctorRaiseSeq,
  doctorRequeueOrphan,
} from './scripts';

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
      doctorRequeueOrphan.queue(pipeline, { job: keys.job(repair.id), failed: keys.failed, queues: keys.queues, prefix, id: repair.id });
      return;
    case 'drop-tombstone':
      doctorDropTombstone.queue(pipeline, { stream: keys.stream(repair.queue, repair.level), prefix, group, entry: repair.entry });
      return;
    case 'clear-entry':
      doctorClearEntry.queue(pipeline, { job: keys.job(repair.id), prefix, id: repair.id, entry: repair.entry });
      return;
    case 'drop-failed':
      doctorDropFailed.queue(pipeline, { failed: keys.failed, prefix, id: repair.id });
      return;
    case 'free-unique':
      doctorFreeUnique.queue(pipeline, { unique: keys.unique(repair.key), prefix, uniqueKey: repair.key, id: repair.id });
      return;
    case 'drop-level':
      doctorDropLevel.queue(pipeline, { levels: keys.levels(repair.queue), prefix, queue: repair.queue, level: repair.level });
      return;
    case 'fail-invalid-payload':
      doctorFailInvalidPayload.queue(pipeline, { job: keys.job(repair.id), failed: keys.failed, prefix, group, id: repair.id, error: INVALID_PAYLOAD_ERROR });
      return;
    case 'raise-seq':
      doctorRaiseSeq.queue(pipeline, { seq: keys.seq, prefix, to: repair.to });
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
