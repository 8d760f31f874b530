import { createHash, randomBytes } from 'node:crypto';
import { findingId } from '../shapes/doctor-kinds';
import type { LayoutDoctor, LayoutFinding } from '../layouts/layout-doctor';
import { QueueError } from '../redis/errors';
import { execPipeline } from '../redis/pipeline';
import type { RedisConnection } from '../redis/connection';
import { CHECK_RUN_ID, type LayoutCheckStep, type LayoutRepairResult, type RepairOutcome, type ShownFinding } from '../shapes/layout-check';
import type { DashboardKeys } from './keys';

/**
 * A layout doctor's check as the doctor page runs it: one bounded step per
 * server action, and everything the browser must not be trusted with kept
 * in one Redis hash under QueueLens's prefix, per connection, named by a
 * random id and expiring: the check's state between steps (a forged state
 * could make a step read what it likes) and every finding with its repair (a
 * forged repair could aim a script at anything). The browser gets findings
 * as ShownFinding and names them back by id only; a repair is applied only
 * from the finding its own check stored. (The issue this guards against:
 * 15.11, repairs taken as the browser sent them.)
 */

/** How long a check is kept after its last step or repair: a tab left alone that long runs the check again. */
export const LAYOUT_CHECK_SECONDS = 15 * 60;
/** Findings one check keeps; beyond these it counts them (a layout broken that badly is repaired from the CLI, or in rounds). */
export const LAYOUT_CHECK_KEPT_FINDINGS = 10_000;

const STATE = 'state';
const findingField = (id: string) => `f:${id}`;

/** A finding's id: a digest of what it is about, so one broken thing found twice is one finding. */
export function shownFindingId(finding: LayoutFinding): string {
  return createHash('sha256').update(findingId(finding)).digest('base64url').slice(0, 22);
}

function shown(doctor: LayoutDoctor, finding: LayoutFinding, id: string): ShownFinding {
  const repairable = finding.repair !== null && finding.repair !== undefined;
  return {
    id,
    kind: finding.kind,
    title: doctor.kinds[finding.kind]?.title ?? finding.kind,
    severity: finding.severity,
    subject: finding.subject,
    ...(doctor.namesJobs && finding.jobId !== undefined ? { job: finding.jobId } : {}),
    explanation: finding.explanation,
    repairDescription: finding.repairDescription,
    repairable,
  };
}

function assertRunId(run: string): void {
  if (!CHECK_RUN_ID.test(run)) throw new QueueError('That is not a doctor check id.', { invalidRequest: true });
}

/**
 * The next step of check `run` of `connection`, or the first step of a new
 * check when `run` is null: the state read from the check's hash, one step,
 * the new state and the step's findings stored back, the expiry renewed.
 * The hash outlives the last step (the findings' repairs are read from it);
 * a check whose hash expired or never existed is refused with a QueueError
 * that says so.
 */
export async function stepLayoutCheck(
  queue: RedisConnection,
  doctor: LayoutDoctor,
  keys: DashboardKeys,
  connection: string,
  run: string | null,
): Promise<LayoutCheckStep> {
  const id = run ?? randomBytes(18).toString('base64url');
  assertRunId(id);
  const key = keys.layoutDoctorRun(connection, id);
  return queue.attempt(async () => {
    let state: unknown;
    let kept = 0;
    if (run === null) state = doctor.start();
    else {
      const [stored, count] = (await execPipeline(queue.redis.pipeline().hget(key, STATE).hlen(key))) as [string | null, number];
      if (stored === null)
        throw new QueueError('This check was left alone for too long and its findings are gone: run the check again.', { invalidRequest: true });
      state = JSON.parse(stored);
      kept = count - 1;
    }
    const step = await doctor.step(state);
    const fresh = new Map<string, LayoutFinding>();
    for (const finding of step.findings) {
      const findingKey = shownFindingId(finding);
      if (!fresh.has(findingKey)) fresh.set(findingKey, finding);
    }
    const room = Math.max(0, LAYOUT_CHECK_KEPT_FINDINGS - kept);
    const keep = [...fresh].slice(0, room);
    const store = queue.redis.pipeline().hset(key, STATE, JSON.stringify(step.state));
    // HSETNX: a finding found again (SCAN may return a key twice) keeps its first form and is not listed twice.
    for (const [findingKey, finding] of keep) store.hsetnx(key, findingField(findingKey), JSON.stringify(finding));
    store.expire(key, LAYOUT_CHECK_SECONDS);
    const replies = await execPipeline(store);
    const added = keep.filter((_, i) => replies[i + 1] === 1);
    return {
      run: id,
      progress: step.progress,
      findings: added.map(([findingKey, finding]) => shown(doctor, finding, findingKey)),
      notKept: fresh.size - keep.length,
      done: step.done,
    };
  });
}

/**
 * Repairs the findings `ids` of check `run` of `connection`, each from the
 * finding its check stored (never from anything the caller sends), by the
 * layout's own scripts, each of which re-checks its condition first. A
 * finding repaired or found gone is taken off the check, so naming it again
 * does nothing ('unknown').
 */
export async function repairLayoutFindings(
  queue: RedisConnection,
  doctor: LayoutDoctor,
  keys: DashboardKeys,
  connection: string,
  run: string,
  ids: readonly string[],
): Promise<LayoutRepairResult> {
  assertRunId(run);
  const key = keys.layoutDoctorRun(connection, run);
  const unique = [...new Set(ids)];
  const stored = await queue.attempt(() => queue.redis.hmget(key, ...unique.map(findingField)));
  const known = unique.flatMap((id, i) => {
    const text = stored[i];
    return typeof text === 'string' ? [{ id, finding: JSON.parse(text) as LayoutFinding }] : [];
  });
  const report = await doctor.repair(known.map(({ finding }) => finding));
  const outcomeOf = new Map<LayoutFinding, RepairOutcome>([
    ...report.repaired.map((finding) => [finding, 'repaired'] as const),
    ...report.unchanged.map((finding) => [finding, 'gone'] as const),
    ...report.notRepaired.map((finding) => [finding, 'not-repairable'] as const),
  ]);
  const outcomes = unique.map((id) => {
    const entry = known.find((candidate) => candidate.id === id);
    return { id, outcome: entry === undefined ? ('unknown' as const) : (outcomeOf.get(entry.finding) ?? 'not-repairable') };
  });
  const settled = outcomes.filter(({ outcome }) => outcome === 'repaired' || outcome === 'gone').map(({ id }) => findingField(id));
  await queue.attempt(async () => {
    const pipeline = queue.redis.pipeline();
    if (settled.length > 0) pipeline.hdel(key, ...settled);
    // Only a check that still exists is kept longer: EXPIRE on a gone key does nothing.
    await execPipeline(pipeline.expire(key, LAYOUT_CHECK_SECONDS));
  });
  return { outcomes };
}
