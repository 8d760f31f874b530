import { readFileSync } from 'node:fs';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisNode, RedisSettings } from './config';
import { QueueError } from './errors';
import { assertClusterPrefix, slotOf } from './hash-slot';

/**
 * The driver's connection: to one server (given, or the master a Sentinel set
 * names) or to a Redis Cluster. Both have the same commands, pipelines and
 * defineCommand; a cluster routes each by its keys.
 */
export type QueueClient = Redis | Cluster;

export function isCluster(client: QueueClient): client is Cluster {
  return client.isCluster;
}

function nodeNames(nodes: readonly RedisNode[]): string {
  return nodes.map(({ host, port }) => `${host}:${port}`).join(',');
}

/** How messages name the server: host:port, a cluster's seed nodes, or the master and the sentinels that name it. */
export function describeServer(settings: RedisSettings): string {
  if (settings.cluster.length > 0) return `cluster ${nodeNames(settings.cluster)}`;
  if (settings.sentinels.length > 0) return `master ${settings.sentinelName} via sentinels ${nodeNames(settings.sentinels)}`;
  return `${settings.hostname}:${settings.port}`;
}

/** Refuses settings that name no single way to connect; readSettings never throws, so this is where they are caught. */
function assertConnectable(settings: RedisSettings): void {
  if (settings.cluster.length > 0 && settings.sentinels.length > 0) {
    throw new QueueError('The settings name both cluster seed nodes and sentinels; a queue lives on one of them. Set either cluster or sentinels.');
  }
  if (settings.sentinels.length > 0 && settings.sentinelName === '') {
    throw new QueueError('Sentinels are set but sentinelName (REDIS_SENTINEL_NAME) is empty: name the master they monitor.');
  }
  if (settings.cluster.length > 0) {
    if (settings.database !== 0) throw new QueueError(`A Redis Cluster has only database 0, but the settings ask for database ${settings.database}.`);
    assertClusterPrefix(settings.prefix);
  }
  if (settings.tlsCa !== '' && !settings.tls) {
    throw new QueueError('A TLS CA file (tlsCa, REDIS_TLS_CA) is set but TLS is off: use a rediss:// URL or tls: true.');
  }
}

/**
 * Node's TLS options: the server's certificate is always verified, against
 * the CA file when one is given (it then replaces Node's default CAs) and
 * against Node's defaults otherwise.
 */
function tlsOptionsOf(settings: RedisSettings): ConnectionOptions | undefined {
  if (!settings.tls) return undefined;
  if (settings.tlsCa === '') return {};
  try {
    return { ca: readFileSync(settings.tlsCa) };
  } catch (error) {
    throw new QueueError(`Could not read the TLS CA file ${settings.tlsCa} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/**
 * A client for the settings, not yet connected (lazyConnect): a Cluster when
 * they name seed nodes, otherwise a Redis to the given server or to the
 * master the sentinels name. Throws QueueError for contradictory settings, a
 * cluster prefix without a hash tag, or an unreadable CA file.
 */
export function createClient(settings: RedisSettings, { commandTimeoutMs }: { commandTimeoutMs?: number } = {}): QueueClient {
  assertConnectable(settings);
  const tls = tlsOptionsOf(settings);
  const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);
  // Every connection the client opens gets these: the one server, the
  // master a sentinel names, each cluster node.
  const connection = {
    password: settings.password || undefined,
    username: settings.username || undefined,
    connectTimeout: settings.timeout * 1000,
    tls,
    // A command during an outage fails after one reconnect attempt instead
    // of waiting in the offline queue; the worker backs off on the throw.
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
  } satisfies RedisOptions;

  if (settings.cluster.length > 0) {
    return new Cluster(
      settings.cluster.map(({ host, port }) => ({ host, port })),
      {
        lazyConnect: true,
        redisOptions: connection,
        clusterRetryStrategy: reconnectDelay,
        clusterNodeRetryStrategy: reconnectDelay,
        // While the whole cluster is unreachable a command fails at once, as
        // maxRetriesPerRequest makes it fail on one server, instead of
        // waiting for the cluster to come back.
        enableOfflineQueue: false,
      },
    );
  }
  const server: RedisOptions =
    settings.sentinels.length > 0
      ? {
          sentinels: settings.sentinels.map(({ host, port }) => ({ host, port })),
          name: settings.sentinelName,
          // TLS for the sentinels too: a deployment that encrypts its
          // servers does not leave the ones naming them in clear text.
          enableTLSForSentinelMode: tls !== undefined,
          sentinelTLS: tls,
        }
      : { host: settings.hostname, port: settings.port };
  return new Redis({ ...connection, ...server, db: settings.database, lazyConnect: true, retryStrategy: reconnectDelay });
}

/**
 * Why a TLS handshake with `node` fails, or null when it completes (or does
 * not finish within `timeoutMs`).
 */
function tlsHandshakeError(node: RedisNode, options: ConnectionOptions, timeoutMs: number): Promise<Error | null> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ ...options, host: node.host, port: node.port });
    const settle = (outcome: Error | null) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(timeoutMs, () => settle(null));
    socket.once('secureConnect', () => settle(null));
    socket.once('error', settle);
  });
}

/**
 * The QueueError for a connect that failed: "Could not reach redis at …",
 * naming the reason, and saying what to change when the server's TLS
 * certificate was refused (that does not get better by retrying). ioredis's
 * cluster and Sentinel clients swallow the handshake errors of the
 * connections they open themselves and report only that a connection closed,
 * so over TLS the first seed node or sentinel is asked directly why.
 */
export async function connectFailure(settings: RedisSettings, reported: unknown): Promise<QueueError> {
  const firstAsked = settings.cluster[0] ?? settings.sentinels[0];
  const tls = tlsOptionsOf(settings);
  const cause = (firstAsked && tls && (await tlsHandshakeError(firstAsked, tls, settings.timeout * 1000))) || reported;
  const reason = cause instanceof Error ? ` (${cause.message})` : '';
  const code = (cause as { code?: unknown } | null)?.code;
  const certificateRefused = typeof code === 'string' && /CERT|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
  const advice = certificateRefused ? ": its TLS certificate was refused; if a private CA signs it, give that CA's file as tlsCa (REDIS_TLS_CA)" : '';
  return new QueueError(`Could not reach redis at ${describeServer(settings)}${advice}${reason}`, { cause, unreachable: true });
}

/**
 * The server holding every key under `prefix`: the client itself, or in a
 * cluster the master serving the prefix's hash slot (a prefix the cluster
 * accepts has a hash tag, so the whole layout is in that slot). Commands that
 * name no key (SCAN, DBSIZE, INFO, TIME) go here, because a cluster would
 * send them to any node.
 */
export function nodeServingPrefix(client: QueueClient, prefix: string): Redis {
  if (!isCluster(client)) return client;
  assertClusterPrefix(prefix);
  const slot = slotOf(prefix);
  const master = client.slots[slot]?.[0];
  const node = client.nodes('master').find(({ options }) => `${options.host}:${options.port}` === master);
  if (!node) {
    throw new QueueError(`No node of the cluster serves slot ${slot}, which holds the keys under ${prefix}, right now (the cluster may be failing over).`, {
      unreachable: true,
    });
  }
  return node;
}
