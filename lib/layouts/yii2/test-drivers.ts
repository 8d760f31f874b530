import { randomUUID } from 'node:crypto';
import type { QueueClient } from '../../redis/client';
import type { RedisConnection } from '../../redis/connection';
import { deleteKeysUnder } from '../../redis/scan-keys';
import type { Yii2NgSettings } from '../settings';
import { Yii2Keys } from './keys';
import type { Yii2Channel } from './repairs';
import { driverOf, loadYii2Fixture, type Yii2Expected, type Yii2FixtureName } from './test-fixtures';

// What the real drivers would do next, written from the spec (§1.2, §2.2)
// in separate commands for the tests to check repairs against: a repair is
// right when the driver, reserving after it, takes the right job. Not
// QueueLens code, and not shared with it, so it can disagree with it.

/** ng's settings as the fixture's queue component had them. */
export function ngSettingsOf(expected: Yii2Expected): Yii2NgSettings {
  const config = expected.config as unknown as Partial<Yii2NgSettings>;
  return {
    defaultPriority: config.defaultPriority ?? 1024,
    aging: config.aging ?? 0,
    retryPosition: config.retryPosition ?? 'back',
    delayPosition: config.delayPosition ?? 'back',
    batchSize: config.batchSize ?? 100,
  };
}

/** A fixture loaded under a random channel of its own, and a way to delete exactly its keys. */
export async function openFixtureChannel(
  queue: RedisConnection,
  name: Yii2FixtureName,
): Promise<{ channel: Yii2Channel; expected: Yii2Expected; cleanup: () => Promise<void> }> {
  const name_ = `test-${randomUUID()}`;
  const expected = await loadYii2Fixture(queue.redis, name, name_);
  return {
    channel: { connection: queue, driver: driverOf(expected), keys: new Yii2Keys(name_), ng: ngSettingsOf(expected) },
    expected,
    cleanup: () => deleteKeysUnder(queue.redis, `${name_}.`),
  };
}

/** Runs `test` on fixture channels of its own (as many as `names`) over a connection `openQueue` opens, deleted afterwards. */
export async function withFixtureChannels(
  openQueue: () => Promise<RedisConnection>,
  names: readonly Yii2FixtureName[],
  test: (...channels: Yii2Channel[]) => Promise<void>,
): Promise<void> {
  const queue = await openQueue();
  const opened = await Promise.all(names.map((name) => openFixtureChannel(queue, name)));
  try {
    await test(...opened.map(({ channel }) => channel));
  } finally {
    for (const { cleanup } of opened) await cleanup();
  }
}

async function serverClock(redis: QueueClient): Promise<{ nowS: number; nowMs: number }> {
  const [seconds, micros] = await redis.time();
  const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  return { nowS: Math.floor(nowMs / 1000), nowMs };
}

async function markReserved(redis: QueueClient, keys: Yii2Keys, id: string, message: string, nowS: number): Promise<string> {
  const ttr = Number(/^(\d+);/.exec(message)?.[1]);
  await redis.zadd(keys.reserved, nowS + ttr, id);
  await redis.hincrby(keys.attempts, id, 1);
  return id;
}

/**
 * The stock mover (S-Q 138, 169-178) one command at a time, yielding after
 * each what it just sent: SET moving_lock NX EX 1 and, when that won, for the
 * delayed and then the reserved set a ZREVRANGEBYSCORE up to now, an RPUSH of
 * each id read onto the tail, and a ZREMRANGEBYSCORE up to now. Not atomic,
 * as the driver's: a test can run anything between two commands.
 */
export async function* stockMoverSteps({ connection: { redis }, keys }: Yii2Channel): AsyncGenerator<string> {
  const won = await redis.set(keys.movingLock, '1', 'EX', 1, 'NX');
  yield 'SET moving_lock NX EX 1';
  if (won !== 'OK') return;
  for (const from of [keys.delayed, keys.reserved]) {
    const { nowS } = await serverClock(redis);
    const ids = await redis.zrevrangebyscore(from, nowS, '-inf');
    yield `ZREVRANGEBYSCORE ${from} ${nowS} -inf`;
    for (const id of ids) {
      await redis.rpush(keys.waiting, id);
      yield `RPUSH ${keys.waiting} ${id}`;
    }
    await redis.zremrangebyscore(from, '-inf', nowS);
    yield `ZREMRANGEBYSCORE ${from} -inf ${nowS}`;
  }
}

/**
 * The stock reserve (S-Q 135-164): when it wins moving_lock, due delayed and
 * then expired reserved ids are RPUSHed onto the tail latest first; then
 * RPOP, and a missing message makes the poll come back empty (null).
 */
export async function stockReserve(channel: Yii2Channel): Promise<string | null> {
  const {
    connection: { redis },
    keys,
  } = channel;
  const { nowS } = await serverClock(redis);
  for await (const step of stockMoverSteps(channel)) void step;
  const id = await redis.rpop(keys.waiting);
  if (id === null) return null;
  const message = await redis.hget(keys.messages, id);
  return message === null ? null : markReserved(redis, keys, id, message, nowS);
}

const NG_BAND = 1e12;
const NG_EPOCH = 1735689600000;
const NG_TIES = 1024;

/** ng's place in line for a job joining at `atMs` (spec §1.2). */
async function ngJoin({ connection: { redis }, keys, ng }: Yii2Channel, id: string, atMs: number, keep: boolean): Promise<void> {
  const priority = Number((await redis.hget(keys.priorities, id)) ?? ng.defaultPriority);
  let rank = keep ? await redis.hget(keys.ranks, id) : null;
  if (rank === null) {
    rank = `${atMs}:${await redis.incr(keys.seq)}`;
    if (ng.retryPosition === 'original') await redis.hset(keys.ranks, id, rank);
  }
  const [joined, seq] = rank.split(':').map(Number) as [number, number];
  const agingMs = Math.round(ng.aging * 1000);
  const score = agingMs > 0 ? (joined - NG_EPOCH + priority * agingMs) * NG_TIES + (seq % NG_TIES) : priority * NG_BAND + (seq % NG_BAND);
  await redis.zadd(keys.prioritized, score, id);
}

/** ng's settle (NG-C 57-85): due delayed jobs at their due second, then expired reservations at now, earliest first, ties by numeric id. */
export async function ngSettle(channel: Yii2Channel): Promise<void> {
  const {
    connection: { redis },
    keys,
    ng,
  } = channel;
  const { nowS, nowMs } = await serverClock(redis);
  for (const delayed of [true, false]) {
    const from = delayed ? keys.delayed : keys.reserved;
    const flat = await redis.zrangebyscore(from, '-inf', nowS, 'WITHSCORES', 'LIMIT', 0, ng.batchSize);
    const rows = Array.from({ length: flat.length / 2 }, (_, i) => ({ id: flat[2 * i]!, at: Number(flat[2 * i + 1]) }));
    rows.sort((a, b) => a.at - b.at || Number(a.id) - Number(b.id));
    for (const { id, at } of rows) {
      if (delayed) await ngJoin(channel, id, at * 1000, ng.delayPosition === 'original');
      else await ngJoin(channel, id, nowMs, ng.retryPosition === 'original');
      await redis.zrem(from, id);
    }
  }
}

/** ng's reserve (NG-RES): settle, take over the stock list, then ZPOPMIN past ids without a message. */
export async function ngReserve(channel: Yii2Channel): Promise<string | null> {
  const {
    connection: { redis },
    keys,
    ng,
  } = channel;
  await ngSettle(channel);
  const { nowS, nowMs } = await serverClock(redis);
  for (let i = 0; i < ng.batchSize; i++) {
    const id = await redis.rpop(keys.waiting);
    if (id === null) break;
    await ngJoin(channel, id, nowMs, false);
  }
  for (;;) {
    const [id] = await redis.zpopmin(keys.prioritized);
    if (id === undefined) return null;
    const message = await redis.hget(keys.messages, id);
    if (message !== null) {
      await markReserved(redis, keys, id, message, nowS);
      await redis.zadd(keys.marker, 0, '0');
      return id;
    }
  }
}

/** The reserve of the channel's own driver. */
export function driverReserve(channel: Yii2Channel): Promise<string | null> {
  return channel.driver === 'yii2-ng' ? ngReserve(channel) : stockReserve(channel);
}

/**
 * The push of the channel's own driver, delay 0: stock INCRs the id, HSETs
 * the message and LPUSHes the id (S-Q 195-210); ng settles, then does the
 * same but joins its line and arms the marker (NG-PUSH). Returns the id.
 */
export async function driverPush(channel: Yii2Channel, message: string | Buffer): Promise<string> {
  const {
    connection: { redis },
    keys,
  } = channel;
  if (channel.driver === 'yii2-ng') await ngSettle(channel);
  const id = String(await redis.incr(keys.messageId));
  await redis.hset(keys.messages, id, message);
  if (channel.driver === 'yii2-ng') {
    await ngJoin(channel, id, (await serverClock(redis)).nowMs, false);
    await redis.zadd(keys.marker, 0, '0');
  } else {
    await redis.lpush(keys.waiting, id);
  }
  return id;
}

/** The acknowledge of the channel's own driver after a job ran (or used its last attempt): stock S-Q 185-190, ng NG-DEL. */
export async function driverAcknowledge(channel: Yii2Channel, id: string): Promise<void> {
  const {
    connection: { redis },
    keys,
  } = channel;
  await redis.zrem(keys.reserved, id);
  await redis.hdel(keys.attempts, id);
  await redis.hdel(keys.messages, id);
  if (channel.driver === 'yii2-ng') {
    await redis.hdel(keys.priorities, id);
    await redis.hdel(keys.ranks, id);
  }
}
