import { z } from 'zod';
import { nobodyReservedSince, type WaitingSince } from '../shapes/delayed-timeline';
import { everyQueueRulesFromEnv, queueRulesSchema, ruleFor, type QueueRules } from './alerts';

/**
 * When the overview marks a queue as needing attention; `false` switches a
 * mark off. Unlike the alert thresholds these are on out of the box: each
 * says something is wrong whatever the queue's size.
 */
export interface MarkThresholds {
  /** jobs ready this long with nothing handed out since: no worker reserves from the queue */
  noWorkerSeconds: number | false;
  /** a claim this long past its deadline that nobody reclaimed: its holder died or hangs, and no other worker reserves */
  stuckSeconds: number | false;
  /** any failure within this many minutes */
  failingMinutes: number | false;
  /** a delayed job due this long and not promoted into its stream */
  overdueDelayedSeconds: number | false;
}

/**
 * A minute is the delayed page's "unattended" rule (UNATTENDED_AFTER_SECONDS):
 * room for workers that poll slowly or back off. Failures count over the
 * overview's 15 minutes of history.
 */
export const DEFAULT_MARK_THRESHOLDS: MarkThresholds = { noWorkerSeconds: 60, stuckSeconds: 60, failingMinutes: 15, overdueDelayedSeconds: 60 };

/** The longest failing window: the overview reads the failures since then on every poll. */
export const MAX_FAILING_MINUTES = 24 * 60;

/** How a refusal says a mark is switched off: `false` in the connections file, `off` in the environment. */
const OFF = 'false (off) to switch the mark off';

const seconds = z.union([z.literal(false), z.number().min(0, 'a number of seconds, 0 or more')], { error: `a number of seconds, or ${OFF}` });

const MINUTES = `a whole number of minutes from 1 to ${MAX_FAILING_MINUTES}`;

const markEntry = z
  .object({
    noWorkerSeconds: seconds.optional(),
    stuckSeconds: seconds.optional(),
    failingMinutes: z
      .union([z.literal(false), z.number().int(MINUTES).min(1, MINUTES).max(MAX_FAILING_MINUTES, MINUTES)], { error: `${MINUTES}, or ${OFF}` })
      .optional(),
    overdueDelayedSeconds: seconds.optional(),
  })
  .strict();

/** A connection's mark thresholds by queue name, `*` for the others; a field an entry leaves out takes its default. */
export type MarkRules = QueueRules<Partial<MarkThresholds>>;

export const DEFAULT_MARKS: MarkRules = new Map();

/** The `marks` object of a connection in the connections file. */
export const markRulesSchema = queueRulesSchema(markEntry, 'mark thresholds');

/** The thresholds that mark `queue`: its own entry in full when it has one, else `*`'s, each field left out at its default. */
export function markThresholdsFor(rules: MarkRules, queue: string): MarkThresholds {
  return { ...DEFAULT_MARK_THRESHOLDS, ...ruleFor(rules, queue) };
}

/**
 * The single connection's mark thresholds without a connections file, for
 * every queue: QUEUELENS_MARK_NO_WORKER_SECONDS, QUEUELENS_MARK_STUCK_SECONDS,
 * QUEUELENS_MARK_FAILING_MINUTES and QUEUELENS_MARK_OVERDUE_DELAYED_SECONDS,
 * a number or `off`. Throws an Error naming the variable that is neither.
 */
export function markRulesFromEnv(env: Readonly<Record<string, string | undefined>>): MarkRules {
  return everyQueueRulesFromEnv(
    env,
    {
      QUEUELENS_MARK_NO_WORKER_SECONDS: 'noWorkerSeconds',
      QUEUELENS_MARK_STUCK_SECONDS: 'stuckSeconds',
      QUEUELENS_MARK_FAILING_MINUTES: 'failingMinutes',
      QUEUELENS_MARK_OVERDUE_DELAYED_SECONDS: 'overdueDelayedSeconds',
    },
    markEntry,
    (text) => (text === 'off' ? false : Number(text)),
  );
}

/** The minutes a queue's failures are counted over: its failing mark's, or the default's while that mark is off. */
export function failingWindowMinutes(thresholds: MarkThresholds): number {
  return thresholds.failingMinutes === false ? (DEFAULT_MARK_THRESHOLDS.failingMinutes as number) : thresholds.failingMinutes;
}

/** How many of `failedAt` (unix seconds) lie within the last `minutes` of `now`. */
export function failuresWithin(failedAt: readonly number[], now: number, minutes: number): number {
  const since = now - minutes * 60;
  // Counted, not filtered: called for every queue at every tick, most with no failures.
  let count = 0;
  for (const at of failedAt) if (at >= since) count++;
  return count;
}

/** A claim past its deadline, as the reservations page shows it. */
export interface RanOutClaim {
  holder: string;
  /** reserved_until, unix seconds */
  deadline: number;
}

/** What one queue's marks are judged on: the figures the queue, delayed, reservations and failed pages show. */
export interface AttentionFigures extends WaitingSince {
  /** stats()' pending: ready in a stream or due in the delayed set */
  pending: number;
  /** due delayed jobs not promoted yet, and the oldest one's score */
  due: number;
  oldestDueAt: number | null;
  /** when the newest entry still held was handed out, server ms; null when none is held */
  newestHeldDeliveryAt: number | null;
  /** claims past their deadline nobody reclaimed (the reservations page's overdue) */
  ranOutClaims: readonly RanOutClaim[];
  /** when each failure of the queue happened, unix seconds, newest first */
  failedAt: readonly number[];
  /** the newest failure's error, first line */
  latestError: string;
}

export type QueueMark =
  | { kind: 'noWorker'; ready: number; waitingSeconds: number }
  | { kind: 'stuck'; claims: number; holders: string[]; ranOutAt: number }
  | { kind: 'failing'; failures: number; minutes: number; latestError: string }
  | { kind: 'overdueDelayed'; due: number; dueSeconds: number };

/**
 * The marks a queue earns, in the order the overview shows them: no worker,
 * stuck, failing, overdue delayed. A figure exactly at its threshold earns
 * the mark (a claim 60 s past its deadline against 60 s is stuck).
 */
export function marksOf(figures: AttentionFigures, thresholds: MarkThresholds): QueueMark[] {
  const marks: QueueMark[] = [];
  const { now } = figures;
  // Held entries are handed out in id order, so one handed out within the threshold is a worker at work:
  // a backlog older than the threshold is then slow, not unattended.
  if (thresholds.noWorkerSeconds !== false && figures.pending > 0) {
    const limit = thresholds.noWorkerSeconds;
    const handedOutLately = figures.newestHeldDeliveryAt !== null && now * 1000 - figures.newestHeldDeliveryAt < limit * 1000;
    if (!handedOutLately && nobodyReservedSince(figures, limit)) {
      marks.push({ kind: 'noWorker', ready: figures.pending, waitingSeconds: now - figures.oldestWaitingAt! });
    }
  }
  if (thresholds.stuckSeconds !== false) {
    const limit = thresholds.stuckSeconds;
    const stuck = figures.ranOutClaims.filter((claim) => now - claim.deadline >= limit);
    if (stuck.length > 0) {
      marks.push({
        kind: 'stuck',
        claims: stuck.length,
        holders: [...new Set(stuck.map((claim) => claim.holder))].sort(),
        ranOutAt: Math.min(...stuck.map((claim) => claim.deadline)),
      });
    }
  }
  if (thresholds.failingMinutes !== false) {
    const failures = failuresWithin(figures.failedAt, now, thresholds.failingMinutes);
    if (failures > 0) marks.push({ kind: 'failing', failures, minutes: thresholds.failingMinutes, latestError: figures.latestError });
  }
  if (thresholds.overdueDelayedSeconds !== false && figures.oldestDueAt !== null && now - figures.oldestDueAt >= thresholds.overdueDelayedSeconds) {
    marks.push({ kind: 'overdueDelayed', due: figures.due, dueSeconds: now - figures.oldestDueAt });
  }
  return marks;
}
