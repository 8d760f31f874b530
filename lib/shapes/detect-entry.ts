/**
 * The connections-file entry for each find of a detection, as
 * lib/dashboard/connections.ts parses it, with the settings Redis cannot
 * reveal set apart as notes (JSON has no comments). Plain data: the CLI
 * prints it and the Connect page shows it to copy.
 */
import type { RedisSettings } from '../redis/config';
import type { LayoutFind } from './detect-tally';

/** Where the Redis is, as an entry names it; the password is never written out. */
export interface RedisLocation {
  fields: { url: string } | { redis: Record<string, unknown> };
  /** what the operator must add by hand (a password) */
  notes: string[];
}

/** A find's entry and what the operator must still check or add to it. */
export interface SuggestedEntry {
  entry: Record<string, unknown>;
  notes: string[];
}

function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * How `settings` reach their Redis, for an entry: a URL for one server, a
 * redis block for sentinels. The password is left out, because the entry is
 * printed and shown on a page; a note says where it goes.
 */
export function redisLocationOf(settings: RedisSettings): RedisLocation {
  const notes =
    settings.password !== ''
      ? ['The Redis needs a password, which is left out here: add it to the url (redis://:PASSWORD@…) or as "password" in a redis block.']
      : [];
  if (settings.sentinels.length > 0) {
    const redis = {
      sentinels: settings.sentinels,
      sentinelName: settings.sentinelName,
      database: settings.database,
      ...(settings.tls ? { tls: true } : {}),
      ...(settings.username ? { username: settings.username } : {}),
    };
    return { fields: { redis }, notes };
  }
  const user = settings.username ? `${encodeURIComponent(settings.username)}@` : '';
  return { fields: { url: `${settings.tls ? 'rediss' : 'redis'}://${user}${hostPart(settings.hostname)}:${settings.port}/${settings.database}` }, notes };
}

/** A connection name (1–40 of a-z, 0-9, _ and -) made from a prefix or channel, unique among `taken`. */
function nameFor(base: string, taken: Set<string>): string {
  const stem =
    base
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 36) || 'queues';
  let name = stem;
  for (let n = 2; taken.has(name); n++) name = `${stem}-${n}`;
  taken.add(name);
  return name;
}

const NG_NOTE =
  'redis-ng keeps its queue component’s defaultPriority (default 1024), aging (seconds per priority point, default 0: strict), retryPosition and delayPosition ("back") and batchSize (100) in PHP, not in Redis: add them to the entry as the PHP side has them, or the line order and repairs will be wrong.';
const YII2_NOTE = 'Only keys both yii2 drivers write were seen; if the PHP side runs yii2-queue-redis-ng, make the layout "yii2-ng" and add its settings.';
const MARKO_NOTE = 'marko’s queue.retry_after (seconds a reservation lasts, default 90) is not in Redis: add "retryAfter" to show when each reservation began.';
const LARAVEL_NOTE =
  'A Laravel prefix is told from marko’s by what it lacks (job hashes, a failed store): check it is the application’s database.redis.options.prefix; add "queues" to name its queues instead of finding them by SCAN; where Horizon runs, "horizonPrefix" is its config/horizon.php prefix, whose failed jobs are then read.';
const STATICPHP_NOTE =
  'The consumer group is the PHP driver’s group setting (default "workers"), which a key name does not show: add "group" if yours differs.';

/** The entry for each find, named after its prefix or channel. */
export function suggestedEntries(found: readonly LayoutFind[], location: RedisLocation): SuggestedEntry[] {
  const taken = new Set<string>();
  return found.map((find) => {
    const base = find.prefix ?? find.channel ?? '';
    const where =
      find.channel !== undefined
        ? { channel: find.channel }
        : { prefix: find.prefix, ...(find.horizonPrefix === undefined ? {} : { horizonPrefix: find.horizonPrefix }) };
    const entry = { name: nameFor(base, taken), ...location.fields, layout: find.layout, ...where };
    const layoutNotes = { staticphp: [STATICPHP_NOTE], yii2: [YII2_NOTE], 'yii2-ng': [NG_NOTE], marko: [MARKO_NOTE], laravel: [LARAVEL_NOTE] }[find.layout];
    return { entry, notes: [...layoutNotes, ...location.notes] };
  });
}
