import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { readSettings, settingsFromEnv, settingsFromUrl, type RedisSettings } from '@/lib/queue/config';
import { alertRulesFromEnv, alertRulesSchema, NO_ALERTS, type AlertRules } from './alerts';
import { DEFAULT_MARKS, markRulesFromEnv, markRulesSchema, type MarkRules } from './marks';

/** One Redis the dashboard can show, as the header's switcher lists it. */
export interface Connection {
  name: string;
  label: string;
  settings: RedisSettings;
  /** nothing on it can be changed through QueueLens, whoever signs in */
  readOnly: boolean;
  /** the thresholds over which the overview flags a queue */
  alerts: AlertRules;
  /** when the overview marks a queue as needing attention (no worker, stuck, failing, overdue delayed) */
  marks: MarkRules;
}

const connectionEntry = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a name is 1–40 of a-z, 0-9, _ and -, starting with a letter or digit'),
    label: z.string().min(1).max(80).optional(),
    url: z.string().optional(),
    // The spec's settings block; readSettings gives every missing key its default.
    redis: z.record(z.string(), z.unknown()).optional(),
    prefix: z.string().optional(),
    group: z.string().min(1).optional(),
    readOnly: z.boolean().default(false),
    alerts: alertRulesSchema.optional(),
    marks: markRulesSchema.optional(),
  })
  .strict()
  .refine((entry) => (entry.url === undefined) !== (entry.redis === undefined), { message: 'give either "url" or "redis", not both or neither' });

const connectionsFile = z
  .object({ connections: z.array(connectionEntry).min(1) })
  .strict()
  .refine((file) => new Set(file.connections.map((entry) => entry.name)).size === file.connections.length, { message: 'connection names must be unique' });

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'not understood';
}

/** Reads a `queuelens.config.json`'s text into connections; throws an Error saying what is wrong and where. */
export function parseConnections(text: string, source: string): Connection[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = connectionsFile.safeParse(json);
  if (!parsed.success) throw new Error(`${source} is not a QueueLens connections file (${describeIssue(parsed.error)})`);
  return parsed.data.connections.map((entry) => {
    const layout = { ...(entry.prefix !== undefined ? { prefix: entry.prefix } : {}), ...(entry.group !== undefined ? { group: entry.group } : {}) };
    const settings = entry.url !== undefined ? settingsFromUrl(entry.url, layout) : readSettings({ ...entry.redis, ...layout });
    return { name: entry.name, label: entry.label ?? entry.name, settings, readOnly: entry.readOnly, alerts: entry.alerts ?? NO_ALERTS, marks: entry.marks ?? DEFAULT_MARKS };
  });
}

/**
 * The one connection of a dashboard without a config file: REDIS_URL, QUEUE_PREFIX and
 * QUEUE_GROUP, QUEUELENS_ALERT_WAIT_SECONDS and QUEUELENS_ALERT_BACKLOG for every queue,
 * and the QUEUELENS_MARK_* thresholds (see markRulesFromEnv).
 */
export function connectionFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Connection {
  const settings = settingsFromEnv(env);
  return { name: 'default', label: `${settings.hostname}:${settings.port}`, settings, readOnly: false, alerts: alertRulesFromEnv(env), marks: markRulesFromEnv(env) };
}

/**
 * The dashboard's connections: the file QUEUELENS_CONFIG names, else
 * `queuelens.config.json` in the working directory when there is one, else
 * the environment's single connection. A file named explicitly must exist.
 */
export function loadConnections(env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd()): Connection[] {
  const explicit = env.QUEUELENS_CONFIG;
  const path = explicit || `${cwd}/queuelens.config.json`;
  let text: string;
  try {
    // Read at run time from wherever the operator keeps it, never traced into the build.
    text = readFileSync(/*turbopackIgnore: true*/ path, 'utf8');
  } catch (error) {
    if (!explicit && (error as NodeJS.ErrnoException).code === 'ENOENT') return [connectionFromEnv(env)];
    throw new Error(`Cannot read the connections file ${path}: ${(error as Error).message}`);
  }
  return parseConnections(text, path);
}
