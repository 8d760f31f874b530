import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { queueHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { withUtcMoment } from './support';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function section(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

function table(page: Page, name: string): Locator {
  return page.getByRole('table', { name, exact: true });
}

/** Each body row's cells, as text. */
async function rowsOf(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent?.trim() ?? '')));
}

function stat(page: Page, label: string): Locator {
  return page.getByRole('group', { name: label, exact: true });
}

test.describe('queue page', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('says so when a queue has no jobs left, and answers 404 for a queue never pushed to', async ({ page }) => {
    const name = keys.queueName('drained');
    await queue.push(name, 'mail.send', {});
    await queue.complete((await queue.reserve([name], 'e2e:1', 30))!);
    const response = await page.goto(queueHref(name));

    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Queue ${name}`);
    await expect(page.getByText('This queue has no jobs.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);

    const never = keys.queueName('never-pushed');
    expect((await page.goto(queueHref(never)))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`No queue ${never}`);
  });

  test('shows the levels, the next jobs in order, the delayed jobs due soonest and the latest failed', async ({ page }) => {
    const name = keys.queueName('mail');
    const failed = await queue.push(name, 'mail.bounce', {}, { priority: 9 });
    await queue.fail((await queue.reserve([name], 'e2e:1', 300))!, 'SMTP said no\n  at Mailer.send (mailer.ts:12)');
    const [a, b, c, d, e] = await queue.pushMany(
      [
        ['mail.a', 0],
        ['mail.b', 5],
        ['mail.c', 0],
        ['mail.d', 5],
        ['mail.e', -2],
      ].map(([jobName, priority]) => ({
        queue: name,
        name: String(jobName),
        payload: {},
        options: { priority: Number(priority) },
      })),
    );
    expect((await queue.reserve([name], 'e2e:1', 300))?.id).toBe(b);
    const later = await queue.push(name, 'mail.later', {}, { delaySeconds: 3600 });
    const soon = await queue.push(name, 'mail.soon', {}, { delaySeconds: 1 });
    // Due, and nobody reserves from this queue to promote it.
    await sleep(1_100);

    await page.goto(queueHref(name));

    await expect(stat(page, 'Pending')).toContainText('5');
    await expect(stat(page, 'Delayed')).toContainText('1');
    await expect(stat(page, 'Reserved')).toContainText('1');
    await expect(stat(page, 'Total')).toContainText('7');

    const levels = table(page, 'Priority levels');
    await expect(levels.getByRole('columnheader')).toHaveText(['Level', 'Stream key', 'Length', 'Reserved', 'Consumer group']);
    expect(await rowsOf(levels)).toEqual([
      ['9', queue.keys.stream(name, 9), '0', '0', 'Present'],
      ['5', queue.keys.stream(name, 5), '2', '1', 'Present'],
      ['0', queue.keys.stream(name, 0), '2', '0', 'Not created yet'],
      ['-2', queue.keys.stream(name, -2), '1', '0', 'Not created yet'],
    ]);

    const next = table(page, 'Next jobs to run');
    await expect(next.getByRole('link')).toHaveText([`#${d}`, `#${a}`, `#${c}`, `#${e}`]);
    // Place, Job, Class, Attempts, Priority (the level), Enqueued: the line's columns on every layout.
    expect((await rowsOf(next)).map((row) => [row[2], row[4]])).toEqual([
      ['mail.d', '5'],
      ['mail.a', '0'],
      ['mail.c', '0'],
      ['mail.e', '-2'],
    ]);
    await expect(next.getByRole('link', { name: `#${d}` })).toHaveAttribute('href', `/jobs/${d}`);
    await expect(next.locator('tbody tr').first().getByRole('cell').nth(5)).toHaveText(withUtcMoment(String.raw`^{moment} \((\d+ s ago|now)\)$`));

    const delayed = table(page, 'Delayed jobs, due soonest');
    await expect(delayed.getByRole('link')).toHaveText([`#${soon}`, `#${later}`]);
    const [soonRow, laterRow] = await rowsOf(delayed);
    expect(soonRow?.[1]).toBe('mail.soon');
    expect(soonRow?.[2]).toMatch(/UTC \((\d+ s ago|now)\)due, waiting for a worker to move it into its level$/);
    expect(laterRow?.[1]).toBe('mail.later');
    expect(laterRow?.[2]).toMatch(/UTC \(in (59 min \d+ s|1 h)\)$/);

    const failedJobs = table(page, 'Latest failed jobs');
    const [failedRow] = await rowsOf(failedJobs);
    expect(failedRow?.[0]).toBe(`#${failed}`);
    expect(failedRow?.[1]).toBe('mail.bounce');
    expect(failedRow?.[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d+ s ago\)$/);
    expect(failedRow?.[3]).toBe('SMTP said no');
    await expect(section(page, 'Latest failed jobs').getByRole('link', { name: 'All failed jobs of this queue' })).toHaveAttribute(
      'href',
      `/failed?queue=${encodeURIComponent(name)}`,
    );

    await next.getByRole('link', { name: `#${a}` }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${a}\\?connection=default$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Job ${a}`);
  });

  test('says the pending jobs are due delayed ones when none waits in a level, so the two figures agree', async ({ page }) => {
    const name = keys.queueName('due-only');
    const [seconds] = await queue.redis.time();
    for (let i = 0; i < 2; i++) {
      const id = await queue.push(name, 'due.delayed', {}, { delaySeconds: 600 });
      // Due a minute ago, and nobody takes jobs from this queue to move it into its level.
      await queue.redis.zadd(queue.keys.delayed(name), Number(seconds) - 60, String(id));
    }
    await page.goto(queueHref(name));
    await expect(stat(page, 'Pending')).toContainText('2');
    await expect(section(page, 'Next jobs to run')).toContainText(
      'No job waits in a level: the 2 pending are all due delayed jobs, moved into their levels when a worker next takes a job from this queue.',
    );
    await expect(section(page, 'Next jobs to run').getByRole('link', { name: 'pending' })).toHaveAttribute('href', '/glossary#pending');
  });

  test('shows each list empty on its own, and a job pushed after the page loaded without a reload', async ({ page }) => {
    const name = keys.queueName('quiet');
    await queue.push(name, 'only.delayed', {}, { delaySeconds: 600 });
    await page.goto(queueHref(name));

    await expect(section(page, 'Next jobs to run')).toContainText('No job is waiting to run.');
    await expect(section(page, 'Priority levels')).toContainText('No priority levels');
    await expect(section(page, 'Latest failed jobs')).toContainText('No failed jobs of this queue.');
    await expect(table(page, 'Delayed jobs, due soonest').getByRole('row')).toHaveCount(2);
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    const id = await queue.push(name, 'arrived.late', {});

    await expect(table(page, 'Next jobs to run').getByRole('link')).toHaveText([`#${id}`]);
    await expect(stat(page, 'Pending')).toContainText('1');
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);
  });

  test('says which stream cannot be read and still shows the rest', async ({ page }) => {
    const name = keys.queueName('damaged');
    const id = await queue.push(name, 'still.here', {});
    // A level whose stream key was overwritten with a string.
    await queue.redis.zadd(queue.keys.levels(name), 7, '7');
    await queue.redis.set(queue.keys.stream(name, 7), 'not a stream');
    await page.goto(queueHref(name));

    const levels = table(page, 'Priority levels');
    const broken = levels.getByRole('row').filter({ hasText: queue.keys.stream(name, 7) });
    await expect(broken).toContainText('Cannot read this stream: WRONGTYPE');
    expect(await rowsOf(levels)).toContainEqual(['0', queue.keys.stream(name, 0), '1', '0', 'Not created yet']);
    await expect(table(page, 'Next jobs to run').getByRole('link')).toHaveText([`#${id}`]);
    await expect(page.getByRole('alert', { name: "Cannot count this queue's jobs" })).toContainText('WRONGTYPE');
  });

  test('lists the highest 100 levels of a queue with more, and says how many it has', async ({ page }) => {
    const name = keys.queueName('many-levels');
    await queue.pushMany(Array.from({ length: 101 }, (_, priority) => ({ queue: name, name: `p${priority}`, payload: {}, options: { priority } })));
    await page.goto(queueHref(name));

    // The section's description; its table, scrolling on its own, is a region of the same name.
    await expect(page.getByText('workers take from the highest level first. The highest 100 of its 101 levels are shown.')).toBeVisible();
    const levels = table(page, 'Priority levels');
    await expect(levels.locator('tbody tr')).toHaveCount(100);
    expect((await rowsOf(levels))[99]![0]).toBe('1');
    await expect(stat(page, 'Pending')).toContainText('101');
  });

  test('opens a queue named with slashes, percent signs and markup, and shows the name as text', async ({ page }) => {
    const name = keys.queueName('a/b 50%', ' <img src=x onerror=alert(1)><b>bold</b>');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const id = await queue.push(name, '<script>alert(2)</script>', { html: '<img src=x onerror=alert(3)>' });
    await page.goto('/');

    await page.getByRole('table', { name: 'Jobs per queue' }).getByRole('link', { name, exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`${queueHref(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?connection=default$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Queue ${name}`);
    await expect(page).toHaveTitle(`Queue ${name} · QueueLens`);
    const next = table(page, 'Next jobs to run');
    await expect(next.getByRole('link', { name: `#${id}` })).toBeVisible();
    await expect(next).toContainText('<script>alert(2)</script>');
    await expect(table(page, 'Priority levels')).toContainText(queue.keys.stream(name, 0));
    // Drawn again from a poll, not only by the server.
    await page.waitForResponse((response) => response.url().endsWith(`/api/queues/${encodeURIComponent(name)}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Queue ${name}`);
    await expect(next.getByRole('link', { name: `#${id}` })).toBeVisible();
    await expect(page.locator('main img, main b, main script')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('looks right in light and dark, on a desktop and a phone', async ({ page }, testInfo) => {
    const name = keys.queueName('looks');
    const failed = await queue.push(name, 'report.broken', {}, { priority: 3 });
    await queue.fail((await queue.reserve([name], 'web-1:4242', 300))!, 'Division by zero\n  at Report.build (report.ts:40)');
    await queue.pushMany([0, 0, 3, 10].map((priority, index) => ({ queue: name, name: `report.build.${index}`, payload: { index }, options: { priority } })));
    await queue.reserve([name], 'web-1:4242', 300);
    await queue.push(name, 'report.nightly', {}, { delaySeconds: 7200 });
    await page.goto(queueHref(name));
    await expect(table(page, 'Latest failed jobs').getByRole('link', { name: `#${failed}` })).toBeVisible();
    await testInfo.attach('queue page, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    const background = () => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await background()).not.toBe(light);
    await testInfo.attach('queue page, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    // Tables scroll inside their frames; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
