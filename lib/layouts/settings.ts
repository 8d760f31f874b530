import { QueueError } from '../queue/errors';
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

/**
 * Which layout a connection's keys follow, and the settings of that layout
 * that Redis does not store. StaticPHP's are the driver settings' prefix and
 * group; a yii2 connection names its channels (in the connection's
 * database), and redis-ng adds its queue component's settings.
 */
export type LayoutSettings =
  | { layout: 'staticphp' }
  | { layout: 'yii2'; channels: string[] }
  | { layout: 'yii2-ng'; channels: string[]; ng: Yii2NgSettings };

/**
 * The layout from the environment: `QUEUE_LAYOUT` (staticphp when unset or
 * empty) and, for yii2, `QUEUE_CHANNELS` (comma-separated, default `queue`);
 * redis-ng's settings take their defaults here (a connections file can set
 * them). Errors name the variable.
 */
export function layoutSettingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LayoutSettings {
  const layout = env.QUEUE_LAYOUT || 'staticphp';
  if (!(LAYOUT_NAMES as readonly string[]).includes(layout)) {
    throw new QueueError(`QUEUE_LAYOUT must be one of ${LAYOUT_NAMES.join(', ')}, not "${layout}"`);
  }
  if (layout === 'staticphp') return { layout };
  const channels = env.QUEUE_CHANNELS ? env.QUEUE_CHANNELS.split(',').map((channel) => channel.trim()) : [DEFAULT_YII2_CHANNEL];
  if (channels.some((channel) => channel === '')) {
    throw new QueueError(`QUEUE_CHANNELS must list channel names separated by commas, not "${env.QUEUE_CHANNELS}"`);
  }
  return layout === 'yii2-ng' ? { layout, channels, ng: { ...DEFAULT_YII2_NG_SETTINGS } } : { layout: 'yii2', channels };
}

/**
 * Whether the dashboard samples a connection's throughput: from StaticPHP's
 * counters. yii2-queue records no finished or failed jobs to sample.
 */
export function hasSampledThroughput(layout: LayoutSettings): boolean {
  return layout.layout === 'staticphp';
}
