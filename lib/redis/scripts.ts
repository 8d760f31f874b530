import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientContext, Result } from 'ioredis';
import type { QueueClient } from './client';
import { expandIncludes } from './lua-script';

type ScriptArgument = string | number | Buffer;

// ioredis adds a method per defineCommand; these declarations give each one
// a type on clients and pipelines alike.
declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    queuelensPush(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensReserve(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensComplete(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensRelease(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensFail(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensSettleAndReserve(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensRequeue(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensForget(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensReleaseReservation(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensFailReservation(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensCleanTombstone(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensPromoteDue(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensRunNow(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorRequeueOrphan(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorDropTombstone(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorClearEntry(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorDropFailed(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorFreeUnique(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorDropLevel(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorFailInvalidPayload(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensDoctorRaiseSeq(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensReadFailedOfQueue(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensReadCounts(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensReadAttention(...args: ScriptArgument[]): Result<unknown, Context>;
    // Read as bytes: queue names and errors are shown whatever their encoding.
    queuelensReadRecentFailuresBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    // Read as bytes: job names are shown whatever their encoding.
    queuelensReadReservationJobsBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    // Read as bytes: job names are shown whatever their encoding.
    queuelensReadParkedBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    // Read as bytes: a job's values are shown whatever their encoding.
    queuelensReadJobBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
  }
}

/**
 * Each mutation's script, the dashboard's sampler lock and the bounded reads
 * that would otherwise take thousands of round trips; the number in the file
 * name is its key count.
 */
const SCRIPT_FILES = {
  queuelensPush: 'staticphp/push-5.lua',
  queuelensReserve: 'staticphp/reserve-2.lua',
  queuelensComplete: 'staticphp/complete-3.lua',
  queuelensRelease: 'staticphp/release-3.lua',
  queuelensFail: 'staticphp/fail-4.lua',
  queuelensSettleAndReserve: 'staticphp/settle-and-reserve-6.lua',
  queuelensRequeue: 'staticphp/requeue-2.lua',
  queuelensForget: 'staticphp/forget-1.lua',
  queuelensReleaseReservation: 'staticphp/release-reservation-3.lua',
  queuelensFailReservation: 'staticphp/fail-reservation-4.lua',
  queuelensCleanTombstone: 'staticphp/clean-tombstone-1.lua',
  queuelensPromoteDue: 'staticphp/promote-due-2.lua',
  queuelensRunNow: 'staticphp/run-now-3.lua',
  queuelensDoctorRequeueOrphan: 'staticphp/doctor-requeue-orphan-3.lua',
  queuelensDoctorDropTombstone: 'staticphp/doctor-drop-tombstone-1.lua',
  queuelensDoctorClearEntry: 'staticphp/doctor-clear-entry-1.lua',
  queuelensDoctorDropFailed: 'staticphp/doctor-drop-failed-1.lua',
  queuelensDoctorFreeUnique: 'staticphp/doctor-free-unique-1.lua',
  queuelensDoctorDropLevel: 'staticphp/doctor-drop-level-1.lua',
  queuelensDoctorFailInvalidPayload: 'staticphp/doctor-fail-invalid-payload-2.lua',
  queuelensDoctorRaiseSeq: 'staticphp/doctor-raise-seq-1.lua',
  queuelensReadFailedOfQueue: 'staticphp/read-failed-of-queue-1.lua',
  queuelensReadCounts: 'staticphp/read-counts-1.lua',
  queuelensReadAttention: 'staticphp/read-attention-1.lua',
  queuelensReadRecentFailures: 'staticphp/read-recent-failures-1.lua',
  queuelensReadReservationJobs: 'staticphp/read-reservation-jobs-1.lua',
  queuelensReadParked: 'staticphp/read-parked-1.lua',
  queuelensReadJob: 'staticphp/read-job-1.lua',
} as const;

export type ScriptName = keyof typeof SCRIPT_FILES;

const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lua');

let sources: Map<ScriptName, { lua: string; numberOfKeys: number }> | undefined;

function assemble(file: string): string {
  return expandIncludes(readFileSync(join(LUA_DIR, file), 'utf8'));
}

function scriptSources() {
  sources ??= new Map(
    (Object.entries(SCRIPT_FILES) as [ScriptName, string][]).map(([name, file]) => {
      const keyCount = /-(\d+)\.lua$/.exec(file)?.[1];
      if (keyCount === undefined) throw new Error(`${file} does not state its key count`);
      return [name, { lua: assemble(file), numberOfKeys: Number(keyCount) }];
    }),
  );
  return sources;
}

/**
 * Registers every script on a client once. ioredis then sends EVALSHA, and
 * resends the body when Redis answers NOSCRIPT (restarted, SCRIPT FLUSH),
 * in pipelines too.
 */
export function defineQueueScripts(redis: QueueClient): void {
  const defined = redis.scriptsSet as Record<string, unknown>;
  for (const [name, definition] of scriptSources()) {
    if (!(name in defined)) redis.defineCommand(name, definition);
  }
}
