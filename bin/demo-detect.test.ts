import { describe, expect, it } from 'vitest';
import { parseConnections } from '../lib/dashboard/connections';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { patternUnder } from '../lib/redis/scan-keys';
import { seedDemoMarkoQueue } from './demo-marko';
import { seedDemoQueues } from './demo-staticphp';
import { seedDemoYii2Channel } from './demo-yii2';
import { queuelens } from './test-cli';

const openQueue = testQueueFactory();

interface DetectJson {
  found: { layout: string; prefix?: string; channel?: string; keys: number; entry: Record<string, unknown>; notes: string[] }[];
  scanned: number;
  strangers: { count: number; sample: string[] };
}

describe('queuelens detect on a Redis seeded as npm run demo seeds it', () => {
  it('finds exactly the demo’s three layouts with their prefixes and channel, and prints entries the connections parser takes', async () => {
    // The demo's three seeders, each under the test's own prefix: the walk is scoped to it, so other tests' keys are not looked at.
    const root = await openQueue();
    const staticphp = await openQueue({ prefix: `${root.keys.prefix}demo:` });
    const [channel, markoPrefix] = [`${root.keys.prefix}demo-ng`, `${root.keys.prefix}demo-marko:`];
    expect(await seedDemoQueues(staticphp)).toBe(true);
    expect(await seedDemoYii2Channel(root.redis, channel)).toBe(true);
    expect(await seedDemoMarkoQueue(root.redis, markoPrefix)).toBe(true);
    expect(await seedDemoMarkoQueue(root.redis, markoPrefix)).toBe(false);

    const detected = await queuelens('detect', '--json', '--match', patternUnder(root.keys.prefix));
    expect(detected).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(detected.stdout) as DetectJson;
    expect(report.found.map(({ layout, prefix, channel }) => [layout, prefix ?? channel]).sort()).toEqual([
      ['marko', markoPrefix],
      ['staticphp', `${root.keys.prefix}demo:`],
      ['yii2-ng', channel],
    ]);
    expect(report.strangers.count).toBe(0);
    expect(report.found.reduce((sum, find) => sum + find.keys, 0)).toBe(report.scanned);
    const connections = parseConnections(JSON.stringify({ connections: report.found.map(({ entry }) => entry) }), 'detect’s entries');
    expect(connections.map(({ layout }) => layout.layout).sort()).toEqual(['marko', 'staticphp', 'yii2-ng']);
    expect(report.found.find(({ layout }) => layout === 'marko')!.notes.join(' ')).toMatch(/retryAfter/);

    const human = await queuelens('detect', '--match', patternUnder(root.keys.prefix));
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Found 3 queue layouts in \d+ keys\./);
    expect(human.stdout).toContain(`yii2-ng  channel ${channel}  (high confidence`);
    expect(human.stdout).toMatch(/entry: \{"name":"[a-z0-9-]+","url":"redis:\/\/127\.0\.0\.1:\d+\/0","layout":"marko"/);
  });

  it('exits 1 when nothing is found, and 2 on bad usage', async () => {
    const root = await openQueue();
    await root.redis.set(`${root.keys.prefix}plain`, 'x');
    const nothing = await queuelens('detect', '--match', patternUnder(root.keys.prefix));
    expect(nothing).toMatchObject({ code: 1, stdout: expect.stringContaining('No queue layout found in 1 key. 1 key fits no layout') });
    expect(await queuelens('detect', '--layout', 'marko')).toMatchObject({ code: 2, stderr: expect.stringContaining('it takes no --layout') });
    expect(await queuelens('detect', 'extra')).toMatchObject({ code: 2, stderr: expect.stringContaining('detect takes no arguments') });
  });
});
