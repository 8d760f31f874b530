import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { axeViolations, expectNoAxeViolations } from './axe';
import { showConnection } from './layout-pages';
import { YII2_CONNECTIONS, connectE2eQueue, e2eDashboardPrefix } from './support';
import { yii2TrashKeys } from '@/lib/layouts/yii2/repairs';

const showNg = (page: Page) => showConnection(page, YII2_CONNECTIONS.ng.name);

/** The row of job `id` in the table named `table`. */
function rowOf(page: Page, table: string, id: string) {
  return page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `#${id}`, exact: true }) });
}

test.describe('repairing a redis-ng channel from its pages', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  const channel = YII2_CONNECTIONS.ng.channel();
  const keys = new Yii2Keys(channel);

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    await loadYii2Fixture(queue.redis, 'ng-strict', channel);
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, `${channel}.`);
    await deleteKeysUnder(queue.redis, yii2TrashKeys(keys, e2eDashboardPrefix()).prefix);
    await queue.close();
  });

  test('every page of the channel, and the repair dialog, has no axe violations, light and dark, at both widths', async ({ page }) => {
    // Twenty axe runs over five pages.
    test.setTimeout(180_000);
    await showNg(page);
    const paths = ['/', `/queues/${encodeURIComponent(channel)}`, '/reservations', `/queues/${encodeURIComponent(channel)}/delayed`, '/jobs/9'];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, path);
    }
    await page.goto('/jobs/9');
    await page.getByRole('button', { name: `Remove job… 9 on ${channel}` }).click();
    expect(await axeViolations(page, 'dialog[open]')).toEqual([]);
    await page.getByRole('dialog', { name: 'Remove job 9?' }).getByRole('button', { name: 'Cancel' }).click();
  });

  test('a live reservation is ended after a warning and put back in line where ng places it', async ({ page }) => {
    await showNg(page);
    await page.goto('/reservations');
    const table = `Reservations of ${channel}`;
    // Job 2 failed and waits out its 600 s TTR: live, and nothing in Redis tells it from a running job.
    await rowOf(page, table, '2').getByRole('button', { name: 'End reservation… job 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the reservation of job 2?' });
    await expect(dialog).toContainText('the job runs twice');
    await dialog.getByRole('button', { name: "End job 2's reservation" }).click();
    await expect(page.getByText("Job 2's reservation ended")).toBeVisible();
    await expect(rowOf(page, table, '2')).toHaveCount(0);
    expect(await queue.redis.zscore(keys.reserved, '2')).toBeNull();
    // Priority 200 under strict scoring: ng's own formula, priority × 10¹² + its join sequence.
    expect(Math.floor(Number(await queue.redis.zscore(keys.prioritized, '2')) / 1e12)).toBe(200);

    // Job 1's killed worker held it 30 s; as if they had passed, it is put back in line without a warning.
    await queue.redis.zadd(keys.reserved, 'XX', 1, '1');
    await page.reload();
    await rowOf(page, table, '1').getByRole('button', { name: 'Put back in line job 1' }).click();
    await expect(page.getByText(`Job 1 is back in line on ${channel}`)).toBeVisible();
    await expect(rowOf(page, table, '1')).toHaveCount(0);
    expect(Math.floor(Number(await queue.redis.zscore(keys.prioritized, '1')) / 1e12)).toBe(100);
  });

  test('a delayed job runs now, and the due jobs are moved into the line', async ({ page }) => {
    // The fixture's two soonest delayed jobs made due now, rather than waiting for the minute after loading that brings them due.
    const [seconds] = await queue.redis.time();
    const [soonest, next] = await queue.redis.zrange(keys.delayed, '0', '1');
    await queue.redis.zadd(keys.delayed, 'XX', Number(seconds) - 10, soonest!, Number(seconds) - 5, next!);
    await showNg(page);
    await page.goto(`/queues/${encodeURIComponent(channel)}/delayed`);
    const table = 'Next jobs due';
    // The last of the next jobs due: the fixture's soonest come due within a minute of loading, this one an hour after.
    const latest = (await page
      .getByRole('table', { name: table })
      .getByRole('link', { name: /^#\d+$/ })
      .last()
      .textContent())!.slice(1);
    await rowOf(page, table, latest)
      .getByRole('button', { name: `Run now job ${latest} on ${channel}` })
      .click();
    await expect(page.getByText(`Job ${latest} is due now`)).toBeVisible();
    expect(await queue.redis.zscore(keys.delayed, latest)).toBeNull();
    expect(await queue.redis.zscore(keys.prioritized, latest)).not.toBeNull();
    await page.getByRole('button', { name: `Move due jobs now of ${channel}` }).click();
    await expect(page.getByText(`The due jobs of ${channel} are in the line`)).toBeVisible();
    await page.goto(`/queues/${encodeURIComponent(channel)}`);
    await expect(page.getByRole('link', { name: `#${latest}`, exact: true })).toBeVisible();
  });

  test('a job is removed after a confirmation into the trash, the operator lands on its queue, and Undo puts it back as it was', async ({ page }) => {
    await showNg(page);
    const message = await queue.redis.hgetBuffer(keys.messages, '7');
    const entries = async () => [
      await queue.redis.hget(keys.attempts, '7'),
      await queue.redis.hget(keys.priorities, '7'),
      await queue.redis.hget(keys.ranks, '7'),
    ];
    const entriesBefore = await entries();
    await page.goto('/jobs/7');
    await page.getByRole('button', { name: `Remove job… 7 on ${channel}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove job 7?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await queue.redis.hexists(keys.messages, '7')).toBe(1);
    await page.getByRole('button', { name: `Remove job… 7 on ${channel}` }).click();
    await dialog.getByRole('button', { name: 'Remove job 7' }).click();
    const removed = page.getByRole('status').filter({ hasText: `Job 7 was removed from ${channel}. Kept in the Trash.` });
    await expect(removed).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/queues/${encodeURIComponent(channel)}\\?connection=${YII2_CONNECTIONS.ng.name}$`));
    expect(await queue.redis.hexists(keys.messages, '7')).toBe(0);
    expect(await queue.redis.zscore(keys.prioritized, '7')).toBeNull();

    await removed.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Restored 1 job')).toBeVisible();
    expect(await queue.redis.hgetBuffer(keys.messages, '7')).toEqual(message);
    expect(await entries()).toEqual(entriesBefore);
    expect(await queue.redis.zscore(keys.prioritized, '7')).not.toBeNull();
  });
});
