import { expect, test } from './test';
import { parseConnections } from '@/lib/dashboard/connections';
import { patternUnder, deleteKeysUnder } from '@/lib/redis/scan-keys';
import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { settingsFromEnv } from '@/lib/redis/config';
import { connectHref } from '@/lib/routes';
import { seedDemoMarkoQueue } from '../bin/demo-marko';
import { seedDemoQueues } from '../bin/demo-staticphp';
import { seedDemoYii2Channel } from '../bin/demo-yii2';
import { axeViolations } from './axe';
import { screenshots } from './layout-pages';
import { connectE2eQueue, e2ePrefix, e2eSecrets } from './support';

/** Many keys of no layout, so a walk over them takes a good many steps: enough to stop one on the way. */
const STRANGERS = 60_000;

test.describe('the Connect page', () => {
  const root = `${e2ePrefix()}connect:`;
  const place = { staticphp: `${root}demo:`, channel: `${root}demo-ng`, marko: `${root}demo-marko:` };
  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    // The demo's three layouts, under this spec's own prefix: the page's scan is scoped to it.
    const staticphp = await RedisQueue.connect({ ...settingsFromEnv(), prefix: place.staticphp });
    await seedDemoQueues(staticphp);
    await staticphp.close();
    await seedDemoYii2Channel(queue.redis, place.channel);
    await seedDemoMarkoQueue(queue.redis, place.marko);
    for (let start = 0; start < STRANGERS; start += 5_000) {
      const batch = queue.redis.pipeline();
      for (let i = start; i < start + 5_000; i++) batch.set(`${root}stranger:${i}`, 'x');
      await batch.exec();
    }
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, root);
    await queue.close();
  });

  test('finds the three layouts under the run’s prefix, each with an entry to copy that the connections parser takes', async ({ page, context }, testInfo) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await expect(async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connect' }).click();
      await page.waitForURL(`**${connectHref}`, { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Connect' })).toBeVisible();
    await page.getByLabel('Keys to look at (a SCAN MATCH pattern)').fill(patternUnder(root));
    await page.getByRole('button', { name: 'Scan' }).click();
    const status = page.getByRole('status', { name: 'Scan progress' });
    await expect(status).toContainText('Scan complete:', { timeout: 90_000 });
    await expect(status).toContainText('3 queue layouts found.');
    const found = page.getByRole('region', { name: 'Found' });
    for (const name of [
      `StaticPHP QueueRedis, prefix ${place.staticphp}`,
      `yii2-queue-redis-ng, channel ${place.channel}`,
      `marko/queue-redis, prefix ${place.marko}`,
    ]) {
      await expect(found.getByRole('listitem', { name, exact: true })).toBeVisible();
    }
    await expect(found).toContainText(`${STRANGERS} keys fit no layout`);
    const marko = found.getByRole('listitem', { name: `marko/queue-redis, prefix ${place.marko}`, exact: true });
    await expect(marko.getByRole('list', { name: `What Redis cannot tell about prefix ${place.marko}` })).toContainText('retryAfter');

    await marko.getByRole('button', { name: `Copy entry for prefix ${place.marko}` }).click();
    await expect(marko.getByText('Copied', { exact: true })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await marko.getByRole('region', { name: `Entry for prefix ${place.marko}` }).textContent());
    const [connection] = parseConnections(JSON.stringify({ connections: [JSON.parse(copied)] }), 'the copied entry');
    expect(connection!.layout).toEqual({ layout: 'marko', prefix: place.marko, retryAfter: null, queues: null });

    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, testInfo, 'Connect page with three finds');
  });

  test('is an operator’s: a viewer is told why, with no Scan button', async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(connectHref);
    await expect(page).toHaveURL(/\/login\?next=%2Fconnect$/);
    await page.getByLabel('Secret').fill(e2eSecrets().viewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/connect$/);
    await expect(page.getByRole('note', { name: 'Scanning is for operators' })).toContainText(
      'Only an operator can change queues, and you are signed in as a viewer.',
    );
    await expect(page.getByRole('button', { name: /^Scan/ })).toHaveCount(0);
    await context.close();
  });

  test('stops a scan on the way, keeping what it found so far', async ({ page }) => {
    await page.goto(connectHref);
    await page.getByLabel('Keys to look at (a SCAN MATCH pattern)').fill(`${root}stranger:*`);
    await expect(async () => {
      await page.getByRole('button', { name: /^Scan/ }).click();
      await expect(page.getByRole('status', { name: 'Scan progress' })).toContainText('Scanning…', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    const status = page.getByRole('status', { name: 'Scan progress' });
    await expect(status).toContainText('Stopped:');
    const scanned = Number(/(\d+) keys looked at/.exec((await status.textContent()) ?? '')?.[1]);
    expect(scanned).toBeLessThan(STRANGERS);
    // Nothing runs after Stop: the count stays where it stopped.
    await page.waitForTimeout(1_500);
    await expect(status).toContainText(`${scanned} keys looked at`);
    await expect(page.getByRole('button', { name: 'Scan again' })).toBeEnabled();
  });
});
