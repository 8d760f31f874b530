import { afterEach, describe, expect, it } from 'vitest';
import { FIND_CHUNK } from '../find-steps';
import { isAbsent } from '../adapter';
import { expectIgnoreCaseRules, expectRangeRules, findAll, HOUR, NOON, payloadQuery, statesById, type PlacedJob } from '../test-find';
import { yii2Layout } from './layout';
import { testChannelFactory } from './test-channel';
import { driverPush, driverReserve } from './test-drivers';
import { DEFAULT_YII2_NG_SETTINGS } from '../settings';

const openChannel = testChannelFactory();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const phpMessage = (order: string) => `300;O:13:"App\\Jobs\\Ship":1:{s:5:"order";s:${Buffer.byteLength(order)}:"${order}";}`;

async function openFinder(driver: 'yii2' | 'yii2-ng') {
  const opened = await openChannel();
  cleanups.push(opened.cleanup);
  const channel = { connection: opened.queue, driver, keys: opened.keys, ng: DEFAULT_YII2_NG_SETTINGS };
  const layout = yii2Layout(
    opened.queue,
    driver === 'yii2' ? { layout: 'yii2', channels: [opened.channel] } : { layout: 'yii2-ng', channels: [opened.channel], ng: DEFAULT_YII2_NG_SETTINGS },
  );
  if (isAbsent(layout.finder)) throw new Error(layout.finder.absent);
  return { ...opened, channel, finder: layout.finder };
}

describe.each(['yii2', 'yii2-ng'] as const)('Find on %s', (driver) => {
  it('finds a job by a piece of its message, decoded, in each state: ready, reserved and delayed', async () => {
    const { queue, keys, channel, finder } = await openFinder(driver);
    const reserved = await driverPush(channel, phpMessage('order-12345'));
    const ready = await driverPush(channel, phpMessage('order-12345'));
    await driverPush(channel, phpMessage('order-99'));
    expect(await driverReserve(channel)).toBe(reserved);
    const delayed = String(await queue.redis.incr(keys.messageId));
    await queue.redis.hset(keys.messages, delayed, '300;{"class":"App\\\\Jobs\\\\Ship","order":"order-12345","url":"https:\\/\\/shop.example"}');
    await queue.redis.zadd(keys.delayed, Math.floor(Date.now() / 1000) + 3600, delayed);

    const { matches } = await findAll(finder, payloadQuery('order-12345'));
    expect(statesById(matches)).toEqual({ [ready]: 'ready', [reserved]: 'reserved', [delayed]: 'delayed' });
    expect(matches.every((match) => match.name === 'App\\Jobs\\Ship')).toBe(true);
    // JSON is matched as it reads: `\/` is a slash.
    const url = await findAll(finder, payloadQuery('https://shop.example'));
    expect(statesById(url.matches)).toEqual({ [delayed]: 'delayed' });
    const byName = await findAll(finder, { ...payloadQuery('Jobs\\Ship'), field: 'name', states: ['reserved'] });
    expect(statesById(byName.matches)).toEqual({ [reserved]: 'reserved' });
  });

  it('takes a time range where yii2 records a time: when due, when a reservation expires; a waiting message has none', async () => {
    const { queue, keys, channel, finder } = await openFinder(driver);
    const placed: PlacedJob[] = [{ id: await driverPush(channel, phpMessage('ranged-7')), state: 'ready', ms: null }];
    for (const ms of [NOON - HOUR, NOON + HOUR])
      for (const state of ['delayed', 'reserved'] as const) {
        const id = String(await queue.redis.incr(keys.messageId));
        await queue.redis.hset(keys.messages, id, phpMessage('ranged-7'));
        await queue.redis.zadd(state === 'delayed' ? keys.delayed : keys.reserved, ms / 1000, id);
        placed.push({ id, state, ms });
      }
    await expectRangeRules(finder, 'ranged-7', placed);
  });

  it('ignores the case of ASCII letters in a decoded message only when asked', async () => {
    const { channel, finder } = await openFinder(driver);
    await expectIgnoreCaseRules(finder, (text) => driverPush(channel, phpMessage(text)));
  });

  it('reads a bounded chunk of the messages per step and resumes from the cursor', async () => {
    const { channel, finder } = await openFinder(driver);
    const count = FIND_CHUNK * 3;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await driverPush(channel, phpMessage(i % 100 === 0 ? 'needle' : 'hay')));
    const first = await finder.step(payloadQuery('needle'), null);
    expect(first.cursor).not.toBeNull();
    expect(first.looked).toBeLessThan(count);
    const { matches, looked } = await findAll(finder, payloadQuery('needle'));
    expect(looked).toBe(count);
    expect(matches.map((match) => match.id).sort()).toEqual(ids.filter((_, i) => i % 100 === 0).sort());
  });
});
