import type { Redis } from 'ioredis';
import { connectFailure, createClient, describeServer, nodeServingPrefix, type QueueClient } from './client';
import type { RedisSettings } from './config';
import { asQueueError } from './errors';

export interface ConnectOptions {
  /** bounds every command, for callers that must answer even when a server stops responding without closing the connection (the dashboard) */
  commandTimeoutMs?: number;
}

/**
 * One Redis connection, whatever layout its keys follow: connecting (a single
 * server, a cluster or a Sentinel set), where the prefix's keys live, and
 * every failure turned into a QueueError an operator can read. A layout's
 * readers and repairs are given one of these; only StaticPHP's driver
 * (lib/layouts/staticphp/redis-queue.ts) is one of these with a queue on top.
 */
export class RedisConnection {
  protected constructor(
    readonly redis: QueueClient,
    readonly settings: RedisSettings,
  ) {}

  /**
   * Connects, or throws QueueError "Could not reach redis at host:port" (for
   * a cluster or a Sentinel set, `server` names its nodes). Settings that
   * cannot work (a cluster prefix without a hash tag, a cluster and sentinels
   * at once, an unreadable CA file) are refused before any connection.
   * Workers and bulk seeding leave `commandTimeoutMs` unset.
   */
  static async connect(settings: RedisSettings, options: ConnectOptions = {}): Promise<RedisConnection> {
    return new RedisConnection(await openClient(settings, options), settings);
  }

  /** How error messages name the server: host:port, or a cluster's seed nodes, or the sentinels and the master they name. */
  get server(): string {
    return describeServer(this.settings);
  }

  /**
   * The server holding every key under the connection's prefix: the
   * connection itself, or in a cluster the master serving the prefix's hash
   * slot. SCAN, DBSIZE, INFO and TIME name no key, so a cluster would send
   * them to any node; they go here instead.
   */
  nodeHoldingKeys(): Redis {
    return nodeServingPrefix(this.redis, this.settings.prefix);
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Runs `operation` against this connection; whatever fails comes out as a QueueError. */
  async attempt<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw asQueueError(error, this.server);
    }
  }
}

/** A connected client for `settings`, or the QueueError that says why there is none. */
export async function openClient(settings: RedisSettings, { commandTimeoutMs }: ConnectOptions): Promise<QueueClient> {
  const redis = createClient(settings, { commandTimeoutMs });
  // Failures reach callers through the commands; without a listener
  // ioredis would also print every reconnect error. The first one is kept
  // because connect() itself only says the connection closed. A cluster
  // reports its nodes' failures as 'node error'.
  let connectError: unknown;
  const keepFirst = (error: unknown) => {
    connectError ??= error;
  };
  redis.on('error', keepFirst);
  redis.on('node error', keepFirst);
  // connectTimeout covers only the TCP handshake: a peer that accepts and
  // never answers the ready check (a stalled server, a proxy, another
  // service on the port) would otherwise hold connect() for ever.
  let timer: NodeJS.Timeout | undefined;
  const noAnswer = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${settings.timeout}s`)), settings.timeout * 1000);
  });
  try {
    await Promise.race([redis.connect(), noAnswer]);
    return redis;
  } catch (error) {
    redis.disconnect();
    throw await connectFailure(settings, connectError ?? error);
  } finally {
    clearTimeout(timer);
  }
}
