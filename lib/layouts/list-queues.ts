import { nodeServingPrefix, type QueueClient } from '../redis/client';
import type { RedisConnection } from '../redis/connection';
import { QueueError, refusedCommand } from '../redis/errors';
import { flatReply, luaScript, type LuaScript, type ScriptCall } from '../redis/lua-script';
import { settlePipeline } from '../redis/pipeline';
import { patternUnder, scanStep, SCAN_COUNT } from '../redis/scan-keys';
import type { QueueCounts } from './adapter';

/**
 * What marko/queue-redis and Laravel's RedisQueue share: per queue, under a
 * prefix, a ready list `queues:{name}`, sorted sets `queues:{name}:delayed`
 * and `queues:{name}:reserved` scored by unix seconds, and a notify list
 * `queues:{name}:notify` of wake-up tokens. marko's elements are job ids,
 * Laravel's the payloads themselves; finding the queues and counting them
 * is the same.
 */
export class ListQueueKeys {
  constructor(readonly prefix: string) {}

  /** what every per-queue key starts with, for the SCAN that finds the queues */
  get queuesPrefix(): string {
    return `${this.prefix}queues:`;
  }
  /** list: what is ready to run, in order; a push appends, a pop takes the head */
  ready(queue: string): string {
    return `${this.queuesPrefix}${queue}`;
  }
  /** sorted set: delayed and released jobs, scored by the unix second they may run */
  delayed(queue: string): string {
    return `${this.ready(queue)}:delayed`;
  }
  /** sorted set: reserved jobs, scored by the unix second the reservation expires */
  reserved(queue: string): string {
    return `${this.ready(queue)}:reserved`;
  }
  /** list: one token per ready job, which a blocking pop waits on */
  notify(queue: string): string {
    return `${this.ready(queue)}:notify`;
  }
}

/** The suffixes of a queue's keys besides its ready list, which SCAN finds under `queues:` as well. */
export const QUEUE_KEY_SUFFIXES = { delayed: ':delayed', reserved: ':reserved', notify: ':notify' } as const;

/**
 * SCAN commands the discovery of queue names makes at most: 400 × 250 keys
 * looks at 100,000 keys of the database. A bigger database has its queues
 * named in the connection (QUEUE_NAMES) instead.
 */
export const DISCOVERY_SCAN_LIMIT = 400;

export interface FoundQueues {
  /** sorted, each once */
  names: string[];
  /** the SCAN went through the whole database; false when it stopped at DISCOVERY_SCAN_LIMIT */
  complete: boolean;
}

/**
 * The queues whose keys exist, from a bounded SCAN of `{prefix}queues:*`.
 * A key ending in `:delayed` or `:reserved` is that queue's sorted set only
 * when it is a sorted set (a ready list is a list, whatever its name); a
 * list ending in `:notify` is taken for the notify list, so a queue whose
 * own name ends in `:notify` is not told apart. A queue with no jobs has no
 * keys (Redis drops empty lists and sets) and is not found.
 */
export async function findQueues(redis: QueueClient, keys: ListQueueKeys, scanLimit = DISCOVERY_SCAN_LIMIT): Promise<FoundQueues> {
  const node = nodeServingPrefix(redis, keys.prefix);
  const pattern = patternUnder(keys.queuesPrefix);
  const found = new Set<string>();
  let cursor = '0';
  for (let step = 0; step < scanLimit; step++) {
    const scanned = await scanStep(node, cursor, pattern, SCAN_COUNT);
    const pipeline = node.pipeline();
    for (const key of scanned.found) pipeline.type(key);
    const types = scanned.found.length > 0 ? await settlePipeline(pipeline) : [];
    scanned.found.forEach((key, i) => {
      const name = queueNameOf(key.slice(keys.queuesPrefix.length), String(types[i]));
      if (name !== null && name !== '') found.add(name);
    });
    cursor = scanned.cursor;
    if (cursor === '0') break;
  }
  return { names: [...found].sort(), complete: cursor === '0' };
}

/** The queue a key under `queues:` belongs to, given the key's type; null for a key of no queue's type. */
export function queueNameOf(rest: string, type: string): string | null {
  if (type === 'zset') {
    for (const suffix of [QUEUE_KEY_SUFFIXES.delayed, QUEUE_KEY_SUFFIXES.reserved]) {
      if (rest.endsWith(suffix)) return rest.slice(0, -suffix.length);
    }
    return null;
  }
  if (type !== 'list') return null;
  return rest.endsWith(QUEUE_KEY_SUFFIXES.notify) ? rest.slice(0, -QUEUE_KEY_SUFFIXES.notify.length) : rest;
}

export interface ListQueueCountsReply {
  ready: number;
  delayed: number;
  dueDelayed: number;
  reserved: number;
  expiredReserved: number;
  notifyTokens: number;
}

/** A list queue's figures in the shared columns, with what its next pop would move and its notify tokens. */
export interface ListQueueCounts extends QueueCounts {
  /** delayed jobs already due: the next pop of this queue moves them to the ready list */
  dueDelayed: number;
  /** reservations whose time ran out: the next pop of this queue puts them back (Laravel: when the connection has a retry_after) */
  expiredReserved: number;
  /** tokens in the notify list that a blocking pop waits on */
  notifyTokens: number;
}

/** One list queue's shared columns: pending counts the due delayed jobs its next pop moves, as the drivers' own sizes do. */
export function listQueueCounts(name: string, { ready, delayed, dueDelayed, reserved, expiredReserved, notifyTokens }: ListQueueCountsReply): ListQueueCounts {
  return {
    queue: name,
    pending: ready + dueDelayed,
    delayed: delayed - dueDelayed,
    reserved,
    total: ready + delayed + reserved,
    dueDelayed,
    expiredReserved,
    notifyTokens,
  };
}

/** A list queue whose keys could not be read: every figure 0, and why. */
export function unreadableListQueue(name: string, error: string): ListQueueCounts {
  return { queue: name, pending: 0, delayed: 0, reserved: 0, total: 0, dueDelayed: 0, expiredReserved: 0, notifyTokens: 0, error };
}

/** One queue's figures in one snapshot (lua/shared/read-list-queue-counts-4.lua), due and expired by the Redis server's clock. */
export const readListQueueCounts = luaScript({
  file: 'shared/read-list-queue-counts-4.lua',
  keys: ['ready', 'delayed', 'reserved', 'notify'],
  args: [],
  reply: (reply): ListQueueCountsReply => {
    const [ready, delayed, dueDelayed, reserved, expiredReserved, notifyTokens] = flatReply(reply).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return { ready, delayed, dueDelayed, reserved, expiredReserved, notifyTokens };
  },
});

/**
 * `script` run once for each of `names` (its keys and arguments from
 * `callOf`), all in one pipeline, each reply in its queue's place: a queue
 * whose keys cannot be read (a key of another type) gets the error a page
 * shows instead of its figures.
 */
export async function runPerQueue<const Keys extends readonly string[], const Args extends readonly string[], Reply>(
  client: QueueClient,
  names: readonly string[],
  script: LuaScript<Keys, Args, never, Reply>,
  callOf: (name: string, index: number) => ScriptCall<Keys, Args>,
): Promise<({ name: string } & ({ reply: Reply } | { error: string }))[]> {
  const pipeline = client.pipeline();
  names.forEach((name, index) => script.queue(pipeline, callOf(name, index)));
  const replies = names.length > 0 ? await settlePipeline(pipeline) : [];
  return names.map((name, i) => {
    try {
      const reply = replies[i];
      if (reply instanceof Error) throw reply;
      return { name, reply: script.reply(reply) };
    } catch (error) {
      return { name, error: error instanceof QueueError ? error.message : refusedCommand(error instanceof Error ? error.message : String(error)) };
    }
  });
}

/** Each queue's figures, one readListQueueCounts per queue in one pipeline, or the error its keys gave. */
export async function readListQueuesCounts(
  client: QueueClient,
  keys: ListQueueKeys,
  names: readonly string[],
): Promise<({ name: string } & ({ counts: ListQueueCountsReply } | { error: string }))[]> {
  const read = await runPerQueue(client, names, readListQueueCounts, (name) => ({
    ready: keys.ready(name),
    delayed: keys.delayed(name),
    reserved: keys.reserved(name),
    notify: keys.notify(name),
  }));
  return read.map((each) => ('reply' in each ? { name: each.name, counts: each.reply } : each));
}

/**
 * Throws notFound when `queue` is neither named by the connection nor has a
 * key: neither marko nor Laravel keeps a list of its queues, and Redis drops
 * a queue's keys once they are empty, so a queue with no jobs left cannot be
 * told from a made-up name, and the page says both. `driver` names the layout.
 */
export async function assertListQueueKnown(
  connection: RedisConnection,
  keys: ListQueueKeys,
  named: readonly string[] | null,
  queue: string,
  driver: string,
): Promise<void> {
  if (named?.includes(queue)) return;
  const held = await connection.attempt(() => connection.redis.exists(keys.ready(queue), keys.delayed(queue), keys.reserved(queue), keys.notify(queue)));
  if (held > 0) return;
  throw new QueueError(
    `No queue "${queue.slice(0, 200)}" on this connection: no key of it is in Redis. ${driver} keeps no list of its queues, so a queue whose jobs have all run leaves no trace either.`,
    { notFound: true },
  );
}
