import { QueueError } from '../redis/errors';
import { LAYOUT_NAMES } from './adapter';

/** yii2-queue's default channel (the queue component's `channel` property). */
export const DEFAULT_YII2_CHANNEL = 'queue';

/** Where redis-ng puts a job that re-enters the line: at the back, or at the place it first took (kept in `<ch>.ranks`). */
export type Yii2NgPosition = 'back' | 'original';

/**
 * redis-ng's queue-component settings that Redis does not store and its
 * scores cannot reveal (shared/spec/yii2-queue-redis-layout.md §1.2, §4.7).
 * They must match what the PHP side is configured with.
 */
export interface Yii2NgSettings {
  /** the priority of a job pushed without one (0..9000; lower runs first) */
  defaultPriority: number;
  /** seconds of waiting worth one priority point; 0 is strict priority */
  aging: number;
  retryPosition: Yii2NgPosition;
  delayPosition: Yii2NgPosition;
  /** how many due, expired or stock-list ids one push or reserve moves per key */
  batchSize: number;
}

export const DEFAULT_YII2_NG_SETTINGS: Yii2NgSettings = { defaultPriority: 1024, aging: 0, retryPosition: 'back', delayPosition: 'back', batchSize: 100 };

/** marko/queue-redis's default `queue-redis.prefix`. */
export const DEFAULT_MARKO_PREFIX = 'marko:';

/** The Redis key prefix of Laravel 8–10's default `database.redis.options.prefix` (an application named "laravel"); 11 and later write `laravel-database-`. */
export const DEFAULT_LARAVEL_PREFIX = 'laravel_database_';

/**
 * Which layout a connection's keys follow, and the settings of that layout
 * that Redis does not store. StaticPHP's are the driver settings' prefix and
 * group; a yii2 connection names its channels (in the connection's
 * database), and redis-ng adds its queue component's settings. marko names
 * its prefix, `queue.retry_after` when known (seconds a reservation lasts:
 * only used to say when one began) and its queues (null: found by a bounded
 * SCAN). Laravel names its prefix and queues likewise, and the prefix of
 * Horizon's keys (config/horizon.php `prefix`, e.g. `laravel_horizon:`) where
 * Horizon runs: its failed jobs are then read; null: no Horizon.
 */
export type LayoutSettings =
  | { layout: 'staticphp' }
  | { layout: 'yii2'; channels: string[] }
  | { layout: 'yii2-ng'; channels: string[]; ng: Yii2NgSettings }
  | { layout: 'marko'; prefix: string; retryAfter: number | null; queues: string[] | null }
  | { layout: 'laravel'; prefix: string; queues: string[] | null; horizonPrefix: string | null };

/** Names separated by commas, each non-empty; the error names the variable. */
function namesFrom(text: string, variable: string, what: string): string[] {
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new QueueError(`${variable} must list ${what} separated by commas, not "${text}"`);
  return names;
}

function markoSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): LayoutSettings {
  const retryAfter = env.QUEUE_RETRY_AFTER ? Number(env.QUEUE_RETRY_AFTER) : null;
  if (retryAfter !== null && !(/^\d+$/.test(env.QUEUE_RETRY_AFTER!) && Number.isSafeInteger(retryAfter) && retryAfter > 0)) {
    throw new QueueError(`QUEUE_RETRY_AFTER must be a whole number of seconds above 0 (marko's queue.retry_after), not "${env.QUEUE_RETRY_AFTER}"`);
  }
  return {
    layout: 'marko',
    prefix: env.QUEUE_PREFIX || DEFAULT_MARKO_PREFIX,
    retryAfter,
    queues: env.QUEUE_NAMES ? namesFrom(env.QUEUE_NAMES, 'QUEUE_NAMES', 'queue names') : null,
  };
}

/**
 * The layout from the environment: `QUEUE_LAYOUT` (staticphp when unset or
 * empty) and, for yii2, `QUEUE_CHANNELS` (comma-separated, default `queue`);
 * redis-ng's settings take their defaults here (a connections file can set
 * them). For marko: `QUEUE_PREFIX` (default `marko:`), `QUEUE_RETRY_AFTER`
 * (seconds, unset when unknown) and `QUEUE_NAMES` (comma-separated; unset:
 * found by SCAN); for laravel the same QUEUE_PREFIX (default
 * `laravel_database_`) and QUEUE_NAMES. Errors name the variable.
 */
export function layoutSettingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LayoutSettings {
  const layout = env.QUEUE_LAYOUT || 'staticphp';
  if (!(LAYOUT_NAMES as readonly string[]).includes(layout)) {
    throw new QueueError(`QUEUE_LAYOUT must be one of ${LAYOUT_NAMES.join(', ')}, not "${layout}"`);
  }
  if (layout === 'staticphp') return { layout };
  if (layout === 'marko') return markoSettingsFromEnv(env);
  if (layout === 'laravel')
    return {
      layout,
      prefix: env.QUEUE_PREFIX || DEFAULT_LARAVEL_PREFIX,
      queues: env.QUEUE_NAMES ? namesFrom(env.QUEUE_NAMES, 'QUEUE_NAMES', 'queue names') : null,
      horizonPrefix: env.HORIZON_PREFIX || null,
    };
  const channels = env.QUEUE_CHANNELS ? namesFrom(env.QUEUE_CHANNELS, 'QUEUE_CHANNELS', 'channel names') : [DEFAULT_YII2_CHANNEL];
  return layout === 'yii2-ng' ? { layout, channels, ng: { ...DEFAULT_YII2_NG_SETTINGS } } : { layout: 'yii2', channels };
}
