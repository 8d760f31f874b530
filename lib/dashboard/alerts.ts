import { z } from 'zod';

/** The key of `alerts` that sets the thresholds of every queue not named on its own. */
export const EVERY_QUEUE = '*';

/** Limits a queue may go up to; over either one, the overview flags it. Absent: no limit. */
export interface AlertThresholds {
  /** the longest the oldest ready job may wait, in seconds */
  waitSeconds?: number;
  /** the most jobs the queue may hold: pending, delayed and reserved together, its stats() total */
  backlog?: number;
}

/** A connection's thresholds by queue name, `*` for the others. */
export type AlertRules = ReadonlyMap<string, AlertThresholds>;

export const NO_ALERTS: AlertRules = new Map();

const thresholdsEntry = z
  .object({
    waitSeconds: z.number({ error: 'a number of seconds' }).min(0, 'a number of seconds, 0 or more').optional(),
    backlog: z.number({ error: 'a whole number of jobs' }).int('a whole number of jobs').min(0, 'a whole number of jobs, 0 or more').optional(),
  })
  .strict();

/**
 * The `alerts` object of a connection in the connections file: queue name (or `*`) to
 * thresholds, read into a Map entry by entry rather than by z.record, which drops
 * a queue named `__proto__` (queue names are whatever producers wrote).
 */
export const alertRulesSchema = z.unknown().transform((entries, context): AlertRules => {
  const rules = new Map<string, AlertThresholds>();
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    context.addIssue({ code: 'custom', message: 'an object of queue names (or "*") to thresholds' });
    return rules;
  }
  for (const [queue, entry] of Object.entries(entries)) {
    if (queue === '') context.addIssue({ code: 'custom', path: [queue], message: 'a queue name, or "*" for every queue' });
    const parsed = thresholdsEntry.safeParse(entry);
    if (parsed.success) rules.set(queue, parsed.data);
    else for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: [queue, ...issue.path], message: issue.message });
  }
  return rules;
});

/** The thresholds that apply to `queue`: its own entry in full when it has one (an empty entry switches `*` off for it), else `*`'s. */
export function thresholdsFor(rules: AlertRules, queue: string): AlertThresholds {
  return rules.get(queue) ?? rules.get(EVERY_QUEUE) ?? {};
}

/** One threshold a queue is over: which, the figure now and the limit. */
export interface ThresholdCrossing {
  threshold: keyof AlertThresholds;
  value: number;
  limit: number;
}

/** What a queue is judged on: its backlog (stats()' total) and how long its oldest ready job has waited, null when none waits. */
export interface QueueFigures {
  backlog: number;
  waitSeconds: number | null;
}

/** The thresholds `figures` are over, wait first; a figure equal to its limit is not over it. */
export function crossedThresholds(thresholds: AlertThresholds, figures: QueueFigures): ThresholdCrossing[] {
  const crossings: ThresholdCrossing[] = [];
  if (thresholds.waitSeconds !== undefined && figures.waitSeconds !== null && figures.waitSeconds > thresholds.waitSeconds) {
    crossings.push({ threshold: 'waitSeconds', value: figures.waitSeconds, limit: thresholds.waitSeconds });
  }
  if (thresholds.backlog !== undefined && figures.backlog > thresholds.backlog) {
    crossings.push({ threshold: 'backlog', value: figures.backlog, limit: thresholds.backlog });
  }
  return crossings;
}

const ENV_THRESHOLDS = { QUEUELENS_ALERT_WAIT_SECONDS: 'waitSeconds', QUEUELENS_ALERT_BACKLOG: 'backlog' } as const;

/**
 * The single connection's rules without a connections file: QUEUELENS_ALERT_WAIT_SECONDS
 * and QUEUELENS_ALERT_BACKLOG, each a threshold of every queue (empty counts as unset).
 * Throws an Error naming the variable when one is not a valid threshold.
 */
export function alertRulesFromEnv(env: Readonly<Record<string, string | undefined>>): AlertRules {
  const thresholds: AlertThresholds = {};
  for (const [variable, threshold] of Object.entries(ENV_THRESHOLDS) as [keyof typeof ENV_THRESHOLDS, keyof AlertThresholds][]) {
    const text = env[variable]?.trim();
    if (!text) continue;
    const parsed = thresholdsEntry.shape[threshold].unwrap().safeParse(Number(text));
    if (!parsed.success) throw new Error(`${variable} must be ${parsed.error.issues[0]?.message ?? 'a threshold'}, not "${text}"`);
    thresholds[threshold] = parsed.data;
  }
  return Object.keys(thresholds).length > 0 ? new Map([[EVERY_QUEUE, thresholds]]) : NO_ALERTS;
}
