import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LAYOUT_NAMES } from '@/lib/layouts/adapter';
import {
  DEFAULT_LARAVEL_PREFIX,
  DEFAULT_MARKO_PREFIX,
  DEFAULT_YII2_CHANNEL,
  DEFAULT_YII2_NG_SETTINGS,
  layoutSettingsFromEnv,
  type LayoutSettings,
} from '@/lib/layouts/settings';
import { readSettings, settingsFromEnv, settingsFromUrl, type RedisSettings } from '@/lib/redis/config';
import { alertRulesFromEnv, alertRulesSchema, NO_ALERTS, type AlertRules } from './alerts';
import { DEFAULT_MARKS, markRulesFromEnv, markRulesSchema, type MarkRules } from './marks';
import { noticeRulesSchema, type NoticeRules } from './notices';

/** One Redis the dashboard can show, as the header's switcher lists it. */
export interface Connection {
  name: string;
  label: string;
  settings: RedisSettings;
  /** whose keys the connection holds (a PHP driver's layout), and that layout's settings Redis does not store */
  layout: LayoutSettings;
  /** nothing on it can be changed through QueueLens, whoever signs in */
  readOnly: boolean;
  /** the thresholds over which the overview flags a queue */
  alerts: AlertRules;
  /** when the overview marks a queue as needing attention (no worker, stuck, failing, overdue delayed) */
  marks: MarkRules;
  /** the webhooks QueueLens sends its marks to when they start and clear (lib/dashboard/alert-sender.ts); none when absent */
  notify?: NoticeRules;
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
    layout: z.enum(LAYOUT_NAMES, { message: `one of ${LAYOUT_NAMES.join(', ')}` }).default('staticphp'),
    // yii2: the channels (the queue component's `channel`), in the Redis database of the url or of `database`.
    channel: z.string().min(1, 'a channel name').optional(),
    channels: z.array(z.string().min(1, 'a channel name')).min(1, 'at least one channel').optional(),
    database: z.number().int().min(0, 'a Redis database number, 0 or more').optional(),
    // redis-ng: its queue component's settings, which Redis does not store.
    defaultPriority: z.number().int().min(0).max(9000, 'an integer priority from 0 to 9000').optional(),
    aging: z.number().min(0).max(86_400, 'seconds per priority point, from 0 to 86400').optional(),
    retryPosition: z.enum(['back', 'original'], { message: '"back" or "original"' }).optional(),
    delayPosition: z.enum(['back', 'original'], { message: '"back" or "original"' }).optional(),
    batchSize: z.number().int().min(1, 'a whole number, 1 or more').optional(),
    // marko: its queue.retry_after (seconds a reservation lasts, only to say when one began); marko and laravel: their queues (otherwise found by a bounded SCAN).
    retryAfter: z.number().int().min(1, 'a whole number of seconds, 1 or more').optional(),
    queues: z.array(z.string().min(1, 'a queue name')).min(1, 'at least one queue').optional(),
    // laravel: the prefix of Horizon's keys (config/horizon.php `prefix`), where Horizon runs; its failed jobs are then read.
    horizonPrefix: z.string().min(1, 'a prefix such as laravel_horizon:').optional(),
    readOnly: z.boolean().default(false),
    alerts: alertRulesSchema.optional(),
    marks: markRulesSchema.optional(),
    notify: noticeRulesSchema.optional(),
  })
  .strict()
  .refine((entry) => (entry.url === undefined) !== (entry.redis === undefined), { message: 'give either "url" or "redis", not both or neither' })
  .superRefine((entry, context) => {
    const misplaced = (field: keyof typeof entry, layouts: string) => {
      if (entry[field] !== undefined)
        context.addIssue({ code: 'custom', path: [field], message: `only a ${layouts} connection has "${field}", not a ${entry.layout} one` });
    };
    if (entry.channel !== undefined && entry.channels !== undefined)
      context.addIssue({ code: 'custom', path: ['channels'], message: 'give either "channel" or "channels", not both' });
    const yii2 = entry.layout === 'yii2' || entry.layout === 'yii2-ng';
    if (!yii2) for (const field of ['channel', 'channels'] as const) misplaced(field, 'yii2 or yii2-ng');
    if (entry.layout === 'staticphp') misplaced('database', 'yii2, yii2-ng, marko or laravel');
    if (entry.layout !== 'staticphp') misplaced('group', 'staticphp');
    if (yii2) misplaced('prefix', 'staticphp, marko or laravel');
    if (entry.layout !== 'marko') misplaced('retryAfter', 'marko');
    if (entry.layout !== 'marko' && entry.layout !== 'laravel') misplaced('queues', 'marko or laravel');
    if (entry.layout !== 'laravel') misplaced('horizonPrefix', 'laravel');
    if (entry.layout !== 'yii2-ng')
      for (const field of ['defaultPriority', 'aging', 'retryPosition', 'delayPosition', 'batchSize'] as const) misplaced(field, 'yii2-ng');
  });

type ConnectionEntry = z.infer<typeof connectionEntry>;

function layoutOf(entry: ConnectionEntry): LayoutSettings {
  if (entry.layout === 'staticphp') return { layout: 'staticphp' };
  if (entry.layout === 'marko')
    return { layout: 'marko', prefix: entry.prefix ?? DEFAULT_MARKO_PREFIX, retryAfter: entry.retryAfter ?? null, queues: entry.queues ?? null };
  if (entry.layout === 'laravel')
    return { layout: 'laravel', prefix: entry.prefix ?? DEFAULT_LARAVEL_PREFIX, queues: entry.queues ?? null, horizonPrefix: entry.horizonPrefix ?? null };
  const channels = entry.channels ?? [entry.channel ?? DEFAULT_YII2_CHANNEL];
  if (entry.layout === 'yii2') return { layout: 'yii2', channels };
  const { defaultPriority, aging, retryPosition, delayPosition, batchSize } = { ...DEFAULT_YII2_NG_SETTINGS, ...definedOnly(entry) };
  return { layout: 'yii2-ng', channels, ng: { defaultPriority, aging, retryPosition, delayPosition, batchSize } };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

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
    const overrides = {
      // A marko or laravel prefix is the layout's, not the StaticPHP driver's.
      ...(entry.prefix !== undefined && entry.layout === 'staticphp' ? { prefix: entry.prefix } : {}),
      ...(entry.group !== undefined ? { group: entry.group } : {}),
      ...(entry.database !== undefined ? { database: entry.database } : {}),
    };
    const settings = entry.url !== undefined ? settingsFromUrl(entry.url, overrides) : readSettings({ ...entry.redis, ...overrides });
    return {
      name: entry.name,
      label: entry.label ?? entry.name,
      settings,
      layout: layoutOf(entry),
      readOnly: entry.readOnly,
      alerts: entry.alerts ?? NO_ALERTS,
      marks: entry.marks ?? DEFAULT_MARKS,
      ...(entry.notify ? { notify: entry.notify } : {}),
    };
  });
}

/**
 * The one connection of a dashboard without a config file: REDIS_URL, QUEUE_PREFIX and
 * QUEUE_GROUP, QUEUE_LAYOUT and QUEUE_CHANNELS, QUEUELENS_ALERT_WAIT_SECONDS and QUEUELENS_ALERT_BACKLOG for every queue,
 * and the QUEUELENS_MARK_* thresholds (see markRulesFromEnv).
 */
export function connectionFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Connection {
  const settings = settingsFromEnv(env);
  return {
    name: 'default',
    label: `${settings.hostname}:${settings.port}`,
    settings,
    layout: layoutSettingsFromEnv(env),
    readOnly: false,
    alerts: alertRulesFromEnv(env),
    marks: markRulesFromEnv(env),
  };
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
