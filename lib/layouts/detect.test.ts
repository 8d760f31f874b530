import { describe, expect, it } from 'vitest';
import { parseConnections } from '../dashboard/connections';
import { loadYii2Fixture } from './yii2/test-fixtures';
import { MarkoTestWorker } from './marko/test-worker';
import { settingsFromUrl } from '../redis/config';
import { loadStaticPhpFixture } from './staticphp/test-fixtures';
import { testQueueFactory } from './staticphp/test-redis';
import { patternUnder } from '../redis/scan-keys';
import { detectLayouts, detectStep } from './detect';
import { redisLocationOf, suggestedEntries } from '../shapes/detect-entry';
import { candidatesOf, emptyTally, MAX_GROUPS, mergeTallies, readDetection, STRANGER_SAMPLE, tallyKey } from '../shapes/detect-tally';

const openQueue = testQueueFactory();

/** A fresh root prefix; every key of a test is under it, and the walk looks at nothing else. */
async function root() {
  const queue = await openQueue();
  const prefix = queue.keys.prefix;
  return { queue, prefix, redis: queue.redis, detect: () => detectLayouts(queue.redis, { match: patternUnder(prefix), ownPrefix: `${prefix}ql:` }) };
}

const summary = (found: Awaited<ReturnType<typeof detectLayouts>>['found']) =>
  found
    .map(({ layout, prefix, channel, keys, confidence }) => ({ layout, at: prefix ?? channel, keys, confidence }))
    .sort((a, b) => a.at!.localeCompare(b.at!));

describe('detecting queue layouts by their keys’ names and types', () => {
  it('finds a StaticPHP prefix, a yii2 and a redis-ng channel, a marko and a Laravel prefix in one database, each once, and counts the strangers without listing them all', async () => {
    const { prefix, redis, queue, detect } = await root();
    const staticphp = await openQueue({ prefix: `${prefix}sp:` });
    await staticphp.push('emails', 'mail.send', { to: 'a@example.com' });
    await staticphp.push('emails', 'mail.send', { to: 'b@example.com' }, { delaySeconds: 600 });
    await loadYii2Fixture(redis, 'stock', `${prefix}stock`);
    await loadYii2Fixture(redis, 'ng-strict', `${prefix}ng`);
    const marko = new MarkoTestWorker(redis, `${prefix}marko:`);
    await marko.push('mail', { className: 'App\\Jobs\\SendMail' });
    const failing = await marko.push('mail', { className: 'App\\Jobs\\SendMail' });
    await marko.pop('mail');
    await marko.fail('mail', failing, 'boom');
    for (let i = 0; i < 40; i++) await redis.set(`${prefix}cache:user:${i}`, 'x');
    // QueueLens's own keys, under the dashboard prefix: counted apart, whatever their names look like.
    await redis.xadd(`${prefix}ql:audit`, '*', 'who', 'me');
    await redis.set(`${prefix}ql:throughput:{x}:seq`, '1');
    // Laravel's queue shape: lists and sorted sets under queues:, but no job hashes. Not marko: Laravel.
    await redis.rpush(`${prefix}laravel:queues:default`, '{"job":"x"}');
    await redis.zadd(`${prefix}laravel:queues:default:delayed`, 1, '{"job":"y"}');

    const detection = await detect();
    const keysUnder = async (under: string) => {
      let n = 0;
      for (let cursor = '0'; ;) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', patternUnder(under), 'COUNT', 250);
        n += keys.filter((key) => !key.startsWith(`${prefix}cache:`)).length;
        if ((cursor = next) === '0') return n;
      }
    };
    expect(summary(detection.found)).toEqual([
      { layout: 'laravel', at: `${prefix}laravel:`, keys: 2, confidence: 'medium' },
      { layout: 'marko', at: `${prefix}marko:`, keys: await keysUnder(`${prefix}marko:`), confidence: 'high' },
      { layout: 'yii2-ng', at: `${prefix}ng`, keys: await keysUnder(`${prefix}ng.`), confidence: 'high' },
      { layout: 'staticphp', at: `${prefix}sp:`, keys: await keysUnder(`${prefix}sp:`), confidence: 'high' },
      { layout: 'yii2', at: `${prefix}stock`, keys: await keysUnder(`${prefix}stock.`), confidence: 'high' },
    ]);
    expect(detection.strangers.count).toBe(40);
    expect(detection.own).toBe(2);
    expect(detection.strangers.sample.length).toBe(STRANGER_SAMPLE);
    expect(detection.scanned).toBe(detection.own + detection.strangers.count + detection.found.reduce((sum, find) => sum + find.keys, 0));
    const ng = detection.found.find((find) => find.layout === 'yii2-ng')!;
    expect(ng.matched).toMatch(/a messages hash, an id counter \(message_id\).*redis-ng's .*\.prioritized/);
    expect(ng.jobs).toBe(Number(await redis.hlen(`${prefix}ng.messages`)));
    expect(detection.found.find((find) => find.layout === 'staticphp')).toMatchObject({ queues: ['emails'], jobs: 2 });
    expect(detection.found.find((find) => find.layout === 'marko')).toMatchObject({ queues: ['mail'], jobs: 1 });
    expect(detection.found.find((find) => find.layout === 'laravel')).toMatchObject({ queues: ['default'], jobs: 0 });
    expect(queue.keys.prefix).toBe(prefix);
  });

  it('recognises the real StaticPHP driver’s fixture under any prefix, every key of it counted', async () => {
    const { prefix, detect } = await root();
    await loadStaticPhpFixture((await openQueue()).redis, 'rich-layout', `${prefix}app:`);
    const detection = await detect();
    expect(detection.found).toHaveLength(1);
    expect(detection.found[0]).toMatchObject({ layout: 'staticphp', prefix: `${prefix}app:`, confidence: 'high' });
    expect(detection.found[0]!.keys).toBe(detection.scanned);
    expect(detection.strangers.count).toBe(0);
  });

  it('tells a redis-ng channel from a stock one by the keys only ng writes, in each of the real drivers’ fixtures', async () => {
    const { prefix, redis, detect } = await root();
    for (const name of ['stock', 'ng-strict', 'ng-aging', 'ng-json-serializer'] as const) await loadYii2Fixture(redis, name, `${prefix}${name}`);
    expect(summary((await detect()).found).map(({ layout, at }) => [layout, at])).toEqual([
      ['yii2-ng', `${prefix}ng-aging`],
      ['yii2-ng', `${prefix}ng-json-serializer`],
      ['yii2-ng', `${prefix}ng-strict`],
      ['yii2', `${prefix}stock`],
    ]);
  });

  it('takes a key only with the type its layout gives it: a queues string beside a seq is no StaticPHP prefix', async () => {
    const { prefix, redis, detect } = await root();
    await redis.set(`${prefix}fake:queues`, 'emails');
    await redis.set(`${prefix}fake:seq`, '3');
    await redis.xadd(`${prefix}fake:q:emails:s:0`, '*', 'id', '1');
    // A yii2 messages key that is a string, and a marko jobs key that is a list.
    await redis.set(`${prefix}chan.messages`, 'x');
    await redis.rpush(`${prefix}mk:jobs:1`, 'x');
    await redis.rpush(`${prefix}mk:queues:mail`, '1');
    const detection = await detect();
    expect(detection.found).toEqual([]);
    expect(detection.strangers.count).toBe(6);
  });

  it('walks a database of many strangers in bounded steps and reports them as a count and a short sample', async () => {
    const { prefix, redis, detect } = await root();
    const staticphp = await openQueue({ prefix: `${prefix}sp:` });
    await staticphp.push('emails', 'mail.send', {});
    // Names that fit a StaticPHP shape under thousands of different prefixes (`…j:N`), more than a tally keeps.
    const strangers = MAX_GROUPS + 500;
    for (let start = 0; start < strangers; start += 500) {
      const batch = redis.pipeline();
      for (let i = start; i < Math.min(strangers, start + 500); i++) batch.hset(`${prefix}cache:${i}:obj:${i}`, 'v', '1').set(`${prefix}plain:${i}`, 'x');
      await batch.exec();
    }
    const first = await detectStep(redis, '0', { match: patternUnder(prefix), ownPrefix: `${prefix}ql:` }, 1000);
    expect(first.cursor).not.toBe('0');
    expect(first.tally.scanned).toBeLessThanOrEqual(1000 + 250);
    const detection = await detect();
    expect(summary(detection.found)).toEqual([{ layout: 'staticphp', at: `${prefix}sp:`, keys: expect.any(Number), confidence: 'high' }]);
    expect(detection.strangers.count).toBe(strangers * 2);
    expect(detection.strangers.sample).toHaveLength(STRANGER_SAMPLE);
    expect(detection.capped).toBe(true);
    expect(JSON.stringify(detection).length).toBeLessThan(5_000);
  });
});

describe('the tally', () => {
  it('keeps an anchored group when strangers crowd it out, and counts the dropped ones’ keys as strangers', () => {
    let tally = emptyTally();
    const step = emptyTally();
    tallyKey(
      step,
      'app:queues',
      candidatesOf('app:queues').filter((candidate) => candidate.type === 'set'),
    );
    tallyKey(
      step,
      'app:seq',
      candidatesOf('app:seq').filter((candidate) => candidate.type === 'string'),
    );
    tally = mergeTallies(tally, step);
    const crowd = emptyTally();
    for (let i = 0; i < MAX_GROUPS + 10; i++)
      tallyKey(
        crowd,
        `x${i}:j:1`,
        candidatesOf(`x${i}:j:1`).filter((candidate) => candidate.type === 'hash'),
      );
    tally = mergeTallies(tally, { ...crowd, scanned: MAX_GROUPS + 10 });
    expect(Object.keys(tally.groups)).toHaveLength(MAX_GROUPS);
    const detection = readDetection(tally);
    expect(detection.found.map((find) => find.prefix)).toEqual(['app:']);
    expect(detection.strangers.count).toBe(MAX_GROUPS + 10);
    expect(detection.capped).toBe(true);
  });

  it('reads a name every way a layout could spell it, and gives a key two readings only to the layout it is', () => {
    expect(candidatesOf('a.seq').map(({ family, base, role }) => [family, base, role])).toEqual([
      ['yii2', 'a', 'seq'],
      ['staticphp', 'a.', 'seq'],
    ]);
    expect(candidatesOf('m:queues:mail:notify').map(({ role, queue }) => [role, queue])).toEqual([['notify', 'mail']]);
    expect(candidatesOf('m:queues:mail:delayed').map(({ role, type, queue }) => [role, type, queue])).toEqual([
      ['delayed', 'zset', 'mail'],
      ['ready', 'list', 'mail:delayed'],
    ]);
    expect(candidatesOf('aq:q:x:s:0').map(({ base }) => base)).toEqual(['a', 'aq:']);
  });
});

describe('the connections-file entries of a detection', () => {
  it('parse with the real connections parser, each with its layout and place, the settings Redis cannot reveal set apart as notes', async () => {
    const { prefix, redis, detect } = await root();
    const staticphp = await openQueue({ prefix: `${prefix}sp:` });
    await staticphp.push('emails', 'mail.send', {});
    await loadYii2Fixture(redis, 'ng-strict', `${prefix}ng`);
    await loadYii2Fixture(redis, 'stock', `${prefix}stock`);
    const marko = new MarkoTestWorker(redis, `${prefix}marko:`);
    await marko.push('mail', { className: 'App\\Jobs\\SendMail' });
    const location = redisLocationOf(settingsFromUrl('redis://:hunter2@127.0.0.1:6380/3'));
    const suggested = suggestedEntries((await detect()).found, location);
    expect(JSON.stringify(suggested)).not.toContain('hunter2');
    const connections = parseConnections(JSON.stringify({ connections: suggested.map(({ entry }) => entry) }), 'the detected entries');
    expect(connections.map(({ layout, settings }) => ({ layout, port: settings.port, database: settings.database }))).toEqual(
      expect.arrayContaining([
        { layout: { layout: 'staticphp' }, port: 6380, database: 3 },
        { layout: expect.objectContaining({ layout: 'yii2-ng', channels: [`${prefix}ng`] }), port: 6380, database: 3 },
        { layout: { layout: 'yii2', channels: [`${prefix}stock`] }, port: 6380, database: 3 },
        { layout: { layout: 'marko', prefix: `${prefix}marko:`, retryAfter: null, queues: null }, port: 6380, database: 3 },
      ]),
    );
    expect(connections.find(({ layout }) => layout.layout === 'staticphp')!.settings.prefix).toBe(`${prefix}sp:`);
    expect(new Set(connections.map(({ name }) => name)).size).toBe(4);
    const notes = (layout: string) => suggested.find(({ entry }) => entry.layout === layout)!.notes.join(' ');
    expect(notes('yii2-ng')).toMatch(/aging.*not in Redis/);
    expect(notes('marko')).toMatch(/retry_after.*not in Redis.*retryAfter/);
    expect(notes('staticphp')).toMatch(/password, which is left out/);
  });
});
