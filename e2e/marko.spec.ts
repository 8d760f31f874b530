import { expect, test, type Page } from '@playwright/test';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import { CONNECTION_COOKIE } from '@/lib/queries/tab-connection';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { deleteKeysUnder } from '@/lib/queue/scan-keys';
import { APP_PORT, MARKO_CONNECTION, connectE2eQueue } from './support';

async function showMarko(page: Page): Promise<void> {
  await page.context().addCookies([{ name: CONNECTION_COOKIE, value: MARKO_CONNECTION.name, url: `http://127.0.0.1:${APP_PORT}` }]);
}

test.describe('a marko/queue-redis connection', () => {
  let queue: RedisQueue;
  const prefix = MARKO_CONNECTION.prefix();

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    // Written as marko's documented scripts write it: one ready, one delayed, one reserved and one failed job in "mail".
    const worker = new MarkoTestWorker(queue.redis, prefix);
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to } });
    await worker.later(3600, 'mail', { className: 'App\\Jobs\\SendMail', data: { to: 'later@example.test' } });
    await worker.pop('mail');
    const failing = (await worker.pop('mail'))!;
    await worker.fail('mail', failing.id, 'RuntimeException: <b>SMTP</b> refused');
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, prefix);
    await queue.close();
  });

  test('the overview shows its queues’ counts and failed jobs; the pages it cannot fill yet say so', async ({ page }, testInfo) => {
    await showMarko(page);
    await page.goto('/');
    await expect(page.getByRole('combobox', { name: 'Redis' }).locator('option:checked')).toHaveText(`${MARKO_CONNECTION.label} · marko/queue-redis`);
    const row = page.getByRole('table', { name: 'Jobs per queue' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'mail' }) });
    await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '3']);
    await expect(page.getByRole('group', { name: 'Failed jobs' })).toContainText('1');
    await expect(page.getByRole('list', { name: 'What this layout cannot show' })).toContainText('QueueLens does not sample marko throughput yet');
    for (const [colorScheme, width] of [['light', 1400], ['dark', 390]] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await testInfo.attach(`overview of a marko connection, ${colorScheme}, ${width} px`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }

    await page.goto('/failed');
    await expect(page.getByRole('region', { name: 'Not on this connection' })).toContainText('marko queue:retry ID');
    await page.goto('/queues/mail');
    await expect(page.getByRole('region', { name: 'Not on this connection' })).toContainText('QueueLens does not list a marko queue’s jobs on this page yet');
    const api = await page.request.get('/api/failed');
    expect(api.status()).toBe(501);
  });
});
