import { randomBytes } from 'node:crypto';
import { describeProgress, doctorStep, startDoctor, type DoctorState, type Finding } from '../inspect/doctor';
import { QueueError } from '../queue/errors';
import type { RedisQueue } from '../queue/redis-queue';
import type { DashboardKeys } from './keys';

/**
 * The doctor's check as the dashboard runs it: one bounded step per server
 * action, its state kept in Redis between steps under QueueLens's prefix and
 * named by a random id. The browser holds only that id, so it cannot hand
 * the server a made-up state (thousands of invented queues to check and
 * report on): what a step reads and answers is bounded by the real layout.
 */

/** How long a check's state is kept after its last step: a tab left alone that long starts again. */
export const DOCTOR_RUN_SECONDS = 15 * 60;

export const DOCTOR_RUN_ID = /^[\w-]{24}$/;

export interface DoctorRunStep {
  run: string;
  progress: string;
  findings: Finding[];
  done: boolean;
}

/**
 * The next step of the check `run`, or the first step of a new check when
 * `run` is null: its state read from Redis, one doctorStep, the new state
 * stored back with its expiry (deleted once the check is done). A check
 * whose state expired or that never existed is refused with a QueueError
 * that says so.
 */
export async function stepDoctorRun(queue: RedisQueue, keys: DashboardKeys, run: string | null): Promise<DoctorRunStep> {
  const id = run ?? randomBytes(18).toString('base64url');
  if (!DOCTOR_RUN_ID.test(id)) throw new QueueError('That is not a doctor check id.', { invalidRequest: true });
  const key = keys.doctorRun(id);
  const stored = run === null ? null : await queue.attempt(() => queue.redis.get(key));
  if (run !== null && stored === null) throw new QueueError('This check was left alone for too long and its progress is gone: run the check again.', { invalidRequest: true });
  const state = stored === null ? startDoctor() : (JSON.parse(stored) as DoctorState);
  const step = await doctorStep(queue, state);
  await queue.attempt(async () => {
    if (step.done) await queue.redis.del(key);
    else await queue.redis.set(key, JSON.stringify(step.state), 'EX', DOCTOR_RUN_SECONDS);
  });
  return { run: id, progress: describeProgress(step.state), findings: step.findings, done: step.done };
}
