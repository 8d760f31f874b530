import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
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
    await expect(page).toHaveURL(/\/reservations\?connection=default$/);
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
    await expect(page.getByRole('note', { name: 'Overdue jobs' })).toContainText(
      'It still counts as reserved until the next worker that takes a job from this queue takes it back and runs it again.',
    );
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

  test('names the holder of a job a reclaim parked until its deadline, and looks right', async ({ page }, testInfo) => {
    const name = keys.queueName('parked');
    const id = await queue.push(name, 'import.slow', {});
    const held = (await queue.reserve([name], 'e2e-slow:7', 300))!;
    await sleep(1_100);
    // A worker with a 1 s timeout reclaims the entry while the 300 s claim is live: RESERVE parks the job instead of running it.
    expect(await queue.reserve([name], 'e2e-quick:8', 1)).toBeNull();
    await page.goto('/reservations');

    const row = holderTable(page, 'e2e-slow:7')
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `#${id}` }) });
    await expect(row).toContainText('Parked');
    await expect(row).toContainText("A worker tried to take it back before its holder's deadline");
    await expect(row).toContainText('import.slow');
    await expect(row).toContainText('1/3');
    await expect(row).toContainText(new RegExp(`${new Date(Number(held.fields.reserved_until) * 1000).toISOString().slice(11, 16)}`));
    await expect(stat(page, 'Parked')).toContainText('1');
    await expect(page.getByText('No job is reserved.')).toHaveCount(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await testInfo.attach(`reservations with a parked job, ${colorScheme}, ${width} px`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: 'image/png',
        });
        // The wide table scrolls in its frame; the page itself does not scroll sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    }
    // The later tests start from no reservation at all.
    await queue.redis.zrem(queue.keys.delayed(name), String(id));
    await queue.redis.del(queue.keys.job(id));
  });

  test('fails a running job with a reason after confirming, and it shows in the failed list', async ({ page }) => {
    const name = keys.queueName('reports');
    const id = await queue.push(name, 'report.build', {});
    await queue.reserve([name], 'e2e-host:77', 300);
    await page.goto('/reservations');

    const row = holderTable(page, 'e2e-host:77')
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `#${id}` }) });
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
    await expect(warning).toContainText("give every worker the same timeout ($config['queue']['timeout'])");
    await expect(holderTable(page, 'web-1:4242').getByRole('link', { name: `#${short}` })).toBeVisible();
    await expect(holderTable(page, 'web-2:977').getByRole('link', { name: `#${long}` })).toBeVisible();
    const nobody = page.getByRole('table', { name: 'Hand-outs nobody holds' });
    await expect(nobody).toContainText('Job gone');
    await testInfo.attach('reservations page', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await nobody.getByRole('button', { name: `Clean up job ${gone}` }).click();
    await expect(page.getByText(`Job ${gone}: its left-over hand-out was removed.`)).toBeVisible();
    await expect(nobody).toHaveCount(0);
  });

  test('pages a long list by its address, from the keyboard too, and filters it by a queue picked from the known ones', async ({ page }, testInfo) => {
    const busy = keys.queueName('paged');
    const quiet = keys.queueName('quiet');
    const ids = await queue.pushMany(Array.from({ length: 55 }, (_, index) => ({ queue: busy, name: `paged.${index}`, payload: {} })));
    for (let index = 0; index < ids.length; index++) await queue.reserve([busy], 'pager-host:1', 300);
    const quietId = await queue.push(quiet, 'quiet.job', {});
    await queue.reserve([quiet], 'quiet-host:2', 300);
    await page.goto('/reservations');

    const filter = page.getByRole('search', { name: 'Filter reservations' });
    const picker = filter.getByLabel('Queue');
    await expect(picker.getByRole('option')).toContainText(['All queues', busy, quiet]);
    await picker.selectOption(busy);
    await filter.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(`/reservations?queue=${encodeURIComponent(busy)}&connection=default`);

    const pager = page.getByRole('navigation', { name: 'Pages of reservations', exact: true });
    const table = holderTable(page, 'pager-host:1');
    await expect(pager).toContainText('Reservations 1–25 of 55, page 1 of 3');
    await expect(stat(page, 'Running')).toContainText('55');
    await expect(page.getByText('55 jobs, 25 on this page')).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(26);
    await expect(table.getByRole('link', { name: `#${ids[0]}`, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: `#${quietId}`, exact: true })).toHaveCount(0);

    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(`/reservations?queue=${encodeURIComponent(busy)}&page=2&connection=default`);
    await expect(pager).toContainText('Reservations 26–50 of 55, page 2 of 3');
    await expect(table.getByRole('link', { name: `#${ids[25]}`, exact: true })).toBeVisible();
    await pager.getByRole('link', { name: 'Last' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/reservations?queue=${encodeURIComponent(busy)}&page=3&connection=default`);
    await expect(pager).toContainText('Reservations 51–55 of 55, page 3 of 3');
    await expect(table.getByRole('row')).toHaveCount(6);
    for (const id of ids.slice(50)) await expect(table.getByRole('link', { name: `#${id}`, exact: true })).toBeVisible();
    await expect(pager.getByRole('link', { name: 'Next' })).toHaveCount(0);
    await expect(pager.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', `/reservations?queue=${encodeURIComponent(busy)}&page=2`);
    for (const [colorScheme, width] of [
      ['light', 1400],
      ['dark', 1400],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      const screenshot = await page.screenshot({ fullPage: true, path: testInfo.outputPath(`reservations-last-page-${colorScheme}-${width}.png`) });
      await testInfo.attach(`reservations, the last page of a queue, ${colorScheme}, ${width} px`, { body: screenshot, contentType: 'image/png' });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 720 });

    await picker.selectOption(quiet);
    await filter.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(`/reservations?queue=${encodeURIComponent(quiet)}&connection=default`);
    await expect(holderTable(page, 'quiet-host:2').getByRole('link', { name: `#${quietId}`, exact: true })).toBeVisible();
    await expect(table).toHaveCount(0);
    await expect(pager).toHaveCount(0);

    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await expect(page).toHaveURL(/\/reservations\?connection=default$/);
    await expect(picker).toHaveValue('');

    await page.goto('/reservations?queue=no-such-queue');
    await expect(page.getByText('No job of no-such-queue is reserved.')).toBeVisible();
    await expect(picker).toHaveValue('no-such-queue');
  });
});
