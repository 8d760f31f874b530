import { randomBytes } from 'node:crypto';
import { ScriptErrorCode } from '../../redis/errors';
import { runRepairScripts, runWaitingOut, type PipelinedScript, type RefusalToWaitOut } from '../../redis/repair-scripts';
import type { RedisConnection } from '../../redis/connection';
import type { Yii2NgSettings } from '../settings';
import type { Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';
import {
  armMarker,
  cleanLeaked,
  copy,
  dropDangling,
  dropStuckLock,
  promoteDue,
  raiseMessageId,
  release,
  remove,
  requeueOrphan,
  restore,
  runNow,
  type Yii2CopyOutcome,
} from './scripts';
import type { TrashKeys } from '../../dashboard/keys';
import type { RestoredJob, TrashSettings, TrashWrite } from '../../shapes/trash';
import { layoutTrashKeys, restoreInBatches, trashArguments } from '../trash';
import { READY_REMOVAL_REACH } from '../line-repairs';

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
 * second, again by every reserve that finds it free) before giving up: the
 * refusal says when the lock expires and the repair tries then, so this
 * lets one worker's reserve win it back once. How often it looks at a lock
 * that never expires, until then.
 */
const MOVING_LOCK_WAIT: RefusalToWaitOut = { code: ScriptErrorCode.MovingLockHeld, forMs: 2500, everyMs: 100 };

/**
 * What this process writes in a stock moving_lock it takes to remove jobs,
 * as the driver's own remove() takes it: its removals know the lock as
 * theirs, another QueueLens's do not (lua/yii2/remove-10.lua).
 */
const MOVING_LOCK_HOLDER = `queuelens ${randomBytes(8).toString('hex')}`;

/** The holder a channel's scripts are given: none on ng, which never takes the lock. */
const movingLockHolder = (channel: Yii2Channel) => (channel.driver === 'yii2' ? MOVING_LOCK_HOLDER : '');

/** ng's settings as its own scripts take them (ARGV 1..5): the driver, then aging in ms per point, as ng rounds it. */
function placement({ driver, ng }: Yii2Channel) {
  return {
    driver,
    defaultPriority: ng.defaultPriority,
    agingMs: Math.round(ng.aging * 1000),
    retryKeepsPlace: ng.retryPosition === 'original' ? 1 : 0,
    delayKeepsPlace: ng.delayPosition === 'original' ? 1 : 0,
  };
}

/**
 * Runs a script that waits for the stock moving_lock, again while a stock
 * worker holds it: the stock remove() spins on that lock the same way.
 */
function underMovingLock<Call, Reply>(channel: Yii2Channel, script: PipelinedScript<Call, Reply>, call: Call): Promise<Reply> {
  return channel.connection.attempt(() => runWaitingOut(channel.connection, script, call, MOVING_LOCK_WAIT));
}

/** The driver keys a channel's trash is kept for (lib/layouts/trash.ts): every key of the channel starts with them. */
function trashedPrefixOf(keys: Yii2Keys): string {
  return `${keys.channel}.`;
}

/** This channel's trash under QueueLens's `dashboardPrefix`, in the channel's hash slot. */
export function yii2TrashKeys(keys: Yii2Keys, dashboardPrefix: string): TrashKeys {
  return layoutTrashKeys(trashedPrefixOf(keys), dashboardPrefix);
}

/**
 * Deletes job `id` wherever it is, as redis-ng's remove does, into the
 * channel's trash with `trash` (lua/yii2/remove-10.lua): true when it had a
 * message. Throws QueueError when a key has the wrong type or a stock
 * worker kept the moving_lock longer than two and a half seconds.
 */
export function removeYii2Job(channel: Yii2Channel, id: string, trash?: TrashWrite): Promise<boolean> {
  return underMovingLock(channel, remove, {
    ...channel.keys.byName,
    ...trashArguments(trashedPrefixOf(channel.keys), trash),
    id,
    channel: channel.keys.channel,
    holder: movingLockHolder(channel),
    reach: READY_REMOVAL_REACH,
  });
}

/** Puts these removed jobs of the channel back as they were (lua/yii2/restore-11.lua), a batch per call, waiting out a stock mover's lock. */
export function restoreYii2Jobs(channel: Yii2Channel, settings: TrashSettings, ids: readonly string[]): Promise<RestoredJob[]> {
  const trash = yii2TrashKeys(channel.keys, settings.dashboardPrefix);
  const call = { ...channel.keys.byName, ...placement(channel), trashIndex: trash.index, trashPrefix: trash.prefix, holder: movingLockHolder(channel) };
  return restoreInBatches(channel.connection, ids, (batch) => runWaitingOut(channel.connection, restore, { ...call, ids: batch }, MOVING_LOCK_WAIT));
}

/**
 * Runs a copy of job `id` (lua/yii2/copy-10.lua): a new id from the
 * channel's counter, the message's exact bytes, or `body` after its TTR
 * prefix where the message is JSON-serialized, placed as the driver's push
 * places a new job, `delaySeconds` from now. Throws QueueError when a key
 * has the wrong type or a stock worker kept the moving_lock.
 */
export function copyYii2Job(channel: Yii2Channel, id: string, options: { delaySeconds: number; body?: string }): Promise<Yii2CopyOutcome> {
  return underMovingLock(channel, copy, {
    ...channel.keys.byName,
    ...placement(channel),
    id,
    delaySeconds: options.delaySeconds,
    edited: options.body === undefined ? 0 : 1,
    body: options.body ?? '',
  });
}

function releaseReservation(channel: Yii2Channel, id: string, reservations: 'expired' | 'live'): Promise<boolean> {
  return underMovingLock(channel, release, { ...channel.keys.byName, ...placement(channel), id, reservations });
}

/**
 * Puts an expired reservation back in line now, where the driver's mover
 * would: true when done, false when `id` is not reserved. Throws QueueError
 * (LiveReservation) when it has not expired: see reclaimReservation.
 */
export function releaseExpiredReservation(channel: Yii2Channel, id: string): Promise<boolean> {
  return releaseReservation(channel, id, 'expired');
}

/**
 * Ends a reservation that has not run out, for a holder known to be gone,
 * and puts the job back in line now as for an expired one. If the holder is
 * alive the job runs twice. False when `id` is not reserved.
 */
export function reclaimReservation(channel: Yii2Channel, id: string): Promise<boolean> {
  return releaseReservation(channel, id, 'live');
}

/**
 * Puts delayed job `id` in line now, where the driver's mover would had it
 * come due this second; false when it is not delayed. One that is due
 * already is left to the mover (true).
 */
export function runDelayedNow(channel: Yii2Channel, id: string): Promise<boolean> {
  return underMovingLock(channel, runNow, { ...channel.keys.byName, ...placement(channel), id });
}

/**
 * Moves at most `limit` due delayed jobs into line, as the driver's mover
 * would; call again while `stillDue` is above 0.
 */
export function promoteDueJobs(channel: Yii2Channel, limit = 100): Promise<{ moved: number; stillDue: number }> {
  const bounded = Math.max(1, Math.min(MAX_PROMOTE_BATCH, Math.floor(limit)));
  return underMovingLock(channel, promoteDue, { ...channel.keys.byName, ...placement(channel), limit: bounded });
}

function queueRepairCall(channel: Yii2Channel, pipeline: ReturnType<RedisConnection['redis']['pipeline']>, repair: Yii2RepairAction): void {
  const { keys } = channel;
  switch (repair.kind) {
    case 'requeue-orphan':
      return requeueOrphan.queue(pipeline, { ...keys.byName, ...placement(channel), id: repair.id });
    case 'drop-dangling':
      return dropDangling.queue(pipeline, { messages: keys.messages, index: keys[repair.index], id: repair.id });
    case 'clean-leaked':
      return cleanLeaked.queue(pipeline, { messages: keys.messages, entries: keys[repair.hash], id: repair.id });
    case 'drop-stuck-lock':
      return dropStuckLock.queue(pipeline, { movingLock: keys.movingLock });
    case 'raise-message-id':
      return raiseMessageId.queue(pipeline, { messageId: keys.messageId, highest: repair.to });
    case 'arm-marker':
      return armMarker.queue(pipeline, { prioritized: keys.prioritized, marker: keys.marker });
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
