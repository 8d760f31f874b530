import { QueueError } from './errors';

/** One server of a Sentinel set or a cluster's seed list. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * The spec's `$config['queue']['redis']` block, after defaults, and the keys
 * QueueLens adds to it for Sentinel, Redis Cluster and TLS (the PHP driver
 * knows none of them and talks to one server).
 */
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
  /** from a rediss:// URL or `tls: true`; applies to every connection, sentinels and cluster nodes included */
  tls: boolean;
  /** a PEM file with the CA(s) that sign the servers' certificates; '' trusts Node's default CAs */
  tlsCa: string;
  /** when not empty, the master named `sentinelName` is asked of these sentinels; hostname and port are then unused */
  sentinels: readonly RedisNode[];
  sentinelName: string;
  /** when not empty, seed nodes of a Redis Cluster; hostname and port are then unused, and the prefix needs a hash tag */
  cluster: readonly RedisNode[];
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
  tlsCa: '',
  sentinels: Object.freeze([]),
  sentinelName: '',
  cluster: Object.freeze([]),
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
 * A list of `{host, port}`, or undefined when `value` is anything else: a
 * list with one malformed server falls back whole, as any wrong-typed value
 * does, rather than connecting to the servers that happened to parse.
 */
function nodeList(value: unknown): RedisNode[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const nodes: RedisNode[] = [];
  for (const item of value) {
    const port = isBlock(item) ? wholeNumberIn(item.port, 1, 65535) : undefined;
    if (!isBlock(item) || typeof item.host !== 'string' || item.host === '' || port === undefined) return undefined;
    nodes.push({ host: item.host, port });
  }
  return nodes;
}

/**
 * Reads a settings block the way the PHP driver's connect() does: every key
 * has a default, and a value of the wrong type falls back to it instead of
 * throwing. Anything that is not a block of settings at all (a string such as
 * 'localhost:6379', a list, null) counts as an empty block. The keys
 * QueueLens adds (`tls`, `tlsCa`, `sentinels`, `sentinelName`, `cluster`)
 * follow the same rule; contradictions between them (a cluster and
 * sentinels, a CA without TLS) are refused by RedisQueue.connect().
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
    tlsCa: text(given.tlsCa) ?? DEFAULT_SETTINGS.tlsCa,
    sentinels: nodeList(given.sentinels) ?? DEFAULT_SETTINGS.sentinels,
    sentinelName: text(given.sentinelName) ?? DEFAULT_SETTINGS.sentinelName,
    cluster: nodeList(given.cluster) ?? DEFAULT_SETTINGS.cluster,
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

/** `host:port,host:port` (an IPv6 host in brackets) from the environment variable `name`. */
function nodesFromEnv(name: string, value: string): RedisNode[] {
  return value.split(',').map((item) => {
    const match = /^\s*(\[[^\]]+\]|[^\s:[\]]+):(\d{1,5})\s*$/.exec(item);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new QueueError(`${name} must list host:port pairs separated by commas, not "${item.trim()}"`);
    }
    return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/**
 * Settings from the environment: `REDIS_URL` for the connection,
 * `QUEUE_PREFIX` and `QUEUE_GROUP` for the layout; the spec's defaults for
 * whatever is unset. `REDIS_CLUSTER_NODES` (seed nodes) or `REDIS_SENTINELS`
 * with `REDIS_SENTINEL_NAME` replace REDIS_URL's host and port, which then
 * still gives the scheme (rediss:// for TLS), user, password and database;
 * `REDIS_TLS_CA` names the CA file for TLS.
 */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RedisSettings {
  const overrides = {
    ...(env.QUEUE_PREFIX !== undefined ? { prefix: env.QUEUE_PREFIX } : {}),
    ...(env.QUEUE_GROUP ? { group: env.QUEUE_GROUP } : {}),
    ...(env.REDIS_TLS_CA ? { tlsCa: env.REDIS_TLS_CA } : {}),
    ...(env.REDIS_CLUSTER_NODES ? { cluster: nodesFromEnv('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES) } : {}),
    ...(env.REDIS_SENTINELS ? { sentinels: nodesFromEnv('REDIS_SENTINELS', env.REDIS_SENTINELS) } : {}),
    ...(env.REDIS_SENTINEL_NAME ? { sentinelName: env.REDIS_SENTINEL_NAME } : {}),
  };
  return env.REDIS_URL ? settingsFromUrl(env.REDIS_URL, overrides) : readSettings(overrides);
}

/** Loopback names: the test suites write to Redis and refuse any other host. */
export function isLocalHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '::1';
}
