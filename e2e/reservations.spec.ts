import { expect, test, type Locator, type Page } from '@playwright/test';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { queueHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function holderTable(page: Page, holder: string): Locator {
  return page.getByRole('table', { name: `Jobs held by ${holder}`, exact: true });
}

function stat(page: Page, label: string): Locator {
  return page.getByRole('group', { name: label, exact: true });
}

test.describe('reservations page', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('says so when no job is reserved', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reservations' }).click();
    await expect(page).toHaveURL(/\/reservations$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reservations');
    await expect(page.getByText('No job is reserved.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  });

  test('lists an overdue job under its holder, and release now puts it back as pending', async ({ page }) => {
    const name = keys.queueName('mail');
    const id = await queue.push(name, 'mail.send', { to: 'a@example.com' });
    await queue.reserve([name], 'e2e-host:4242', 1);
    await sleep(1_100);
    await page.goto('/reservations');

    const table = holderTable(page, 'e2e-host:4242');
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `#${id}` }) });
    await expect(row).toContainText('Overdue');
    await expect(row).toContainText('mail.send');
    await expect(row).toContainText('1/3');
    await expect(row).toContainText(/UTC \(\d+ s ago\)/);
    await expect(page.getByRole('note', { name: 'Overdue jobs' })).toContainText('stats() still counts it reserved; the next reserve on this queue reclaims it.');
    await expect(stat(page, 'Overdue')).toContainText('1');

    await row.getByRole('button', { name: `Release now job ${id}` }).click();

    await expect(page.getByText(`Job ${id} released: it is ready again on ${name}, level 0.`)).toBeVisible();
    await expect(page.getByText('No job is reserved.')).toBeVisible();
    expect(await queue.redis.hget(queue.keys.job(id), 'attempts')).toBe('1');
    await page.goto(queueHref(name));
    await expect(stat(page, 'Pending')).toContainText('1');
    await expect(stat(page, 'Reserved')).toContainText('0');
    await expect(page.getByRole('table', { name: 'Next jobs to run' }).getByRole('link', { name: `#${id}` })).toBeVisible();
  });

  test('fails a running job with a reason after confirming, and it shows in the failed list', async ({ page }) => {
    const name = keys.queueName('reports');
    const id = await queue.push(name, 'report.build', {});
    await queue.reserve([name], 'e2e-host:77', 300);
    await page.goto('/reservations');

    const row = holderTable(page, 'e2e-host:77').getByRole('row').filter({ has: page.getByRole('link', { name: `#${id}` }) });
    await expect(row).toContainText('Running');
    await row.getByRole('button', { name: `Fail… job ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Fail job ${id}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await queue.failedCount()).toBe(0);

    await row.getByRole('button', { name: `Fail… job ${id}` }).click();
    await dialog.getByLabel('Reason').fill('Worker e2e-host:77 hung on a dead socket');
    await dialog.getByRole('button', { name: `Fail job ${id}` }).click();

    await expect(page.getByText(`Job ${id} failed; it is in the failed list.`)).toBeVisible();
    await expect(page.getByText('No job is reserved.')).toBeVisible();
    await page.goto('/failed');
    const failedRow = page.getByRole('table', { name: 'Failed jobs, newest first' }).getByRole('row').filter({ hasText: 'report.build' });
    await expect(failedRow.getByRole('rowheader')).toHaveText(String(id));
    await expect(failedRow).toContainText('Worker e2e-host:77 hung on a dead socket');
  });

  test('warns when holders claim with different timeouts, and looks right', async ({ page }, testInfo) => {
    const name = keys.queueName('fleet');
    const [short, long, gone] = await queue.pushMany(['import.a', 'import.b', 'import.c'].map((jobName) => ({ queue: name, name: jobName, payload: {} })));
    await queue.reserve([name], 'web-1:4242', 30);
    await queue.reserve([name], 'web-2:977', 300);
    await queue.reserve([name], 'web-2:977', 300);
    await queue.redis.del(queue.keys.job(gone!));
    await page.goto('/reservations');

    const warning = page.getByRole('alert', { name: 'Workers are claiming jobs with different timeouts' });
    await expect(warning).toContainText('web-1:4242 uses 30 s and web-2:977 uses 5 min');
    await expect(warning).toContainText('run one $config[\'queue\'][\'timeout\'] across the fleet');
    await expect(holderTable(page, 'web-1:4242').getByRole('link', { name: `#${short}` })).toBeVisible();
    await expect(holderTable(page, 'web-2:977').getByRole('link', { name: `#${long}` })).toBeVisible();
    const nobody = page.getByRole('table', { name: 'Entries nobody holds' });
    await expect(nobody).toContainText('Tombstone');
    await testInfo.attach('reservations page', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await nobody.getByRole('button', { name: `Clean up job ${gone}` }).click();
    await expect(page.getByText(`Job ${gone}: the tombstone entry was acknowledged and deleted.`)).toBeVisible();
    await expect(nobody).toHaveCount(0);
  });
});
