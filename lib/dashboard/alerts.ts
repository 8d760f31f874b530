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

/** Settings by queue name, `*` for the others: the shape of a connection's `alerts` and `marks`. */
export type QueueRules<T> = ReadonlyMap<string, T>;

/** A connection's thresholds by queue name, `*` for the others. */
export type AlertRules = QueueRules<AlertThresholds>;

export const NO_ALERTS: AlertRules = new Map();

const thresholdsEntry = z
  .object({
    waitSeconds: z.number({ error: 'a number of seconds' }).min(0, 'a number of seconds, 0 or more').optional(),
    backlog: z.number({ error: 'a whole number of jobs' }).int('a whole number of jobs').min(0, 'a whole number of jobs, 0 or more').optional(),
  })
  .strict();

/**
 * An object of the connections file mapping queue names (or `*`) to one
 * `entry` each, read into a Map entry by entry rather than by z.record,
 * which drops a queue named `__proto__` (queue names are whatever producers wrote).
 */
export function queueRulesSchema<T>(entry: z.ZodType<T>, what: string) {
  return z.unknown().transform((entries, context): QueueRules<T> => {
    const rules = new Map<string, T>();
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
      context.addIssue({ code: 'custom', message: `an object of queue names (or "*") to ${what}` });
      return rules;
    }
    for (const [queue, value] of Object.entries(entries)) {
      if (queue === '') context.addIssue({ code: 'custom', path: [queue], message: 'a queue name, or "*" for every queue' });
      const parsed = entry.safeParse(value);
      if (parsed.success) rules.set(queue, parsed.data);
      else for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: [queue, ...issue.path], message: issue.message });
    }
    return rules;
  });
}

/** The `alerts` object of a connection in the connections file. */
export const alertRulesSchema = queueRulesSchema(thresholdsEntry, 'thresholds');

/** The entry that applies to `queue`: its own in full when it has one, else `*`'s, else none. */
export function ruleFor<T>(rules: QueueRules<T>, queue: string): T | undefined {
  return rules.get(queue) ?? rules.get(EVERY_QUEUE);
}

/** The thresholds that apply to `queue`: its own entry in full when it has one (an empty entry switches `*` off for it), else `*`'s. */
export function thresholdsFor(rules: AlertRules, queue: string): AlertThresholds {
  return ruleFor(rules, queue) ?? {};
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

/**
 * Rules of every queue from environment variables, one field each
 * (`variables` maps a variable to its field): `fromText` turns a variable's
 * text into the value `entry` checks. Empty counts as unset; nothing set
 * gives no rules. Throws an Error naming the variable whose value `entry` refuses.
 */
export function everyQueueRulesFromEnv<T>(
  env: Readonly<Record<string, string | undefined>>,
  variables: Readonly<Record<string, string>>,
  entry: z.ZodType<T>,
  fromText: (text: string) => unknown,
): QueueRules<T> {
  const values: Record<string, unknown> = {};
  const sources = new Map<string, { variable: string; text: string }>();
  for (const [variable, field] of Object.entries(variables)) {
    const text = env[variable]?.trim();
    if (!text) continue;
    values[field] = fromText(text);
    sources.set(field, { variable, text });
  }
  if (sources.size === 0) return new Map();
  const parsed = entry.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const source = sources.get(String(issue?.path[0]));
    throw new Error(`${source?.variable ?? 'A variable'} must be ${issue?.message ?? 'a threshold'}, not "${source?.text ?? ''}"`);
  }
  return new Map([[EVERY_QUEUE, parsed.data]]);
}

/**
 * The single connection's rules without a connections file: QUEUELENS_ALERT_WAIT_SECONDS
 * and QUEUELENS_ALERT_BACKLOG, each a threshold of every queue (empty counts as unset).
 * Throws an Error naming the variable when one is not a valid threshold.
 */
export function alertRulesFromEnv(env: Readonly<Record<string, string | undefined>>): AlertRules {
  return everyQueueRulesFromEnv(env, { QUEUELENS_ALERT_WAIT_SECONDS: 'waitSeconds', QUEUELENS_ALERT_BACKLOG: 'backlog' }, thresholdsEntry, Number);
}
