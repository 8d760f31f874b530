import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { layoutHref, layoutKeyHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';

function table(page: Page, name: string): Locator {
  return page.getByRole('table', { name, exact: true });
}

function rowOf(table: Locator, key: string): Locator {
  return table.getByRole('row').filter({ has: table.page().getByRole('cell', { name: key, exact: true }) });
}

test.describe('key layout page', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  // Keys outside the layout this spec writes by hand; deleted with the rest.
  const strangers: string[] = [];

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      if (strangers.length > 0) await queue.redis.unlink(...strangers);
    },
  );

  test('lists the keys of a seeded queue with their types, and flags a key of the wrong type', async ({ page }) => {
    const name = keys.queueName('layout');
    await queue.pushMany([0, 0, 3].map((priority) => ({ queue: name, name: 'report.build', payload: {}, options: { priority } })));
    await queue.reserve([name], 'web-1:4242', 300);
    await queue.redis.set(queue.keys.delayed(name), 'not a sorted set');

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    await expect(page).toHaveURL(new RegExp(`${layoutHref}\\?connection=default$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keys');

    const keysTable = table(page, 'Queue keys');
    await expect(keysTable.getByRole('columnheader')).toHaveText(['Key', 'Holds', 'Type', 'Size', 'Memory', 'TTL', 'Consumer group']);
    await expect(rowOf(keysTable, queue.keys.queues)).toContainText('set');
    await expect(rowOf(keysTable, queue.keys.levels(name))).toContainText('priority levels');
    await expect(rowOf(keysTable, queue.keys.levels(name)).getByRole('cell').nth(2)).toHaveText('zset');
    await expect(rowOf(keysTable, queue.keys.levels(name)).getByRole('cell').nth(3)).toHaveText('2');
    const level3 = rowOf(keysTable, queue.keys.stream(name, 3));
    await expect(level3.getByRole('cell').nth(2)).toHaveText('stream');
    // The reserve took the level-3 job, creating that stream's group; it never reached level 0.
    await expect(level3.getByRole('cell').nth(6)).toContainText('1 pending, last delivered');
    const level0 = rowOf(keysTable, queue.keys.stream(name, 0));
    await expect(level0.getByRole('cell').nth(3)).toHaveText('2');
    await expect(level0.getByRole('cell').nth(6)).toHaveText('Not created yet');
    await expect(rowOf(keysTable, queue.keys.delayed(name)).getByRole('cell').nth(2)).toHaveText('Wrong type: string, expected zset');
    await expect(page.getByRole('status').filter({ hasText: 'the wrong type' })).toContainText('1 key has the wrong type');

    // Higher level first, the order reserve walks them.
    const order = await keysTable.getByRole('cell').allTextContents();
    expect(order.indexOf(queue.keys.stream(name, 3))).toBeLessThan(order.indexOf(queue.keys.stream(name, 0)));
  });

  test('the census counts the jobs and finds a key the driver never creates', async ({ page }, testInfo) => {
    const name = keys.queueName('census');
    await queue.pushMany([1, 2, 3].map((index) => ({ queue: name, name: 'census.job', payload: { index } })));
    const stranger = `${queue.keys.prefix}stranger-${randomBytes(3).toString('hex')}`;
    strangers.push(stranger);
    await queue.redis.rpush(stranger, 'left behind by another tool');

    await page.goto(layoutHref);
    await page.getByRole('button', { name: 'Run census' }).click();

    await expect(page.getByRole('status').filter({ hasText: /^Done:/ })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('progressbar', { name: /Census progress \(approximate/ })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Job hashes', exact: true })).toContainText(/\d/);
    expect(Number((await page.getByRole('group', { name: 'Job hashes', exact: true }).textContent())!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(3);
    const found = table(page, 'Keys the driver never creates');
    await expect(rowOf(found, stranger).getByRole('cell').nth(1)).toHaveText('list');
    await testInfo.attach('census done', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await found.getByRole('link', { name: stranger }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Key ${stranger}`);
    await expect(table(page, 'Contents')).toContainText('left behind by another tool');
  });

  test('opens a stream and shows its entries, and refuses a key outside the prefix', async ({ page }, testInfo) => {
    const name = keys.queueName('contents');
    const ids = await queue.pushMany([0, 0].map(() => ({ queue: name, name: 'contents.job', payload: {} })));
    await queue.push(name, 'contents.later', {}, { delaySeconds: 3600 });
    await queue.redis.expire(queue.keys.levels(name), 86_400);

    await page.goto(layoutHref);
    const keysTable = table(page, 'Queue keys');
    await expect(rowOf(keysTable, queue.keys.levels(name))).toContainText(/Expires in (23 h 59 min|1 d): the driver never sets a TTL/);
    await testInfo.attach('key layout, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await testInfo.attach('key layout, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    // The table scrolls inside its frame; the page's content never runs wider than the screen.
    expect(await page.locator('main').evaluate((main) => main.scrollWidth <= main.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'light' });

    await keysTable.getByRole('link', { name: queue.keys.stream(name, 0), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Key ${queue.keys.stream(name, 0)}`);
    await expect(page.getByText('stream, 2 entries')).toBeVisible();
    const contents = table(page, 'Contents');
    await expect(contents.getByRole('row')).toHaveCount(3);
    await expect(contents.locator('tbody tr').nth(0)).toContainText(`job = ${ids[0]}`);
    await expect(contents.locator('tbody tr').nth(1)).toContainText(`job = ${ids[1]}`);
    await testInfo.attach('key contents, stream', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await page.goto(layoutKeyHref(queue.keys.delayed(name)));
    await expect(table(page, 'Contents').locator('tbody tr')).toHaveCount(1);

    await page.goto(layoutKeyHref('not-the-prefix:anything'));
    await expect(page.getByRole('alert', { name: 'Cannot read this key' })).toContainText('Only keys under the prefix');
  });
});
