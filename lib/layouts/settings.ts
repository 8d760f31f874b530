import { QueueError } from '../queue/errors';
import { LAYOUT_NAMES } from './adapter';

/** yii2-queue's default channel (the queue component's `channel` property). */
export const DEFAULT_YII2_CHANNEL = 'queue';

/**
 * Which layout a connection's keys follow, and the settings of that layout
 * that Redis does not store. StaticPHP's are the driver settings' prefix and
 * group; a yii2 connection names its channels (in the connection's
 * database).
 */
export type LayoutSettings = { layout: 'staticphp' } | { layout: 'yii2' | 'yii2-ng'; channels: string[] };

/**
 * The layout from the environment: `QUEUE_LAYOUT` (staticphp when unset or
 * empty) and, for yii2, `QUEUE_CHANNELS` (comma-separated, default `queue`).
 * Errors name the variable.
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
  return { layout: layout as 'yii2' | 'yii2-ng', channels };
}
