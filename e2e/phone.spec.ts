import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { failedHref, queueHref } from '@/lib/routes';
import { showConnection } from './layout-pages';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { YII2_CONNECTIONS } from './support';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';

const PHONE = { width: 390, height: 844 };

/** The page never scrolls sideways: everything is within the phone's width. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** Fails `count` jobs of `name` as a worker would, newest last. */
async function failJobs(queue: RedisQueue, name: string, count: number): Promise<void> {
  await queue.pushMany(Array.from({ length: count }, (_, n) => ({ queue: name, name: 'import.csv', payload: { n }, options: { maxAttempts: 1 } })));
  for (let job = await queue.reserve([name], 'e2e:phone', 300); job; job = await queue.reserve([name], 'e2e:phone', 300)) {
    await queue.fail(job, `Import #${job.id} failed: row 42 has 7 columns`);
  }
}

/** On call from a phone (issue 29): a header of one line, queues as cards, a bulk bar in reach, and actions on the rows they change. */
test.describe('a phone, 390 px', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;
  withSpecKeys((opened) => ({ queue, keys } = opened));

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(PHONE);
  });

  test('the header is one line whose Menu opens the navigation', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    const menu = header.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(header.getByText('Live', { exact: true })).toBeVisible();
    const [menuBox, brandBox, headerBox] = await Promise.all([
      menu.boundingBox(),
      header.getByRole('link', { name: 'QueueLens' }).boundingBox(),
      header.boundingBox(),
    ]);
    // One line: the name beside the button, and the whole header no taller than that line.
    expect(Math.abs(brandBox!.y + brandBox!.height / 2 - (menuBox!.y + menuBox!.height / 2))).toBeLessThan(4);
    expect(headerBox!.height).toBeLessThan(72);
    expect(menuBox!.height).toBeGreaterThanOrEqual(44);
    await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await header.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Failed' }).click();
    await expect(page).toHaveURL(/\/failed\?connection=default$/);
    // The next page starts with the menu closed.
    await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  test('the overview shows each queue as a card with every figure and mark in view, without a sideways scroll', async ({ page }) => {
    const imports = keys.queueName('imports');
    // Failed first: failing reserves every ready job of the queue.
    await failJobs(queue, imports, 3);
    await queue.pushMany(Array.from({ length: 7 }, (_, n) => ({ queue: imports, name: 'import.csv', payload: { n } })));
    await queue.push(imports, 'import.csv', { later: true }, { delaySeconds: 600 });
    await page.goto(`/?q=${encodeURIComponent(imports)}`);
    const card = page
      .getByRole('table', { name: 'Jobs per queue' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: imports, exact: true }) });
    await expect(card.getByRole('list', { name: `What needs attention on ${imports}` })).toContainText('Failing');
    for (const [label, figure] of [
      ['Pending', '7'],
      ['Delayed', '1'],
      ['Reserved', '0'],
      ['Total', '8'],
      ['Failed, 15 min', '3'],
    ] as const) {
      const cell = card.locator(`td[data-label="${label}"]`);
      await expect(cell, label).toHaveText(figure);
      await expect(cell, label).toBeVisible();
      // Within the phone's width: nothing to scroll sideways for (the card may run below the fold, not past the edge).
      const box = await cell.boundingBox();
      expect(box!.x, label).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(PHONE.width);
    }
    const frame = page.getByRole('group', { name: 'Jobs per queue' });
    expect(await frame.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expectNoSidewaysScroll(page);
  });

  test('the failed list pages by 25, its bulk bar stays in view while scrolling, and Select all keeps the focus', async ({ page }) => {
    const imports = keys.queueName('imports');
    await failJobs(queue, imports, 30);
    // The spec's earlier failures are still in the set (its keys go once it ends): 30 and more.
    const total = await queue.failedCount();
    await page.goto(failedHref);
    await expect(page.getByText(`Showing 1–25 of ${total} failed jobs, newest first`)).toBeVisible();
    const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
    await expect(async () => page.getByRole('checkbox', { name: 'Select the jobs shown' }).check({ timeout: 2_000 })).toPass();
    await expect(bar).toContainText('25 jobs selected');

    const selectAll = bar.getByRole('button', { name: `Select all ${total} jobs failed` });
    await selectAll.focus();
    await page.keyboard.press('Enter');
    await expect(bar).toContainText(`All ${total} jobs selected`);
    // The same control, now offering the way back, still has the focus: the next key press acts on it.
    const selectShown = bar.getByRole('button', { name: 'Select only the 25 jobs shown' });
    await expect(selectShown).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(bar).toContainText('25 jobs selected');
    await expect(selectAll).toBeFocused();

    await page.getByRole('navigation', { name: 'Pages of failed jobs' }).scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport({ ratio: 1 });
    const retry = bar.getByRole('button', { name: 'Retry 25' });
    await expect(retry).toBeInViewport({ ratio: 1 });
    expect((await retry.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // The page is a few screens, not the 13,000 px of 50 rows.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(8_000);
    await expectNoSidewaysScroll(page);
  });

  test('the queue page runs a delayed job now from its due-soonest list, and shows its failures and marks with the way to retry them', async ({ page }) => {
    const reports = keys.queueName('reports');
    const id = await queue.push(reports, 'report.build', { month: '2026-11' }, { delaySeconds: 3_600 });
    await failJobs(queue, reports, 2);
    await page.goto(queueHref(reports));
    await expect(page.getByText('2 failed in the last 15 min')).toBeVisible();
    await expect(page.getByRole('list', { name: `What needs attention on ${reports}` })).toContainText('Failing');
    await expect(page.getByRole('link', { name: 'Retry its failed jobs' })).toHaveAttribute('href', `${failedHref}?queue=${encodeURIComponent(reports)}`);

    const soonest = page.getByRole('table', { name: 'Delayed jobs, due soonest' });
    await soonest.getByRole('button', { name: `Run now job ${id} on ${reports}` }).click();
    await page
      .getByRole('dialog', { name: `Run job ${id} now?` })
      .getByRole('button', { name: `Run job ${id} now` })
      .click();
    await expect(page.getByText(`Job ${id} is ready: it joined level 0`)).toBeVisible();
    expect(await queue.redis.zscore(queue.keys.delayed(reports), String(id))).toBeNull();
    await expect(page.getByRole('region', { name: 'Delayed jobs, due soonest' }).getByText('No delayed jobs.')).toBeVisible();
  });

  test('a yii2 queue page removes a job from its line, after asking', async ({ page }) => {
    const { name: connection, channel: channelOf } = YII2_CONNECTIONS.ng;
    const channel = channelOf();
    try {
      await loadYii2Fixture(queue.redis, 'ng-strict', channel);
      const yii2 = new Yii2Keys(channel);
      const [first] = await queue.redis.zrange(yii2.prioritized, '0', '0');
      await showConnection(page, connection);
      await page.goto(`/queues/${encodeURIComponent(channel)}`);
      const line = page.getByRole('table', { name: 'Next jobs to run' });
      const remove = line.getByRole('button', { name: `Remove job… ${first} on ${channel}` });
      expect((await remove.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await remove.click();
      await page
        .getByRole('dialog', { name: `Remove job ${first}?` })
        .getByRole('button', { name: `Remove job ${first}` })
        .click();
      await expect(page.getByText(`Job ${first} was removed from ${channel}.`)).toBeVisible();
      expect(await queue.redis.hexists(yii2.messages, first!)).toBe(0);
      await expect(line.getByRole('link', { name: `#${first}`, exact: true })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
    } finally {
      await deleteKeysUnder(queue.redis, `${channel}.`);
    }
  });
});
