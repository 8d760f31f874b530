import { ScriptErrorCode } from '../../redis/errors';
import { isRefusal, runRepairScripts, type RefusalToWaitOut } from '../../redis/repair-scripts';
import type { RedisConnection } from '../../redis/connection';
import { assertScriptSucceeded } from '../../redis/lua-script';
import type { Yii2NgSettings } from '../settings';
import type { Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';

/** One yii2 channel as the repairs and the doctor need it: its keys, which driver runs it, and ng's settings Redis does not store. */
export interface Yii2Channel {
  connection: RedisConnection;
  driver: Yii2Driver;
  keys: Yii2Keys;
  /** used under ng only: where a job re-enters the line depends on them */
  ng: Yii2NgSettings;
}

/** The hashes a job's side entries live in, besides its message. */
export type Yii2EntryHash = 'attempts' | 'priorities' | 'ranks';
/** The four places a job id waits, runs or is delayed in. */
export type Yii2Index = 'waiting' | 'prioritized' | 'delayed' | 'reserved';

/** What one of the yii2 doctor's repairs does in a channel, with what its script needs to re-check the broken condition; ids are the member's exact text. */
export type Yii2RepairAction =
  | { kind: 'requeue-orphan'; id: string }
  | { kind: 'drop-dangling'; index: Yii2Index; id: string }
  | { kind: 'clean-leaked'; hash: Yii2EntryHash; id: string }
  | { kind: 'drop-stuck-lock' }
  | { kind: 'raise-message-id'; to: number }
  | { kind: 'arm-marker' };

/** One repair the yii2 doctor proposes, and the channel it is for. Plain data, so a dry run can print it and a page can send it back. */
export type Yii2Repair = Yii2RepairAction & { channel: string };

/** Promotions per call at most: each call is one script holding Redis for its length. */
export const MAX_PROMOTE_BATCH = 1000;

/**
 * How long a repair waits for a stock worker's moving_lock (set for one
 * second, again by every reserve that finds it free) before giving up, and
 * how often it looks.
 */
const MOVING_LOCK_WAIT: RefusalToWaitOut = { code: ScriptErrorCode.MovingLockHeld, forMs: 1500, everyMs: 100 };

/** ng's settings as its own scripts take them (ARGV 2..5), after the driver name; aging in ms per point, as ng rounds it. */
function placementArgs({ driver, ng }: Yii2Channel): (string | number)[] {
  return [driver, ng.defaultPriority, Math.round(ng.aging * 1000), ng.retryPosition === 'original' ? 1 : 0, ng.delayPosition === 'original' ? 1 : 0];
}

/**
 * Runs a script that waits for the stock moving_lock, again while a stock
 * worker holds it: the stock remove() spins on that lock the same way.
 */
async function underMovingLock(call: () => Promise<unknown>): Promise<unknown> {
  const deadline = Date.now() + MOVING_LOCK_WAIT.forMs;
  for (;;) {
    const reply = await call();
    if (!isRefusal(reply, MOVING_LOCK_WAIT.code) || Date.now() >= deadline) return assertScriptSucceeded(reply);
    await new Promise((resolve) => setTimeout(resolve, MOVING_LOCK_WAIT.everyMs));
  }
}

function changed(reply: unknown): boolean {
  return (reply as number[])[0] === 1;
}

/**
 * Deletes job `id` wherever it is, as redis-ng's remove does: true when it
 * had a message. Throws QueueError when a key has the wrong type or a stock
 * worker kept the moving_lock longer than a second and a half.
 */
export function removeYii2Job(channel: Yii2Channel, id: string): Promise<boolean> {
  const { connection, keys } = channel;
  return connection.attempt(async () =>
    changed(
      await underMovingLock(() =>
        connection.redis.queuelensYii2Remove(
          keys.messages,
          keys.waiting,
          keys.prioritized,
          keys.delayed,
          keys.reserved,
          keys.attempts,
          keys.priorities,
          keys.ranks,
          keys.movingLock,
          id,
        ),
      ),
    ),
  );
}

function release(channel: Yii2Channel, id: string, reservations: 'expired' | 'live'): Promise<boolean> {
  const { connection, keys } = channel;
  return connection.attempt(async () =>
    changed(
      await underMovingLock(() =>
        connection.redis.queuelensYii2Release(
          keys.waiting,
          keys.prioritized,
          keys.reserved,
          keys.priorities,
          keys.marker,
          keys.seq,
          keys.ranks,
          keys.movingLock,
          ...placementArgs(channel),
          id,
          reservations,
        ),
      ),
    ),
  );
}

/**
 * Puts an expired reservation back in line now, where the driver's mover
 * would: true when done, false when `id` is not reserved. Throws QueueError
 * (LiveReservation) when it has not expired: see reclaimReservation.
 */
export function releaseExpiredReservation(channel: Yii2Channel, id: string): Promise<boolean> {
  return release(channel, id, 'expired');
}

/**
 * Ends a reservation that has not run out, for a holder known to be gone,
 * and puts the job back in line now as for an expired one. If the holder is
 * alive the job runs twice. False when `id` is not reserved.
 */
export function reclaimReservation(channel: Yii2Channel, id: string): Promise<boolean> {
  return release(channel, id, 'live');
}

/**
 * Puts delayed job `id` in line now, where the driver's mover would had it
 * come due this second; false when it is not delayed. One that is due
 * already is left to the mover (true).
 */
export function runDelayedNow(channel: Yii2Channel, id: string): Promise<boolean> {
  const { connection, keys } = channel;
  return connection.attempt(async () =>
    changed(
      await underMovingLock(() =>
        connection.redis.queuelensYii2RunNow(
          keys.waiting,
          keys.prioritized,
          keys.delayed,
          keys.priorities,
          keys.marker,
          keys.seq,
          keys.ranks,
          keys.movingLock,
          ...placementArgs(channel),
          id,
        ),
      ),
    ),
  );
}

/**
 * Moves at most `limit` due delayed jobs into line, as the driver's mover
 * would; call again while `stillDue` is above 0.
 */
export function promoteDueJobs(channel: Yii2Channel, limit = 100): Promise<{ moved: number; stillDue: number }> {
  const { connection, keys } = channel;
  const bounded = Math.max(1, Math.min(MAX_PROMOTE_BATCH, Math.floor(limit)));
  return connection.attempt(async () => {
    const [moved, stillDue] = (await underMovingLock(() =>
      connection.redis.queuelensYii2PromoteDue(
        keys.waiting,
        keys.prioritized,
        keys.delayed,
        keys.priorities,
        keys.marker,
        keys.seq,
        keys.ranks,
        keys.movingLock,
        ...placementArgs(channel),
        bounded,
      ),
    )) as [number, number];
    return { moved, stillDue };
  });
}

function queueRepairCall(channel: Yii2Channel, pipeline: ReturnType<RedisConnection['redis']['pipeline']>, repair: Yii2RepairAction): void {
  const { keys } = channel;
  switch (repair.kind) {
    case 'requeue-orphan':
      pipeline.queuelensYii2RequeueOrphan(
        keys.messages,
        keys.waiting,
        keys.prioritized,
        keys.delayed,
        keys.reserved,
        keys.priorities,
        keys.marker,
        keys.seq,
        keys.ranks,
        keys.movingLock,
        ...placementArgs(channel),
        repair.id,
      );
      return;
    case 'drop-dangling':
      pipeline.queuelensYii2DropDangling(keys.messages, keys[repair.index], repair.id);
      return;
    case 'clean-leaked':
      pipeline.queuelensYii2CleanLeaked(keys.messages, keys[repair.hash], repair.id);
      return;
    case 'drop-stuck-lock':
      pipeline.queuelensYii2DropStuckLock(keys.movingLock);
      return;
    case 'raise-message-id':
      pipeline.queuelensYii2RaiseMessageId(keys.messageId, repair.to);
      return;
    case 'arm-marker':
      pipeline.queuelensYii2ArmMarker(keys.prioritized, keys.marker);
      return;
  }
}

/**
 * Applies the yii2 doctor's repairs to `channel` (whatever channel each
 * names: the caller sorts them by channel), each its own atomic script
 * that re-checks the broken condition first: true when it changed something,
 * false when the condition no longer held. Throws QueueError when a script
 * refuses (a key of the wrong type) or Redis cannot be reached.
 */
export function applyYii2Repairs(channel: Yii2Channel, repairs: readonly Yii2RepairAction[]): Promise<boolean[]> {
  return runRepairScripts(channel.connection, repairs, (pipeline, repair) => queueRepairCall(channel, pipeline, repair), MOVING_LOCK_WAIT);
}
