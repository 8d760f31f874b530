import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { queuesTable } from './overview-table';
import { loadYii2Fixture, type Yii2Expected } from '@/lib/layouts/yii2/test-fixtures';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { screenshots, showConnection } from './layout-pages';
import { YII2_CONNECTIONS, connectE2eQueue } from './support';

/** The connection the header's switcher shows, with its layout. */
function shownConnection(page: Page) {
  return page.getByRole('combobox', { name: 'Redis' }).locator('option:checked');
}

test.describe('a yii2 connection beside a StaticPHP one', () => {
  let queue: RedisQueue;
  let ng: Yii2Expected;
  let stock: Yii2Expected;
  const channels = { ng: YII2_CONNECTIONS.ng.channel(), stock: YII2_CONNECTIONS.stock.channel() };

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    ng = await loadYii2Fixture(queue.redis, 'ng-strict', channels.ng);
    stock = await loadYii2Fixture(queue.redis, 'stock', channels.stock);
  });

  test.afterAll(async () => {
    for (const channel of Object.values(channels)) await deleteKeysUnder(queue.redis, `${channel}.`);
    await queue.close();
  });

  test('the overview shows a redis-ng channel’s counts as its driver reports them, and says what yii2 cannot tell', async ({ page }, testInfo) => {
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    await page.goto('/');
    await expect(shownConnection(page)).toHaveText(`${YII2_CONNECTIONS.ng.label} · yii2-queue-redis-ng`);
    const row = queuesTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: channels.ng }) });
    const { waiting, delayed, reserved } = ng.statistics;
    // The fourth figure is the total; the throughput cell comes after it.
    await expect(row.getByRole('cell').nth(3)).toHaveText(String(waiting + delayed + reserved));
    await expect(row.getByRole('link', { name: `${reserved} reserved in ${channels.ng}: its reservations` })).toBeVisible();
    // Processed/s from message_id and done; no failed column and no wait: yii2 records neither.
    await expect(queuesTable(page).getByRole('columnheader')).toHaveText(['Queue', 'Pending', 'Delayed', 'Reserved', 'Total', 'Processed/s, 15 min']);
    const failed = page.getByRole('group', { name: 'Failed jobs' });
    await expect(failed).toContainText('—');
    await expect(failed).toContainText('yii2-queue keeps no failed jobs: a job that used its attempts is deleted');
    const limits = page.getByRole('list', { name: 'What this layout cannot show' });
    await expect(limits).toContainText('so no failed figure is sampled');
    await expect(limits).toContainText('yii2-queue stores no time a job joined its line, so the wait of the oldest job is not known');
    await expect(page.getByRole('heading', { name: 'Throughput' })).toBeVisible();
    // The table scrolls inside its frame; the page itself never scrolls sideways.
    await screenshots(page, testInfo, 'overview of a yii2-ng connection');
  });

  test('the stock driver’s channel counts its waiting list, delayed and reserved jobs', async ({ page }) => {
    await showConnection(page, YII2_CONNECTIONS.stock.name);
    await page.goto('/');
    await expect(shownConnection(page)).toHaveText(`${YII2_CONNECTIONS.stock.label} · yii2-queue`);
    const row = queuesTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: channels.stock }) });
    const { waiting, delayed, reserved } = stock.statistics;
    // The fourth figure is the total; the throughput cell comes after it.
    await expect(row.getByRole('cell').nth(3)).toHaveText(String(waiting + delayed + reserved));
  });

  test('each page a yii2 layout cannot fill says why instead, and its API answers 501 with the same words', async ({ page }) => {
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    for (const [path, heading, sentence] of [
      ['/failed', 'Failed jobs', 'yii2-queue keeps no failed jobs: a job that used its attempts is deleted.'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Not on this connection' })).toContainText(sentence);
    }
    const api = await page.request.get('/api/failed');
    expect(api.status()).toBe(501);
    expect(await api.json()).toEqual({ ok: false, error: 'yii2-queue keeps no failed jobs: a job that used its attempts is deleted' });
  });

  test('Prometheus metrics of a yii2 connection: pushed and processed from message_id and done, no failed or wait series; the StaticPHP connection still shows its own', async ({
    page,
  }) => {
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    const api = await page.request.get('/api/metrics');
    expect(api.status()).toBe(200);
    const text = await api.text();
    const { waiting, delayed, reserved, done } = ng.statistics;
    const series = (name: string) => new RegExp(`^${name}\\{connection="${YII2_CONNECTIONS.ng.name}",queue="${channels.ng}"\\} (\\d+)$`, 'm').exec(text)?.[1];
    expect(Number(series('queuelens_queue_pushed_total'))).toBe(waiting + delayed + reserved + done);
    expect(Number(series('queuelens_queue_processed_total'))).toBe(done);
    expect(text).not.toMatch(/queuelens_queue_failed_total|queuelens_failed_jobs|queuelens_queue_wait_seconds/);
    await showConnection(page, 'default');
    await page.goto('/');
    await expect(page.getByRole('group', { name: 'Failed jobs' })).not.toContainText('—');
    await expect(shownConnection(page)).toHaveText('E2E queues · StaticPHP QueueRedis');
  });
});
