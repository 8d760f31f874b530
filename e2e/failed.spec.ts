import type { Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { connectE2eQueue, restartableRedis, RESTARTABLE_APP_PORT, RESTARTABLE_REDIS_PORT } from './support';
import { deleteKeysButSessions } from './spec-keys';

const FIRST_FAILURE = 1_780_000_000; // 2026-05-28 20:26:40 UTC

/**
 * Fails `count` jobs on `queueName` and gives them distinct failure times, a
 * minute apart in id order, so "newest first" is the highest id first.
 */
async function failJobs(queue: RedisQueue, count: number, queueName = 'emails', name = 'mail.send'): Promise<number[]> {
  const ids = await queue.pushMany(Array.from({ length: count }, (_, n) => ({ queue: queueName, name, payload: { n } })));
  for (let job = await queue.reserve([queueName], 'e2e:1', 300); job; job = await queue.reserve([queueName], 'e2e:1', 300)) {
    await queue.fail(job, `Error: ${job.name} #${job.id} broke\n  at handler (worker.php:12)`);
  }
  const scores = ids.flatMap((id, n) => [FIRST_FAILURE + 60 * n, String(id)]);
  await queue.redis.zadd(queue.keys.failed, ...scores);
  return ids;
}

function rowIds(page: Page) {
  return page.getByRole('table', { name: 'Failed jobs, newest first' }).getByRole('rowheader');
}

async function select(page: Page, ids: number[]) {
  for (const id of ids) await page.getByRole('checkbox', { name: `Select job ${id}` }).check();
}

test.describe('failed jobs', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterEach(async () => {
    await deleteKeysButSessions(queue.redis, queue.keys.prefix);
  });

  test.afterAll(async () => {
    await queue.close();
  });

  test('pages through every failed job, newest first', async ({ page }, testInfo) => {
    const ids = await failJobs(queue, 120);
    await page.goto('/failed');
    await expect(page.getByText('Showing 1–25 of 120 failed jobs, newest first')).toBeVisible();
    await expect(rowIds(page)).toHaveText(ids.slice(-25).reverse().map(String));
    await expect(page.getByText('Page 1 of 5')).toBeVisible();
    await testInfo.attach('failed page', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await page.getByRole('link', { name: 'Older' }).click();
    await expect(page).toHaveURL(/\/failed\?page=2&connection=default$/);
    await expect(rowIds(page)).toHaveText(ids.slice(70, 95).reverse().map(String));
    await page.getByRole('link', { name: 'Oldest' }).click();
    await expect(rowIds(page)).toHaveText(ids.slice(0, 20).reverse().map(String));
    await expect(page.getByText('Showing 101–120 of 120 failed jobs, newest first')).toBeVisible();
  });

  test('retries one job back onto its own queue with attempts 0', async ({ page }) => {
    const [id] = await failJobs(queue, 1, 'reports', 'report.build');
    await page.goto('/failed');
    await select(page, [id!]);
    await page.getByRole('button', { name: 'Retry 1' }).click();
    await expect(page.getByText('Retried 1 job')).toBeVisible();
    await expect(page.getByText('No failed jobs.')).toBeVisible();
    expect(await queue.redis.hget(queue.keys.job(id!), 'attempts')).toBe('0');
    expect(await queue.stats()).toEqual([{ queue: 'reports', pending: 1, delayed: 0, reserved: 0, total: 1 }]);
  });

  test('forgets one job after confirming, and cancelling first keeps it', async ({ page }) => {
    const [first, second] = await failJobs(queue, 2);
    await page.goto('/failed');
    await select(page, [first!]);
    await page.getByRole('button', { name: 'Forget 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget 1 job?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await queue.failedCount()).toBe(2);

    await page.getByRole('button', { name: 'Forget 1' }).click();
    await dialog.getByRole('button', { name: 'Forget 1' }).click();
    await expect(page.getByText('Forgot 1 job')).toBeVisible();
    await expect(rowIds(page)).toHaveText([String(second)]);
    expect(await queue.redis.exists(queue.keys.job(first!))).toBe(0);
  });

  test('forgets everything that failed before a date, naming the count first', async ({ page }) => {
    const ids = await failJobs(queue, 5);
    // One failure a minute from 20:26:40 UTC: three of them before 20:29:00.
    await page.goto('/failed');
    await page.getByLabel('Failed before (UTC date)').fill('2026-05-28');
    await page.getByLabel('Time (UTC, optional)').fill('20:29:00');
    await page.getByRole('button', { name: 'Forget failed before…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget 3 failed jobs?' });
    await dialog.getByRole('button', { name: 'Forget 3' }).click();
    await expect(page.getByText('Forgot 3 jobs')).toBeVisible();
    await expect(rowIds(page)).toHaveText(ids.slice(3).reverse().map(String));
  });

  test('retries every failed job in bounded steps with progress', async ({ page }) => {
    await failJobs(queue, 450);
    await page.goto('/failed');
    await page.getByRole('checkbox', { name: 'Select the jobs shown' }).check();
    await page.getByRole('button', { name: 'Select all 450 jobs failed' }).click();
    await expect(page.getByText('All 450 jobs selected')).toBeVisible();
    await page.getByLabel('Max attempts on retry').fill('7');
    await page.getByRole('button', { name: 'Retry 450' }).click();
    // Past 100 jobs a retry asks first; these failed with distinct errors, so no warning is given.
    const dialog = page.getByRole('dialog', { name: 'Retry 450 jobs?' });
    await expect(dialog).not.toContainText('will likely fail again');
    await dialog.getByRole('button', { name: 'Retry 450' }).click();
    await expect(page.getByText('Retried 450 jobs')).toBeVisible();
    await expect(page.getByText('No failed jobs.')).toBeVisible();
    expect(await queue.stats()).toEqual([{ queue: 'emails', pending: 450, delayed: 0, reserved: 0, total: 450 }]);
    expect(await queue.redis.hget(queue.keys.job(1), 'max_attempts')).toBe('7');
  });

  test('forgetting every failed job asks for the word forget', async ({ page }) => {
    await failJobs(queue, 60);
    await page.goto('/failed');
    // Checked before the page has hydrated, the box does not stay checked: check again until it does.
    await expect(async () => page.getByRole('checkbox', { name: 'Select the jobs shown' }).check({ timeout: 2_000 })).toPass();
    await page.getByRole('button', { name: 'Select all 60 jobs failed' }).click();
    await page.getByRole('button', { name: 'Forget 60' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget every failed job (60 jobs)?' });
    const confirm = dialog.getByRole('button', { name: 'Forget 60' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type forget to confirm').fill('forget');
    await confirm.click();
    await expect(page.getByText('Forgot 60 jobs')).toBeVisible();
    expect(await queue.failedCount()).toBe(0);
  });

  test('two tabs retrying the same job: one requeues it, the other is told it was no longer failed', async ({ browser }) => {
    const [id] = await failJobs(queue, 1);
    const [first, second] = await Promise.all([browser.newPage(), browser.newPage()]);
    for (const tab of [first!, second!]) {
      await tab.goto('/failed');
      await select(tab, [id!]);
    }
    // The second tab is the stale one: without updates its row cannot vanish under the click once the first retried it.
    await second!.getByRole('combobox', { name: 'Refresh' }).selectOption({ label: 'Off' });
    await expect(second!.getByText('Updates off', { exact: true })).toBeVisible();
    await first!.getByRole('button', { name: 'Retry 1' }).click();
    await expect(first!.getByText('Retried 1 job')).toBeVisible();
    await second!.getByRole('button', { name: 'Retry 1' }).click();
    await expect(second!.getByText('Retried 0 jobs, 1 was no longer failed')).toBeVisible();
    expect(await queue.redis.xlen(queue.keys.stream('emails', 0))).toBe(1);
  });

  test('searches by job name and error text, showing its progress', async ({ page }) => {
    await failJobs(queue, 30, 'emails', 'mail.send');
    await failJobs(queue, 3, 'reports', 'report.build');
    await page.goto('/failed');
    await page.getByLabel('Job name contains').fill('REPORT');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/failed\?name=REPORT&connection=default$/);
    await expect(page.getByText('Searched 33 of 33 failed jobs, 3 matches')).toBeVisible();
    await expect(rowIds(page)).toHaveCount(3);

    await page.goto('/failed?error=%2312+broke');
    await expect(page.getByText('Searched 33 of 33 failed jobs, 1 match')).toBeVisible();
    await expect(rowIds(page)).toHaveText(['12']);
  });

  test('renders job data as text: markup in names and errors runs nothing', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    await failJobs(queue, 1, '<img src=x onerror=alert(1)>', '<script>alert(2)</script>');
    await page.goto('/failed');
    await expect(page.getByRole('link', { name: '<img src=x onerror=alert(1)>' })).toBeVisible();
    await expect(page.getByText('<script>alert(2)</script>', { exact: true })).toBeVisible();
    await page.waitForTimeout(500);
    expect(dialogs).toBe(0);
  });
});

test.describe('when Redis goes away', () => {
  const { start: startRedis, stop: stopRedis } = restartableRedis();

  test.afterAll(stopRedis);

  test('shows a banner naming the server, then recovers by itself when Redis is back', async ({ page }) => {
    startRedis();
    const url = `http://127.0.0.1:${RESTARTABLE_APP_PORT}/failed`;
    await expect(async () => {
      await page.goto(url);
      await expect(page.getByText('No failed jobs.')).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });

    await stopRedis();
    const banner = page.getByRole('alert', { name: 'Cannot read the failed jobs' });
    await expect(banner).toBeVisible({ timeout: 15_000 });
    await expect(banner).toContainText(`127.0.0.1:${RESTARTABLE_REDIS_PORT}`);

    await page.reload();
    await expect(page.getByRole('alert', { name: 'Cannot read the failed jobs' })).toBeVisible();

    startRedis();
    await expect(banner).toBeHidden({ timeout: 20_000 });
    await expect(page.getByText('No failed jobs.')).toBeVisible();
  });
});
