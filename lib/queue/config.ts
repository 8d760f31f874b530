import { QueueError } from './errors';

/** The spec's `$config['queue']['redis']` block, after defaults. */
export interface RedisSettings {
  hostname: string;
  port: number;
  database: number;
  password: string;
  username: string;
  /** connect timeout, seconds */
  timeout: number;
  prefix: string;
  group: string;
  /** only from a rediss:// URL; the PHP block has no such key */
  tls: boolean;
}

export const DEFAULT_SETTINGS: Readonly<RedisSettings> = Object.freeze({
  hostname: '127.0.0.1',
  port: 6379,
  database: 0,
  password: '',
  username: '',
  timeout: 2,
  prefix: 'queue:',
  group: 'workers',
  tls: false,
});

function isBlock(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** PHP's is_numeric, near enough: a finite number or a string that is one. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

function wholeNumberIn(value: unknown, min: number, max: number): number | undefined {
  const parsed = numeric(value);
  return parsed !== undefined && Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/**
 * Reads a settings block the way the PHP driver's connect() does: every key
 * has a default, and a value of the wrong type falls back to it instead of
 * throwing. Anything that is not a block of settings at all (a string such as
 * 'localhost:6379', a list, null) counts as an empty block.
 */
export function readSettings(block: unknown): RedisSettings {
  const given = isBlock(block) ? block : {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const timeout = numeric(given.timeout);
  return {
    hostname: text(given.hostname) || DEFAULT_SETTINGS.hostname,
    port: wholeNumberIn(given.port, 1, 65535) ?? DEFAULT_SETTINGS.port,
    database: wholeNumberIn(given.database, 0, Number.MAX_SAFE_INTEGER) ?? DEFAULT_SETTINGS.database,
    password: text(given.password) ?? DEFAULT_SETTINGS.password,
    username: text(given.username) ?? DEFAULT_SETTINGS.username,
    timeout: timeout !== undefined && timeout > 0 ? timeout : DEFAULT_SETTINGS.timeout,
    prefix: text(given.prefix) ?? DEFAULT_SETTINGS.prefix,
    group: text(given.group) || DEFAULT_SETTINGS.group,
    tls: given.tls === true,
  };
}

/** Settings from a `redis://[user:password@]host[:port][/database]` or `rediss://` URL. */
export function settingsFromUrl(url: string, overrides: Record<string, unknown> = {}): RedisSettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueError(`The Redis URL is not a URL: expected redis://host:port/database`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new QueueError(`The Redis URL must start with redis:// or rediss://, not ${parsed.protocol}//`);
  }
  const database = parsed.pathname.replace(/^\//, '');
  return readSettings({
    hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || undefined,
    port: parsed.port || undefined,
    database: database || undefined,
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    tls: parsed.protocol === 'rediss:',
    ...overrides,
  });
}

/**
 * Settings from the environment: `REDIS_URL` for the connection,
 * `QUEUE_PREFIX` and `QUEUE_GROUP` for the layout; the spec's defaults for
 * whatever is unset.
 */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RedisSettings {
  const layout = {
    ...(env.QUEUE_PREFIX !== undefined ? { prefix: env.QUEUE_PREFIX } : {}),
    ...(env.QUEUE_GROUP ? { group: env.QUEUE_GROUP } : {}),
  };
  return env.REDIS_URL ? settingsFromUrl(env.REDIS_URL, layout) : readSettings(layout);
}

/** Loopback names: the test suites write to Redis and refuse any other host. */
export function isLocalHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '::1';
}
