import type { Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { jobHref, trashHref } from '@/lib/routes';
import { connectE2eQueue, e2eDashboardPrefix, e2eSecrets, overviewAddress } from './support';
import { deleteKeysButSessions } from './spec-keys';
import { axeViolations, expectNoAxeViolations } from './axe';
import { screenshots } from './layout-pages';

/** Fails `count` jobs on `queueName` from their reservations; their ids. */
async function failJobs(queue: RedisQueue, count: number, queueName = 'trash-e2e'): Promise<number[]> {
  const ids = await queue.pushMany(Array.from({ length: count }, (_, n) => ({ queue: queueName, name: 'csv.import', payload: { n, html: '<b>x</b>' } })));
  for (let job = await queue.reserve([queueName], 'e2e:1', 300); job; job = await queue.reserve([queueName], 'e2e:1', 300)) {
    await queue.fail(job, 'row 159 has 7 columns');
  }
  return ids;
}

/** A job's hash as bytes, and its failed set score: what a forget and a restore must leave identical. */
async function failedJobBytes(queue: RedisQueue, id: number): Promise<{ fields: Record<string, string>; score: string | null }> {
  const fields = await queue.redis.hgetallBuffer(queue.keys.job(id));
  return {
    fields: Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, value.toString('hex')])),
    score: await queue.redis.zscore(queue.keys.failed, String(id)),
  };
}

function toast(page: Page, text: string) {
  return page
    .getByRole('status')
    .filter({ hasText: text })
    .or(page.getByRole('alert').filter({ hasText: text }));
}

test.describe('the trash', () => {
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

  test('Undo in the toast after a forget from the failed list puts the jobs back byte for byte', async ({ page }) => {
    const ids = await failJobs(queue, 2);
    const before = await Promise.all(ids.map((id) => failedJobBytes(queue, id)));
    await page.goto('/failed');
    for (const id of ids) await page.getByRole('checkbox', { name: `Select job ${id}` }).check();
    await page.getByRole('button', { name: 'Forget 2' }).click();
    await page.getByRole('dialog', { name: 'Forget 2 jobs?' }).getByRole('button', { name: 'Forget 2' }).click();
    await expect(toast(page, 'Forgot 2 jobs. Kept in the Trash.')).toBeVisible();
    expect(await queue.failedCount()).toBe(0);

    await toast(page, 'Forgot 2 jobs').getByRole('button', { name: 'Undo' }).click();
    await expect(toast(page, 'Restored 2 jobs')).toBeVisible();
    expect(await Promise.all(ids.map((id) => failedJobBytes(queue, id)))).toEqual(before);
    await expect(page.getByRole('checkbox', { name: `Select job ${ids[0]}` })).toBeVisible();
  });

  test('a forget from the job page lands back on the failed list with Undo', async ({ page }) => {
    const [id] = await failJobs(queue, 1);
    const before = await failedJobBytes(queue, id!);
    await page.goto(jobHref(id!));
    await page.getByRole('button', { name: 'Forget…' }).click();
    await page
      .getByRole('dialog', { name: `Forget job ${id}?` })
      .getByRole('button', { name: `Forget job ${id}` })
      .click();
    await expect(page).toHaveURL(/\/failed\?connection=default$/);
    await toast(page, `Forgot job ${id}`).getByRole('button', { name: 'Undo' }).click();
    await expect(toast(page, 'Restored 1 job')).toBeVisible();
    expect(await failedJobBytes(queue, id!)).toEqual(before);
  });

  test('a failed job is edited, its changes shown, retried with the edit byte for byte, and its original restored once the retried job is done', async ({
    page,
  }, testInfo) => {
    const [id] = await failJobs(queue, 1);
    const original = await queue.redis.hget(queue.keys.job(id!), 'payload');
    const before = await failedJobBytes(queue, id!);
    await page.goto(jobHref(id!));
    await page.getByRole('button', { name: 'Edit payload and retry…' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit job ${id}'s payload and retry it` });
    const editor = dialog.getByRole('textbox', { name: 'Payload (JSON: an object or an array)' });
    await expect(editor).toHaveValue(original!);
    await expect(dialog.getByRole('button', { name: 'Retry with this payload' })).toBeDisabled();
    await editor.fill('"just a string"');
    await expect(dialog.getByText('The payload must be a JSON object or array')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Retry with this payload' })).toBeDisabled();
    const edited = '{"n":0,"html":"<b>x</b>","skip":[159]}';
    await editor.fill(edited);
    const changes = dialog.getByLabel('Changes to the payload');
    await expect(changes).toContainText('"skip": [');
    await expect(changes.locator('.sr-only', { hasText: 'added:' }).first()).toBeAttached();
    await screenshots(page, testInfo, 'edit and retry dialog');
    await expectNoAxeViolations(page, 'edit and retry dialog');
    await dialog.getByRole('button', { name: 'Retry with this payload' }).click();
    const retried = toast(page, `Job ${id} was retried with the edited payload. Kept in the Trash.`);
    await expect(retried).toBeVisible();
    expect(await queue.redis.hget(queue.keys.job(id!), 'payload')).toBe(edited);
    expect(await queue.failedCount()).toBe(0);

    // While the retried job lives its id is taken: Undo says so and keeps the original.
    await retried.getByRole('button', { name: 'Undo' }).click();
    await expect(toast(page, 'its id has been taken by another job meanwhile')).toBeVisible();
    const job = (await queue.reserve(['trash-e2e'], 'e2e:2', 300))!;
    expect(job.payload).toBe(edited);
    await queue.complete(job);
    await page.goto(trashHref);
    await page.getByRole('button', { name: `Restore job ${id}` }).click();
    await expect(toast(page, 'Restored 1 job')).toBeVisible();
    expect(await failedJobBytes(queue, id!)).toEqual(before);
  });

  test('the Trash page lists what was forgotten, newest first, restores a row, and says when it is empty', async ({ page }, testInfo) => {
    const ids = await failJobs(queue, 2);
    const trash = { dashboardPrefix: e2eDashboardPrefix(), keepSeconds: 86_400, maxEntries: 10_000, maxBytes: 1 << 30, via: 'cli' };
    await queue.forgetFailedIds([ids[0]!], { ...trash, who: 'first operator' });
    await queue.forgetFailedIds([ids[1]!], { ...trash, who: 'second operator' });
    await page.goto('/');
    await page.getByRole('navigation').getByRole('link', { name: 'Trash' }).click();
    await expect(page).toHaveURL(new RegExp(`${trashHref}\\?connection=default$`));
    const table = page.getByRole('table', { name: 'Trashed jobs' });
    await expect(table.getByRole('rowheader')).toHaveText([String(ids[1]), String(ids[0])]);
    await expect(table).toContainText('first operator (cli)');
    await expect(table).toContainText('failed jobs of trash-e2e');
    await expect(page.getByText(/Forgotten and removed jobs are kept here whole for 1 day .* and 64 MiB of Redis memory .* They take \d/)).toBeVisible();
    // The filter is in the address; the operator's name narrows, and one nobody has matches none.
    const filter = page.getByRole('search', { name: 'Filter the trash' });
    await filter.getByLabel('By (operator name contains)').fill('first');
    await filter.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(new RegExp(`${trashHref}\\?who=first&connection=default$`));
    await expect(table.getByRole('rowheader')).toHaveText([String(ids[0])]);
    await filter.getByLabel('Taken from').selectOption('ready');
    await filter.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByText('No trashed job matches this filter.')).toBeVisible();
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await expect(table.getByRole('rowheader')).toHaveText([String(ids[1]), String(ids[0])]);
    await expect(filter.getByLabel('By (operator name contains)')).toHaveValue('');
    await expect(filter.getByLabel('Taken from')).toHaveValue('');
    for (const [colorScheme, width] of [
      ['light', 1400],
      ['dark', 390],
    ] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(page), `${colorScheme}, ${width} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${colorScheme}, ${width} px`).toBe(true);
      await page.screenshot({ path: testInfo.outputPath(`trash-${colorScheme}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1400, height: 900 });

    await page.getByRole('button', { name: `Restore job ${ids[0]}` }).click();
    await expect(toast(page, 'Restored 1 job')).toBeVisible();
    await expect(table.getByRole('rowheader')).toHaveText([String(ids[1])]);
    expect(await queue.redis.zscore(queue.keys.failed, String(ids[0]))).not.toBeNull();

    // The id was taken meanwhile: refused, and the job stays in the trash.
    await queue.redis.hset(queue.keys.job(ids[1]!), 'name', 'someone else');
    await page.getByRole('button', { name: `Restore job ${ids[1]}` }).click();
    await expect(toast(page, `Job ${ids[1]} was not restored: its id has been taken by another job meanwhile`)).toBeVisible();
    await queue.redis.del(queue.keys.job(ids[1]!));
    await page.getByRole('button', { name: `Restore job ${ids[1]}` }).click();
    await expect(page.getByText('The trash is empty')).toBeVisible();
  });

  test('a viewer sees the trash without Restore, and a restore posted all the same is refused', async ({ browser }) => {
    const [id] = await failJobs(queue, 1);
    await queue.forgetFailedIds([id!], {
      dashboardPrefix: e2eDashboardPrefix(),
      keepSeconds: 86_400,
      maxEntries: 10_000,
      maxBytes: 1 << 30,
      who: 'operator',
      via: 'dashboard',
    });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Secret').fill(e2eSecrets().viewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(overviewAddress());
    await page.goto(trashHref);
    await expect(page.getByRole('table', { name: 'Trashed jobs' }).getByRole('rowheader')).toHaveText([String(id)]);
    await expect(page.getByRole('button', { name: `Restore job ${id}` })).toHaveCount(0);
    await expect(page.getByText('Only an operator can change queues, and you are signed in as a viewer.')).toBeVisible();
    // The action itself refuses a viewer's POST too: e2e/access.spec.ts posts restoreJobs with a viewer's session.
    expect(await queue.redis.exists(queue.keys.job(id!))).toBe(0);
    expect(await queue.redis.zscore(queue.trashKeys(e2eDashboardPrefix()).index, String(id))).not.toBeNull();
    await context.close();
  });

  test('a retry of more than 100 jobs asks first, and says when they failed alike', async ({ page }) => {
    await failJobs(queue, 101);
    await page.goto('/failed');
    await expect(async () => page.getByRole('checkbox', { name: 'Select the jobs shown' }).check({ timeout: 2_000 })).toPass();
    await page.getByRole('button', { name: 'Select all 101 jobs failed' }).click();
    await page.getByRole('button', { name: 'Retry 101' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry 101 jobs?' });
    await expect(dialog).toContainText("Of the newest 25 shown, all 25 failed with 'row 159 has 7 columns': a retry will likely fail again.");
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await queue.failedCount()).toBe(101);
  });
});

test.describe('pushing a job and running a copy of one', () => {
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

  test('Push a job… writes what queuelens push writes, byte for byte, and Run a copy… pushes a new job from a job', async ({ page }, testInfo) => {
    const [failed] = await failJobs(queue, 1, 'push-e2e');
    await page.goto('/queues/push-e2e');
    await page.getByRole('button', { name: 'Push a job…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push a job to push-e2e' });
    await expect(dialog.getByRole('button', { name: 'Push job' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('csv.import');
    const payload = '{"file": "b.csv", "rows": 9007199254740993, "note": "<b>x</b>"}';
    await dialog.getByRole('textbox', { name: 'Payload (JSON: an object or an array)' }).fill(payload);
    await dialog.getByRole('textbox', { name: 'Delay (seconds)' }).fill('600');
    await dialog.getByRole('textbox', { name: 'Priority (higher runs first)' }).fill('5');
    await screenshots(page, testInfo, 'push a job dialog');
    await expectNoAxeViolations(page, 'push a job dialog');
    await dialog.getByRole('button', { name: 'Push job' }).click();
    const pushed = Number(/Job (\d+) is on push-e2e/.exec((await toast(page, 'is on push-e2e').textContent()) ?? '')?.[1]);
    expect(await queue.redis.hmget(queue.keys.job(pushed), 'name', 'payload', 'priority', 'max_attempts')).toEqual(['csv.import', payload, '5', '3']);
    expect(await queue.redis.zscore(queue.keys.delayed('push-e2e'), String(pushed))).not.toBeNull();

    await page.goto(jobHref(failed!));
    await page.getByRole('button', { name: 'Run a copy…' }).click();
    const copy = page.getByRole('dialog', { name: 'Push a job to push-e2e' });
    await expect(copy.getByRole('textbox', { name: 'Name' })).toHaveValue('csv.import');
    const original = await queue.redis.hget(queue.keys.job(failed!), 'payload');
    await expect(copy.getByRole('textbox', { name: 'Payload (JSON: an object or an array)' })).toHaveValue(original!);
    await copy.getByRole('button', { name: 'Push job' }).click();
    const copied = Number(/Job (\d+) is on push-e2e/.exec((await toast(page, 'is on push-e2e').last().textContent()) ?? '')?.[1]);
    expect(copied).not.toBe(failed);
    const job = (await queue.reserve(['push-e2e'], 'e2e:3', 300))!;
    expect([job.id, job.payload]).toEqual([copied, original]);
    expect(await queue.failedCount()).toBe(1);
  });
});
