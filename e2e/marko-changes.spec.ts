import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { MARKO_RETRY } from '@/lib/layouts/marko/failed';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MARKO_MOVES_DUE_JOBS } from '@/lib/layouts/marko/absent';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { axeViolations } from './axe';
import { jobIds, screenshots, showConnection } from './layout-pages';
import { MARKO_CONNECTION, connectE2eQueue, e2eDashboardPrefix } from './support';
import { dashboardKeys, trashKeys } from '@/lib/dashboard/keys';

// The failed page and the line repairs on a marko connection: each test writes its own jobs as marko's documented scripts do, and deletes them after.

const FIRST_FAILURE = 1_780_000_000; // 2026-05-28 20:26:40 UTC
const MAIL_JOB = { className: 'App\\Jobs\\SendMail', data: { to: 'a@example.test' } };

/** The failed table's ids in the order shown (its row headers). */
function rowIds(page: Page) {
  return page.getByRole('table', { name: 'Failed jobs, newest first' }).getByRole('rowheader');
}

async function select(page: Page, ids: readonly string[]) {
  // A check that lands before the page hydrated does not stay: check again until it does.
  for (const id of ids) await expect(async () => page.getByRole('checkbox', { name: `Select job ${id}` }).check({ timeout: 2_000 })).toPass();
}

test.describe('a marko connection’s failed jobs and repairs', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let worker: MarkoTestWorker;
  const prefix = MARKO_CONNECTION.prefix();
  const keys = new MarkoKeys(prefix);

  /** Fails `count` marko jobs of `queueName`, a minute apart from FIRST_FAILURE in the order returned (the last is the newest). */
  async function failJobs(count: number, { queueName = 'mail', error = 'RuntimeException: SMTP refused', from = 0 } = {}): Promise<string[]> {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const id = await worker.push(queueName, MAIL_JOB);
      await worker.fail(queueName, id, `${error} #${n}\n#0 /app/src/Mailer.php(40)`, FIRST_FAILURE + 60 * (from + n));
      ids.push(id);
    }
    return ids;
  }

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    worker = new MarkoTestWorker(queue.redis, prefix);
  });

  /** The queue's keys, and what its forgets kept in QueueLens's trash. */
  const deleteQueueKeys = async () => {
    await deleteKeysUnder(queue.redis, prefix);
    await deleteKeysUnder(queue.redis, trashKeys(dashboardKeys(e2eDashboardPrefix()), prefix).prefix);
  };

  test.beforeEach(async ({ page }) => {
    await deleteQueueKeys();
    await showConnection(page, MARKO_CONNECTION.name);
  });

  test.afterAll(async () => {
    await deleteQueueKeys();
    await queue.close();
  });

  test('lists failed jobs newest first through every page, filters them, and copies the command that retries one, with no Retry button', async ({
    page,
    context,
  }, testInfo) => {
    // Two pages at four sizes each, and axe: more than the default half minute on a loaded machine.
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const ids = await failJobs(60);
    const reports = await failJobs(2, { queueName: 'reports', error: 'LogicException: no template', from: 60 });
    const newestFirst = [...ids, ...reports].reverse();
    await page.goto('/failed');
    await expect(page.getByText('Showing 1–25 of 62 failed jobs, newest first')).toBeVisible();
    await expect(rowIds(page)).toHaveText(newestFirst.slice(0, 25));
    await expect(page.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Attempts' })).toHaveCount(0);
    const notice = page.getByRole('region', { name: 'Retrying is done where the application runs' });
    await expect(notice).toContainText(MARKO_RETRY.absent);
    await expect(notice).toContainText('marko queue:retry --all');

    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: ids[59]!, exact: true }) });
    await expect(row).toContainText(`marko queue:retry ${ids[59]}`);
    await expect(async () => {
      await row.getByRole('button', { name: `Copy the retry command of job ${ids[59]}` }).click();
      await expect(row.getByText('Copied', { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`marko queue:retry ${ids[59]}`);

    await select(page, [ids[59]!, ids[58]!]);
    const commands = page.getByRole('region', { name: 'Retry commands for the selected jobs' });
    await expect(commands).toHaveText(`marko queue:retry ${ids[59]}\nmarko queue:retry ${ids[58]}`);
    await page.getByRole('button', { name: 'Copy 2 retry commands' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`marko queue:retry ${ids[59]}\nmarko queue:retry ${ids[58]}`);

    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, testInfo, 'failed page of a marko connection, two selected');

    await page.getByRole('link', { name: 'Older' }).click();
    await expect(page).toHaveURL(new RegExp(`/failed\\?page=2&connection=${MARKO_CONNECTION.name}$`));
    await expect(rowIds(page)).toHaveText(newestFirst.slice(25, 50));
    await expect(page.getByText('Showing 26–50 of 62 failed jobs, newest first')).toBeVisible();

    await page.goto('/failed?queue=reports');
    await expect(page.getByText('Searched 62 of 62 failed jobs, 2 matches')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Failed jobs, newest first' })).toContainText('LogicException: no template');
    await page.goto('/failed?error=SMTP+refused+%2342');
    await expect(page.getByText('Searched 62 of 62 failed jobs, 1 match')).toBeVisible();
    await screenshots(page, testInfo, 'failed page of a marko connection, filtered by error');
    // The same error looked for in every state, on Find: still only the one failed job.
    await page.getByRole('link', { name: 'Look in every state, not only failed' }).click();
    await expect(page).toHaveURL(new RegExp(`/find\\?text=SMTP\\+refused\\+%2342&field=error&connection=${MARKO_CONNECTION.name}$`));
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('Done.');
    await expect(page.getByRole('table', { name: 'Jobs found' }).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('table', { name: 'Jobs found' }).getByRole('link', { name: ids[42]!, exact: true })).toBeVisible();
    await page.goBack();
    await expect(rowIds(page)).toHaveText([ids[42]!]);

    // A failed job's own page says it failed, and has its command too.
    await rowIds(page).getByRole('link', { name: ids[42]!, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Job ${ids[42]}` })).toBeVisible();
    const failed = page.getByRole('region', { name: 'It failed' });
    await expect(failed).toContainText('2026-05-28');
    await expect(failed).toContainText(`marko queue:retry ${ids[42]}`);
    // Its exception whole, and its payload decoded from the failed record.
    await expect(failed.getByLabel('Exception')).toContainText('RuntimeException: SMTP refused #42\n#0 /app/src/Mailer.php(40)');
    await expect(page.getByRole('region', { name: 'The job' })).toContainText(MAIL_JOB.className);
    await expect(page.getByRole('region', { name: 'Its data' })).toContainText(MAIL_JOB.data.to);
    await screenshots(page, testInfo, 'a failed marko job’s page');

    // Forgotten from its own page, after a confirmation, lands back on the failed list.
    const [recordBefore, scoreBefore] = [await queue.redis.hgetBuffer(keys.failedJobs, ids[42]!), await queue.redis.zscore(keys.failedIndex, ids[42]!)];
    await failed.getByRole('button', { name: 'Forget…' }).click();
    const dialog = page.getByRole('dialog', { name: `Forget job ${ids[42]}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await queue.redis.hexists(keys.failedJobs, ids[42]!)).toBe(1);
    await failed.getByRole('button', { name: 'Forget…' }).click();
    await dialog.getByRole('button', { name: `Forget job ${ids[42]}` }).click();
    await expect(page).toHaveURL(new RegExp(`/failed\\?connection=${MARKO_CONNECTION.name}$`));
    await expect(page.getByText('Showing 1–25 of 61 failed jobs, newest first')).toBeVisible();
    const record = await queue.redis.hgetBuffer(keys.failedJobs, ids[42]!);
    expect(record).toBeNull();
    // Kept in QueueLens's trash: Undo puts the record back byte for byte, with its index score.
    await page
      .getByRole('status')
      .filter({ hasText: `Forgot job ${ids[42]}. Kept in the Trash.` })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect(page.getByText('Restored 1 job')).toBeVisible();
    await expect(page.getByText('Showing 1–25 of 62 failed jobs, newest first')).toBeVisible();
    expect(await queue.redis.hgetBuffer(keys.failedJobs, ids[42]!)).toEqual(recordBefore);
    expect(await queue.redis.zscore(keys.failedIndex, ids[42]!)).toBe(scoreBefore);
  });

  test('forgets one after Cancel kept it, then the selected, then those failed before a date', async ({ page }) => {
    const ids = await failJobs(8);
    await page.goto('/failed');
    await select(page, [ids[7]!]);
    await page.getByRole('button', { name: 'Forget 1' }).click();
    const one = page.getByRole('dialog', { name: 'Forget 1 job?' });
    await one.getByRole('button', { name: 'Cancel' }).click();
    await expect(one).toBeHidden();
    expect(await queue.redis.zcard(keys.failedIndex)).toBe(8);
    await page.getByRole('button', { name: 'Forget 1' }).click();
    await one.getByRole('button', { name: 'Forget 1' }).click();
    await expect(page.getByText('Forgot 1 job')).toBeVisible();
    expect(await queue.redis.hexists(keys.failedJobs, ids[7]!)).toBe(0);
    expect(await queue.redis.zscore(keys.failedIndex, ids[7]!)).toBeNull();
    await expect(rowIds(page)).toHaveText(ids.slice(0, 7).reverse());

    await select(page, [ids[6]!, ids[5]!]);
    await page.getByRole('button', { name: 'Forget 2' }).click();
    await page.getByRole('dialog', { name: 'Forget 2 jobs?' }).getByRole('button', { name: 'Forget 2' }).click();
    await expect(page.getByText('Forgot 2 jobs')).toBeVisible();
    await expect(rowIds(page)).toHaveText(ids.slice(0, 5).reverse());

    // A failure a minute from 20:26:40 UTC: three of them before 20:29:00.
    await page.getByLabel('Failed before (UTC date)').fill('2026-05-28');
    await page.getByLabel('Time (UTC, optional)').fill('20:29:00');
    await page.getByRole('button', { name: 'Forget failed before…' }).click();
    await page.getByRole('dialog', { name: 'Forget 3 failed jobs?' }).getByRole('button', { name: 'Forget 3' }).click();
    await expect(page.getByText('Forgot 3 jobs')).toBeVisible();
    await expect(rowIds(page)).toHaveText([ids[4]!, ids[3]!]);
    expect(await queue.redis.hlen(keys.failedJobs)).toBe(2);
  });

  test('forgets every failed job, records without an index entry too, only once the word forget is typed', async ({ page }) => {
    await failJobs(55);
    await queue.redis.hset(keys.failedJobs, 'unindexed', '{}');
    await page.goto('/failed');
    await expect(async () => page.getByRole('checkbox', { name: 'Select the jobs shown' }).check({ timeout: 2_000 })).toPass();
    await page.getByRole('button', { name: 'Select all 55 jobs failed' }).click();
    await expect(page.getByRole('region', { name: 'Retry commands for the selected jobs' })).toHaveText('marko queue:retry --all');
    await page.getByRole('button', { name: 'Forget 55' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget every failed job (55 jobs)?' });
    const confirm = dialog.getByRole('button', { name: 'Forget 55' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type forget to confirm').fill('forget');
    await confirm.click();
    await expect(page.getByText(/^Forgot 5[56] jobs/)).toBeVisible();
    await expect(page.getByText('No failed jobs.')).toBeVisible();
    expect(await queue.redis.exists(keys.failedJobs, keys.failedIndex)).toBe(0);
  });

  test('repairs from the pages: puts an expired reservation back, ends a live one after asking, runs a delayed job now, removes a job; moving due jobs says why it is left to marko', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const now = await worker.now();
    const live = await worker.push('mail', MAIL_JOB);
    const stuck = await worker.push('mail', MAIL_JOB);
    // Popped at an earlier second last, so the first pop cannot put it back: reserved 200 s ago, retry_after 90.
    await worker.pop('mail', { now });
    await worker.pop('mail', { now: now - 200 });
    const delayed = await worker.later(3600, 'mail', MAIL_JOB);
    const due = await worker.later(-30, 'mail', MAIL_JOB);
    const doomed = await worker.push('mail', MAIL_JOB);

    await page.goto('/reservations');
    const reservations = page.getByRole('table', { name: 'Reservations of mail' });
    const stuckRow = reservations.getByRole('row').filter({ has: page.getByRole('link', { name: `#${stuck}`, exact: true }) });
    await expect(stuckRow).toContainText('Expired');
    await screenshots(page, testInfo, 'reservations of a marko queue with their repairs');
    await stuckRow.getByRole('button', { name: `Put back in line job ${stuck} on mail` }).click();
    await expect(page.getByText(`Job ${stuck} is back in line on mail`)).toBeVisible();
    expect(await queue.redis.zscore(keys.reserved('mail'), stuck)).toBeNull();
    expect(Number(await queue.redis.zscore(keys.delayed('mail'), stuck))).toBeLessThan(await worker.now());
    await expect.poll(() => jobIds(page, 'Reservations of mail')).toEqual([live]);

    await page.getByRole('button', { name: `End reservation… job ${live} on mail` }).click();
    const ask = page.getByRole('dialog', { name: `End the reservation of job ${live}?` });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(Number(await queue.redis.zscore(keys.reserved('mail'), live))).toBe(now + 90);
    await page.getByRole('button', { name: `End reservation… job ${live} on mail` }).click();
    await ask.getByRole('button', { name: `End job ${live}'s reservation` }).click();
    await expect(page.getByText(`Job ${live}'s reservation ended`)).toBeVisible();
    expect(await queue.redis.zscore(keys.reserved('mail'), live)).toBe('0');

    await page.goto('/queues/mail/delayed');
    // Due, not moved: the stuck job put back and the one due 30 s ago; no button moves them.
    await expect(page.getByRole('group', { name: 'Due, not moved', exact: true })).toContainText('2');
    await expect(page.getByText(`${MARKO_MOVES_DUE_JOBS}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: /Move due jobs/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'delayed page of a marko queue with Run now');
    await page.getByRole('button', { name: `Run now job ${delayed} on mail` }).click();
    await expect(page.getByText(`Job ${delayed} is due now`)).toBeVisible();
    expect(Number(await queue.redis.zscore(keys.delayed('mail'), delayed))).toBeLessThan(now + 60);

    // marko's next pop takes the due jobs into the line: the repaired ones run.
    const popped = new Set<string>();
    for (let job = await worker.pop('mail'); job; job = await worker.pop('mail')) popped.add(job.id);
    expect([...popped].sort()).toEqual([live, stuck, delayed, due, doomed].sort());
    await worker.complete('mail', live);
    await worker.release('mail', { ...MAIL_JOB, id: doomed, payload: '', attempts: 1 });

    await page.goto(`/jobs/${doomed}?queue=mail`);
    await page.getByRole('button', { name: `Remove job… ${doomed} on mail` }).click();
    const removal = page.getByRole('dialog', { name: `Remove job ${doomed}?` });
    await removal.getByRole('button', { name: 'Cancel' }).click();
    expect(await queue.redis.exists(keys.job(doomed))).toBe(1);
    await page.getByRole('button', { name: `Remove job… ${doomed} on mail` }).click();
    const hash = await queue.redis.hgetallBuffer(keys.job(doomed));
    await removal.getByRole('button', { name: `Remove job ${doomed}` }).click();
    const removed = page.getByRole('status').filter({ hasText: `Job ${doomed} was removed from mail. Kept in the Trash.` });
    await expect(removed).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/queues/mail\\?connection=${MARKO_CONNECTION.name}$`));
    expect(await queue.redis.exists(keys.job(doomed))).toBe(0);
    expect(await queue.redis.lrange(keys.ready('mail'), 0, -1)).not.toContain(doomed);

    // Undo renames its hash back whole and makes it due now: marko's next pop runs it.
    await removed.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Restored 1 job')).toBeVisible();
    expect(await queue.redis.hgetallBuffer(keys.job(doomed))).toEqual(hash);
    expect((await worker.pop('mail'))?.id).toBe(doomed);
    expect(await worker.pop('mail')).toBeNull();
  });
});
