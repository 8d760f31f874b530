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
    queuelensYii2ReadCounts(...args: ScriptArgument[]): Result<unknown, Context>;
    // Read as bytes: yii2 messages are PHP serialize() output, binary as often as not.
    queuelensYii2ReadLineBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2ReadReservationsBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2ReadDelayedBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2ReadJobBuffer(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2Remove(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2Release(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2PromoteDue(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2RunNow(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2RequeueOrphan(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2DropDangling(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2CleanLeaked(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2DropStuckLock(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2RaiseMessageId(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2ArmMarker(...args: ScriptArgument[]): Result<unknown, Context>;
    queuelensYii2DoctorReadMessages(...args: ScriptArgument[]): Result<unknown, Context>;
  }
}

/**
 * The yii2 layout's scripts, until they run through typed wrappers
 * (lib/redis/lua-script.ts) as StaticPHP's and marko's do; the number in the
 * file name is its key count.
 */
const SCRIPT_FILES = {
  // The yii2 layout's reads share this loader; its keys are the channel's (lib/layouts/yii2/keys.ts).
  queuelensYii2ReadCounts: 'yii2/read-counts-6.lua',
  queuelensYii2ReadLine: 'yii2/read-line-7.lua',
  queuelensYii2ReadReservations: 'yii2/read-reservations-4.lua',
  queuelensYii2ReadDelayed: 'yii2/read-delayed-4.lua',
  queuelensYii2ReadJob: 'yii2/read-job-9.lua',
  // The yii2 layout's repairs and the doctor's bounded read (lib/layouts/yii2/repairs.ts, doctor.ts).
  queuelensYii2Remove: 'yii2/remove-9.lua',
  queuelensYii2Release: 'yii2/release-8.lua',
  queuelensYii2PromoteDue: 'yii2/promote-due-8.lua',
  queuelensYii2RunNow: 'yii2/run-now-8.lua',
  queuelensYii2RequeueOrphan: 'yii2/requeue-orphan-10.lua',
  queuelensYii2DropDangling: 'yii2/drop-dangling-2.lua',
  queuelensYii2CleanLeaked: 'yii2/clean-leaked-2.lua',
  queuelensYii2DropStuckLock: 'yii2/drop-stuck-lock-1.lua',
  queuelensYii2RaiseMessageId: 'yii2/raise-message-id-1.lua',
  queuelensYii2ArmMarker: 'yii2/arm-marker-2.lua',
  queuelensYii2DoctorReadMessages: 'yii2/doctor-read-messages-1.lua',
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
