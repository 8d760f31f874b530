import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { queuesTable } from './overview-table';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { writeWaitingJob } from './backdated-job';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { ALERT_QUEUES } from './support';

/** How long the late queue's only job has waited when the spec starts: well over its 1 min threshold (E2E_ALERTS). */
const LATE_BY_SECONDS = 600;

function rowOf(page: Page, queue: string): Locator {
  return queuesTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: queue, exact: true }) });
}

function summary(page: Page): Locator {
  return page.getByRole('note', { name: /over (its|their) alert thresholds$/ });
}

test.describe('alert thresholds', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test.beforeAll(async () => {
    // One ready job that joined its stream ten minutes ago.
    await writeWaitingJob(queue, keys, keys.fixedQueueName(ALERT_QUEUES.late), LATE_BY_SECONDS);

    // Five jobs against a backlog threshold of 3.
    const full = keys.fixedQueueName(ALERT_QUEUES.full);
    await queue.pushMany(Array.from({ length: 5 }, (_, n) => ({ queue: full, name: 'e2e.full', payload: { n } })));

    // Under both of its thresholds: one job just pushed (an hour's wait allowed, 100 jobs).
    await queue.push(keys.fixedQueueName(ALERT_QUEUES.calm), 'e2e.calm', {});
  });

  test('marks each queue over a threshold with which one and by how much, counts them at the top, and leaves a queue under its thresholds alone', async ({
    page,
  }) => {
    await page.goto('/');

    // The wait comes from the sampler's latest point, so it shows once a sample has seen the entry.
    const late = rowOf(page, ALERT_QUEUES.late);
    await expect(late.getByText(/^wait 10 min( \d+ s)? over 1 min$/)).toBeVisible();
    await expect(late.getByText('Over threshold', { exact: true })).toBeVisible();
    const full = rowOf(page, ALERT_QUEUES.full);
    await expect(full.getByText('backlog 5 over 3', { exact: true })).toBeVisible();
    await expect(full.getByText('Over threshold', { exact: true })).toBeVisible();
    await expect(summary(page)).toHaveAccessibleName('2 queues over their alert thresholds');

    const calm = rowOf(page, ALERT_QUEUES.calm);
    // Judged on a sample too: its wait is known, and under an hour.
    await expect(calm.getByRole('cell').last()).toHaveText(/^\d+ s$/);
    await expect(calm.getByRole('rowheader')).toHaveText(ALERT_QUEUES.calm);
    await expect(calm.getByText('Over threshold')).toHaveCount(0);
  });

  test('looks right in light and dark, on a desktop and a phone, with queues over their thresholds', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(summary(page)).toHaveAccessibleName('2 queues over their alert thresholds');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await testInfo.attach(`overview with alerts, ${colorScheme}, ${width} px`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: 'image/png',
        });
        // The warning is in the queue's own cell, so a phone shows it without scrolling the table sideways.
        const warning = await rowOf(page, ALERT_QUEUES.late)
          .getByText(/^wait 10 min/)
          .boundingBox();
        expect(warning!.x + warning!.width).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    }
  });

  test('clears a queue that comes back to its threshold, without a reload', async ({ page }) => {
    await page.goto('/');
    const full = rowOf(page, ALERT_QUEUES.full);
    await expect(full.getByText('Over threshold', { exact: true })).toBeVisible();
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    // Two jobs done leave three: at the threshold, which is not over it.
    for (let done = 0; done < 2; done++) {
      const job = await queue.reserve([ALERT_QUEUES.full], 'e2e-alerts:1', 60);
      await queue.complete(job!);
    }

    await expect(full.getByText('Over threshold')).toHaveCount(0);
    await expect(full.getByRole('rowheader')).toHaveText(ALERT_QUEUES.full);
    await expect(summary(page)).toHaveAccessibleName('1 queue over its alert thresholds');
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);
  });
});
