import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { delayedOfQueueHref, queueHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { withUtcMoment } from './support';

const DAY = 86_400;

function stat(page: Page, label: string): Locator {
  return page.getByRole('group', { name: label, exact: true });
}

function bars(page: Page, name: string): Locator {
  return page.getByRole('list', { name, exact: true }).getByRole('listitem');
}

async function serverNow(queue: RedisQueue): Promise<number> {
  return Number((await queue.redis.time())[0]);
}

/** Pushes delayed jobs and then sets each one's due time by hand, `at[i]` unix seconds. */
async function delayedAt(queue: RedisQueue, name: string, at: number[], jobName = 'report.build'): Promise<number[]> {
  const ids = await queue.pushMany(at.map((_, index) => ({ queue: name, name: `${jobName}.${index}`, payload: { index }, options: { delaySeconds: 3600 } })));
  for (const [index, id] of ids.entries()) await queue.redis.zadd(queue.keys.delayed(name), at[index]!, String(id));
  return ids;
}

test.describe('delayed timeline', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('counts overdue jobs and what comes due per bucket, flags an unattended queue, and lists the next jobs due', async ({ page }, testInfo) => {
    const name = keys.queueName('timeline');
    const now = await serverNow(queue);
    // Each due time sits well inside its bucket, so the seconds the page takes to load change nothing.
    const [oldest, recent, soon] = await delayedAt(queue, name, [
      now - 3600,
      now - 120,
      now + 150,
      now + 160,
      now + 1000,
      now + 5400,
      now + 2 * DAY + 100,
      now + 8 * DAY,
    ]);

    await page.goto(delayedOfQueueHref(name));

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Delayed jobs of ${name}`);
    await expect(stat(page, 'Delayed')).toContainText('8');
    await expect(stat(page, 'Due, not moved')).toContainText('2');
    await expect(stat(page, 'Due in the next hour')).toContainText('3');
    await expect(stat(page, 'Due in the next day')).toContainText('4');
    await expect(stat(page, 'Due later than a week')).toContainText('1');

    const hour = bars(page, 'Coming due in the next hour');
    await expect(hour).toHaveCount(12);
    await expect(hour.nth(0)).toHaveAccessibleName('in the next 5 min: 2 jobs');
    await expect(hour.nth(3)).toHaveAccessibleName('in 15 min to 20 min: 1 job');
    await expect(hour.nth(4)).toHaveAccessibleName('in 20 min to 25 min: 0 jobs');
    await expect(bars(page, 'Coming due in the next day').nth(1)).toHaveAccessibleName('in 1 h to 2 h: 1 job');
    const week = bars(page, 'Coming due in the next week');
    await expect(week).toHaveCount(7);
    await expect(week.nth(0)).toHaveAccessibleName('in the next 1 d: 4 jobs');
    await expect(week.nth(2)).toHaveAccessibleName('in 2 d to 3 d: 1 job');

    const due = page.getByRole('region', { name: 'Due, not moved in' });
    await expect(due).toContainText('2 jobs are due but not moved into their levels yet. Only a worker taking a job from this queue moves them in');
    await expect(due).toContainText('No worker seems to take jobs from this queue');

    const next = page.getByRole('table', { name: 'Next jobs due' });
    await expect(next.getByRole('link')).toHaveCount(8);
    await expect(next.getByRole('link').first()).toHaveText(`#${oldest}`);
    await expect(next.getByRole('link').nth(1)).toHaveText(`#${recent}`);
    await expect(next.getByRole('link').nth(2)).toHaveAttribute('href', `/jobs/${soon}`);
    const firstRow = next.locator('tbody tr').first();
    await expect(firstRow).toContainText('report.build.0');
    await expect(firstRow.getByRole('cell').nth(2)).toHaveText(withUtcMoment(String.raw`^{moment} \(1 h( \d+ s)? ago\)due, not moved$`));
    await expect(next.locator('tbody tr').nth(2).getByRole('cell').nth(2)).toHaveText(/UTC \(in 2 min \d+ s\)$/);
    await testInfo.attach('delayed timeline, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    // The queue page's glance, linked to the whole timeline.
    await page.goto(queueHref(name));
    const compact = page.getByRole('region', { name: 'Delayed timeline', exact: true });
    await expect(compact).toContainText('2 due, not moved');
    await expect(compact).toContainText('3 due in the next hour · 8 delayed in all');
    await expect(bars(page, 'Coming due in the next hour').nth(0)).toHaveAccessibleName('in the next 5 min: 2 jobs');
    await compact.getByRole('link', { name: 'Whole delayed timeline' }).click();
    await expect(page).toHaveURL(/\/delayed\?connection=default$/);
    await expect(stat(page, 'Due, not moved')).toContainText('2');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await testInfo.attach('delayed timeline, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  test('promotes every due job in steps of 50, and leaves the future ones', async ({ page }) => {
    const name = keys.queueName('promote');
    const now = await serverNow(queue);
    const due = await delayedAt(
      queue,
      name,
      Array.from({ length: 60 }, (_, index) => now - 600 + index),
    );
    await delayedAt(queue, name, [now + 3 * 3600], 'future');
    await page.goto(delayedOfQueueHref(name));
    await expect(stat(page, 'Due, not moved')).toContainText('60');

    await page.getByRole('button', { name: 'Move due jobs now' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Moved 60 jobs into their levels' })).toBeVisible();
    await expect(stat(page, 'Due, not moved')).toContainText('0');
    await expect(stat(page, 'Delayed')).toContainText('1');
    await expect(page.getByRole('region', { name: 'Due, not moved in' })).toContainText('No delayed job is overdue');
    const [counts] = await queue.countsOf([name]);
    expect(counts).toMatchObject({ pending: 60, delayed: 1, reserved: 0 });
    const entries = await queue.redis.xrange(queue.keys.stream(name, 0), '-', '+');
    expect(entries.map(([, fields]) => Number(fields[1]))).toEqual(due);

    await page.goto(queueHref(name));
    await expect(stat(page, 'Pending')).toContainText('60');
  });

  test('runs one future job now, and says so when a worker promoted it first', async ({ page }) => {
    const name = keys.queueName('run-now');
    const weekly = await queue.push(name, 'report.weekly', {}, { delaySeconds: 6 * DAY, priority: 4 });
    const raced = await queue.push(name, 'report.raced', {}, { delaySeconds: 5 * DAY });
    await page.goto(delayedOfQueueHref(name));

    await page.getByRole('button', { name: `Run now job ${weekly}` }).click();
    const dialog = page.getByRole('dialog', { name: `Run job ${weekly} now?` });
    await expect(dialog).toContainText('joins the back of its level');
    await dialog.getByRole('button', { name: `Run job ${weekly} now` }).click();

    await expect(page.getByRole('status').filter({ hasText: `Job ${weekly} is ready: it joined level 4` })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table', { name: 'Next jobs due' }).getByRole('link')).toHaveText([`#${raced}`]);
    expect(await queue.redis.zscore(queue.keys.delayed(name), String(weekly))).toBeNull();
    expect(await queue.redis.xlen(queue.keys.stream(name, 4))).toBe(1);
    expect((await queue.countsOf([name]))[0]).toMatchObject({ pending: 1, delayed: 1 });

    // Promoted by somebody else while the question is open.
    await page.getByRole('button', { name: `Run now job ${raced}` }).click();
    await queue.redis.zadd(queue.keys.delayed(name), 1, String(raced));
    expect((await queue.reserve([name], 'e2e:worker', 300))?.id).toBe(weekly);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Run job ${raced} now` })
      .click();

    await expect(page.getByRole('alert').filter({ hasText: `Job ${raced} was no longer delayed` })).toBeVisible();
    expect(await queue.redis.xlen(queue.keys.stream(name, 0))).toBe(1);
    await expect(page.getByText('This queue has no delayed jobs.')).toBeVisible();
  });

  test('names the holder of a parked job and offers no Run now for it; a job parked while the question is open stays parked', async ({ page }, testInfo) => {
    const name = keys.queueName('parked');
    const now = await serverNow(queue);
    const [parked, later] = await delayedAt(queue, name, [now + 240, now + 3000]);
    // As a reclaim arriving before the holder's deadline leaves a job.
    const park = (id: number, until: number) =>
      queue.redis
        .hset(queue.keys.job(id), 'attempts', '1', 'reserved_by', 'slowhost:1', 'reserved_until', String(until))
        .then(() => queue.redis.zadd(queue.keys.delayed(name), until, String(id)));
    await park(parked!, now + 240);
    await page.goto(delayedOfQueueHref(name));

    const rows = page.getByRole('table', { name: 'Next jobs due' }).locator('tbody tr');
    await expect(rows.first()).toContainText(withUtcMoment(String.raw`Parked: slowhost:1 holds its claim until {moment} \(in \d+ min( \d+ s)?\)`));
    await expect(rows.first()).toContainText('Runs once the claim ends');
    await expect(page.getByRole('button', { name: `Run now job ${parked}` })).toHaveCount(0);
    await testInfo.attach('delayed timeline with a parked job, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await page.getByRole('button', { name: `Run now job ${later}` }).click();
    await park(later!, now + 3000);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Run job ${later} now` })
      .click();

    await expect(page.getByRole('alert').filter({ hasText: `Job ${later} stays parked: slowhost:1 holds its claim until` })).toBeVisible();
    expect(await queue.redis.zscore(queue.keys.delayed(name), String(later))).toBe(String(now + 3000));
    expect(await queue.redis.exists(queue.keys.stream(name, 0))).toBe(0);
    await expect(rows.nth(1)).toContainText('Parked: slowhost:1 holds its claim until');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await testInfo.attach('delayed timeline with a parked job, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  test('says so when a queue has no delayed jobs', async ({ page }) => {
    const name = keys.queueName('nothing-delayed');
    await queue.push(name, 'ready.now', {});
    await page.goto(delayedOfQueueHref(name));
    await expect(page.getByText('This queue has no delayed jobs.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.goto(queueHref(name));
    await expect(page.getByRole('region', { name: 'Delayed timeline', exact: true })).toContainText('No delayed jobs.');
  });
});
