import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNKS_PER_STEP, FIND_CHUNK, PARTS_READ_AT_ONCE } from '../find-steps';
import { watchCommands } from '../../redis/test-commands';
import { deleteKeysUnder } from '../../redis/scan-keys';
import { Yii2Keys } from './keys';
import { isAbsent } from '../adapter';
import {
  actOnEveryMatch,
  expectIgnoreCaseRules,
  expectRangeRules,
  findAll,
  HOUR,
  NO_COUNTS,
  NOON,
  payloadQuery,
  statesById,
  type PlacedJob,
} from '../test-find';
import { yii2Layout } from './layout';
import { testChannelFactory } from './test-channel';
import { driverPush, driverReserve } from './test-drivers';
import { DEFAULT_YII2_NG_SETTINGS } from '../settings';
import { findMessages, jsonAnchor, messageFilter } from './finder';
import { privateServers } from '../../redis/test-servers';

const openChannel = testChannelFactory();
const servers = privateServers();
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
  return { ...opened, channel, layout, finder: layout.finder };
}

describe.each(['yii2', 'yii2-ng'] as const)('Find on %s', (driver) => {
  it('removes every live match through the channel’s remove, each once, and nothing else', async () => {
    const { queue, keys, channel, layout } = await openFinder(driver);
    const matching: string[] = [];
    for (let i = 0; i < 30; i++) matching.push(await driverPush(channel, phpMessage(`bulk-order-${i}`)));
    const other = await driverPush(channel, phpMessage('order-99'));
    expect(await driverReserve(channel)).toBe(matching[0]);

    expect(await actOnEveryMatch(layout, 'remove', payloadQuery('bulk-order-'))).toMatchObject({ matched: 30, acted: 30, movedOn: 0 });
    expect(await queue.redis.hkeys(keys.messages)).toEqual([other]);
  });

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

  it('reads many small channels several a round trip, each message once and in order', async () => {
    const { queue, channel: first } = await openFinder(driver);
    const names = Array.from({ length: 40 }, (_, n) => `${first}-q${String(n).padStart(2, '0')}`);
    for (const name of names) cleanups.push(() => deleteKeysUnder(queue.redis, `${name}.`));
    const ng = DEFAULT_YII2_NG_SETTINGS;
    const layout = yii2Layout(queue, driver === 'yii2' ? { layout: 'yii2', channels: names } : { layout: 'yii2-ng', channels: names, ng });
    for (const [n, name] of names.entries()) {
      await driverPush({ connection: queue, driver, keys: new Yii2Keys(name), ng }, phpMessage(n % 20 === 7 ? `needle-${n}` : `hay-${n}`));
    }
    if (isAbsent(layout.finder)) throw new Error(layout.finder.absent);
    const finder = layout.finder;
    const scripts = watchCommands(queue.redis, ['evalsha', 'eval']);

    // The counts a served app's sampler holds, so that the first step reads none.
    const { matches, steps, looked } = await findAll(finder, payloadQuery('needle'), { counts: NO_COUNTS });
    expect(matches.map((match) => match.queue)).toEqual([names[7], names[27]]);
    expect(looked).toBe(40);
    // A step goes on past each channel that ends with no match, several channels a round trip.
    expect(steps).toBeLessThanOrEqual(2 + Math.ceil(40 / CHUNKS_PER_STEP));
    expect(scripts.mostPending()).toBe(PARTS_READ_AT_ONCE);
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

describe('the messages find-messages-3.lua sends to be decoded', () => {
  // The messages as encoders write them: JSON with escapes (`\/`, `\u00e9`, `\"`, `\\`), spaces between tokens and a number in exponent form; PHP with UTF-8 as it is.
  const JSON_MESSAGE =
    '300;{"class":"App\\\\Jobs\\\\Pack", "url" : "https:\\/\\/shop.example\\/a?x=1&y=<2>", "note":"caf\\u00e9 \\"quoted\\" back\\\\slash", "count": 1e2}';
  const PHP_MESSAGE = `300;O:13:"App\\Jobs\\Mail":1:{s:4:"note";s:${Buffer.byteLength('déjà vu')}:"déjà vu";}`;
  const NOT_UTF8_CLASS = Buffer.concat([Buffer.from('300;O:6:"App\\'), Buffer.of(0xff), Buffer.from('X":0:{}')]);

  async function seeded() {
    const opened = await openFinder('yii2');
    const { queue, keys } = opened;
    const json = String(await queue.redis.incr(keys.messageId));
    const php = String(await queue.redis.incr(keys.messageId));
    const odd = String(await queue.redis.incr(keys.messageId));
    await queue.redis.hset(keys.messages, json, JSON_MESSAGE, php, PHP_MESSAGE, odd, NOT_UTF8_CLASS);
    for (let i = 0; i < 20; i++) await queue.redis.hset(keys.messages, String(await queue.redis.incr(keys.messageId)), phpMessage(`hay-${i}`));
    return { ...opened, json, php, odd };
  }

  const idsOf = async (finder: Awaited<ReturnType<typeof seeded>>['finder'], text: string, scope: Parameters<typeof payloadQuery>[1] = {}) =>
    (await findAll(finder, payloadQuery(text, { field: 'any', ...scope }))).matches.map((match) => match.id).sort();

  it('finds in JSON what reads otherwise than its bytes: escapes undone, spaces and number forms rewritten', async () => {
    const { finder, json } = await seeded();
    for (const text of ['https://shop.example/a', 'x=1&y=<2>', 'café', '"quoted\\"', 'back\\\\slash', '"url":"https:', '"count":100', '100', 'Jobs\\Pack']) {
      expect(await idsOf(finder, text), text).toEqual([json]);
    }
    expect(await idsOf(finder, 'SHOP.EXAMPLE/A', { ignoreCase: true })).toEqual([json]);
    expect(await idsOf(finder, 'Jobs\\Pack', { field: 'name' })).toEqual([json]);
  });

  it('finds in PHP serializations their UTF-8, their class, a class that is no UTF-8 as it reads, and any message by its id', async () => {
    const { finder, json, php, odd } = await seeded();
    expect(await idsOf(finder, 'déjà')).toEqual([php]);
    expect(await idsOf(finder, 'é')).toEqual([json, php].sort());
    expect(await idsOf(finder, 'DÉJÀ', { ignoreCase: true })).toEqual([]);
    expect(await idsOf(finder, 'DéJà', { ignoreCase: true })).toEqual([php]);
    expect(await idsOf(finder, 'jobs\\mail', { field: 'name', ignoreCase: true })).toEqual([php]);
    expect(await idsOf(finder, 'App\\\\xFFX', { field: 'name' })).toEqual([odd]);
    expect(await idsOf(finder, json, { field: 'id' })).toEqual([json]);
    expect(await idsOf(finder, php)).toContain(php);
  });

  it('sends back only the messages that could match', async () => {
    const { queue, keys, php } = await seeded();
    const run = (filter: { id: string; every: '0' | '1'; text: string; anchor: string }) =>
      findMessages.run(queue.redis, {
        ...keys.byName,
        cursor: '0',
        count: 1000,
        limit: 65536,
        states: ',ready,delayed,reserved,',
        timeFrom: '',
        timeUntil: '',
        ignoreCase: '0',
        ...filter,
      });
    const sent = async (filter: Parameters<typeof run>[0]) => (await run(filter)).rows.map((row) => row.id).sort();
    expect((await run({ id: '', every: '1', text: '', anchor: '' })).rows).toHaveLength(23);
    expect(await sent({ id: '', every: '0', text: 'déjà', anchor: jsonAnchor('déjà') })).toHaveLength(2); // the PHP one, and the JSON one (no anchor: é may be \u00e9)
    expect(await sent({ id: '', every: '0', text: 'hay-7', anchor: jsonAnchor('hay-7') })).toHaveLength(1);
    expect(await sent({ id: php, every: '0', text: '', anchor: '' })).toEqual([php]);
  });

  it('tells the state of more candidates than one ZMSCORE takes, where HSCAN answers a small hash whole', async () => {
    // A hash under hash-max-listpack-entries is answered whole by one HSCAN: raised as an operator may, 9,000 candidates come at once.
    const { port } = await servers.redis({ extra: ['--hash-max-listpack-entries', '10000'] });
    const redis = new Redis({ port, host: '127.0.0.1' });
    try {
      const keys = new Yii2Keys('big');
      const ids = Array.from({ length: 9_000 }, (_, n) => String(n + 1));
      await redis.hset(keys.messages, Object.fromEntries(ids.map((id) => [id, phpMessage(`order-${id}`)])));
      await redis.zadd(keys.reserved, 1, '1', 1, '8999');
      await redis.zadd(keys.delayed, 2, '2', 2, '9000');
      const { rows } = await findMessages.run(redis, {
        ...keys.byName,
        cursor: '0',
        count: FIND_CHUNK,
        limit: 65536,
        states: ',ready,delayed,reserved,',
        timeFrom: '',
        timeUntil: '',
        ...messageFilter(payloadQuery('order-')),
      });
      expect(rows).toHaveLength(9_000);
      const stateOf = Object.fromEntries(rows.map((row) => [row.id, row.state]));
      expect([stateOf['1'], stateOf['8999'], stateOf['2'], stateOf['9000'], stateOf['3'], stateOf['4500']]).toEqual([
        'reserved',
        'reserved',
        'delayed',
        'delayed',
        'ready',
        'ready',
      ]);
    } finally {
      redis.disconnect();
    }
  });

  it('takes as the JSON anchor the longest run of characters JSON writes as they are, not a number', () => {
    expect(jsonAnchor('https://shop.example/a')).toBe('shop.example');
    expect(jsonAnchor('"count":100')).toBe('count');
    expect(jsonAnchor('1e2')).toBe('');
    expect(jsonAnchor('café')).toBe('caf');
    expect(jsonAnchor('x=1&y=<2>')).toBe('x=1');
  });
});
