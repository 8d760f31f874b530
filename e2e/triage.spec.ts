import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { queuesTable, rowNames } from './overview-table';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { writeWaitingJob } from './backdated-job';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eSecrets, overviewAddress, withUtcMoment } from './support';

/** How long the unattended queue's job has waited, the stuck claim has been past its deadline and the delayed job has been due: well past the default minute. */
const LONG_AGO_SECONDS = 600;

function rowOf(page: Page, queue: string): Locator {
  return queuesTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${queue}`) }) });
}

function marksOf(page: Page, queue: string): Locator {
  return page.getByRole('list', { name: `What needs attention on ${queue}` }).getByRole('listitem');
}

test.describe('the overview as a triage page', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  const names = { empty: '', unattended: '', stuck: '', failing: '', delayed: '', healthy: '' };

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test.beforeAll(async () => {
    for (const label of Object.keys(names) as (keyof typeof names)[]) names[label] = keys.queueName(`triage-${label}`);
    const [seconds] = await queue.redis.time();
    const now = Number(seconds);

    // Registered, and every job it had is done: stats() leaves it out, the overview must not.
    await queue.push(names.empty, 'e2e.done', {});
    await queue.complete((await queue.reserve([names.empty], 'e2e-triage:1', 60))!);

    await writeWaitingJob(queue, keys, names.unattended, LONG_AGO_SECONDS);

    // A holder that died: handed its job eleven minutes ago on a one-minute claim, which ran out ten minutes ago,
    // and no worker reserved from the queue since. XCLAIM … IDLE dates the delivery back, as the claim is.
    await queue.push(names.stuck, 'e2e.stuck', {});
    const held = (await queue.reserve([names.stuck], 'e2e-dead-worker:4242', 60))!;
    await queue.redis.hset(queue.keys.job(held.id), 'reserved_until', now - LONG_AGO_SECONDS);
    await queue.redis.call('XCLAIM', queue.keys.stream(names.stuck, 0), queue.settings.group, 'shared', 0, held.entry, 'IDLE', (LONG_AGO_SECONDS + 60) * 1000);

    await queue.push(names.failing, 'e2e.failing', {});
    await queue.fail((await queue.reserve([names.failing], 'e2e-triage:1', 60))!, 'SMTP refused the message\n  at send (mail.php:12)');

    // Due ten minutes ago and never promoted: nobody reserves from it.
    const due = await queue.push(names.delayed, 'e2e.delayed', {}, { delaySeconds: 3600 });
    await queue.redis.zadd(queue.keys.delayed(names.delayed), now - LONG_AGO_SECONDS, String(due));

    // Busy and attended: a job ready now and one held on a live claim.
    await queue.push(names.healthy, 'e2e.healthy', {});
    await queue.push(names.healthy, 'e2e.healthy', {});
    await queue.reserve([names.healthy], 'e2e-live-worker:1', 600);
  });

  test('lists every registered queue, an empty one with zeros, and marks only the ones that need attention', async ({ page }) => {
    await page.goto('/');

    const empty = rowOf(page, names.empty);
    // Pending, delayed, reserved, total and failed.
    await expect(empty.locator('td:nth-child(-n+6)')).toHaveText(['0', '0', '0', '0', '0']);
    await expect(marksOf(page, names.empty)).toHaveCount(0);
    await expect(marksOf(page, names.healthy)).toHaveCount(0);

    await expect(marksOf(page, names.unattended)).toHaveText([/^No worker\s*1 job ready, none handed out for 10 min( \d+ s)?\s*See the queue$/]);
    await expect(marksOf(page, names.stuck)).toHaveText([
      // Ten minutes before a run just after midnight, the moment carries its date.
      withUtcMoment(String.raw`^Stuck\s*1 claim ran out at {moment} \(10 min( \d+ s)? ago\), held by e2e-dead-worker:4242\s*Release or fail them$`),
    ]);
    await expect(marksOf(page, names.failing)).toHaveText([/^Failing\s*1 failure in the last 15 min, latest: SMTP refused the message\s*See its failed jobs$/]);
    await expect(marksOf(page, names.delayed)).toHaveText([
      /^No worker\s*1 job ready/,
      /^Due, not moved\s*1 delayed job due for 10 min( \d+ s)?, not moved into the queue\s*Move them in$/,
    ]);

    const summary = page.getByRole('note', { name: /queues? needs? attention$/ });
    await expect(summary).toContainText(`${names.stuck}: stuck`);
    await expect(summary).toContainText(`${names.delayed}: no worker, due, not moved`);
  });

  test('exports every mark in /api/metrics, one series per queue and mark, so Alertmanager can page on what the overview shows', async ({ request }) => {
    let lines: string[] = [];
    const mark = (queue: string, kind: string) =>
      lines.find((line) => line.startsWith(`queuelens_queue_mark{connection="default",queue="${queue}",mark="${kind}"} `))?.split(' ')[1];
    // The metrics are the sampler's latest tick: run on its own, or in the fresh worker after a failed test (new queues), this test asks before a tick has read its queues.
    await expect
      .poll(async () => {
        const response = await request.get('/api/metrics', { headers: { authorization: `Bearer ${e2eSecrets().viewer}` } });
        expect(response.status()).toBe(200);
        lines = (await response.text()).split('\n');
        return [mark(names.stuck, 'stuck'), mark(names.unattended, 'no_worker'), mark(names.failing, 'failing'), mark(names.delayed, 'overdue_delayed')];
      })
      .toEqual(['1', '1', '1', '1']);
    expect(lines).toContain('# TYPE queuelens_queue_mark gauge');
    expect([mark(names.healthy, 'stuck'), mark(names.healthy, 'no_worker'), mark(names.healthy, 'failing'), mark(names.stuck, 'failing')]).toEqual([
      '0',
      '0',
      '0',
      '0',
    ]);
  });

  test('links each mark, and the Reserved and Failed figures, to the page that deals with them', async ({ page }) => {
    await page.goto('/');

    await expect(marksOf(page, names.unattended).getByRole('link', { name: 'See the queue' })).toHaveAttribute('href', `/queues/${names.unattended}`);
    await expect(marksOf(page, names.stuck).getByRole('link', { name: 'Release or fail them' })).toHaveAttribute('href', `/reservations?queue=${names.stuck}`);
    await expect(marksOf(page, names.failing).getByRole('link', { name: 'See its failed jobs' })).toHaveAttribute('href', `/failed?queue=${names.failing}`);
    await expect(marksOf(page, names.delayed).getByRole('link', { name: 'Move them in' })).toHaveAttribute('href', `/queues/${names.delayed}/delayed`);

    await expect(rowOf(page, names.stuck).getByRole('link', { name: /^1 reserved in / })).toHaveAttribute('href', `/reservations?queue=${names.stuck}`);
    await expect(rowOf(page, names.failing).getByRole('link', { name: /^1 failed in .* in the last 15 min/ })).toHaveAttribute(
      'href',
      `/failed?queue=${names.failing}`,
    );
    await expect(queuesTable(page).getByRole('columnheader', { name: 'Failed, 15 min' })).toBeVisible();
  });

  test('moves a drained queue’s row from those that need attention to its place by name, in place, once a worker takes its job', async ({ page }) => {
    await page.goto('/');
    await expect(marksOf(page, names.unattended)).toHaveCount(1);
    const marked = [names.unattended, names.stuck, names.failing, names.delayed].sort();
    const calm = [names.empty, names.healthy].sort();
    // The queues that need attention come first, each block by name.
    expect(await rowNames(page)).toEqual([...marked, ...calm]);
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    const job = await queue.reserve([names.unattended], 'e2e-triage:2', 60);
    await queue.complete(job!);

    await expect(marksOf(page, names.unattended)).toHaveCount(0);
    await expect(rowOf(page, names.unattended).getByRole('cell').first()).toHaveText('0');
    expect(await rowNames(page)).toEqual([...marked.filter((name) => name !== names.unattended), ...[...calm, names.unattended].sort()]);
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);
  });

  test('looks right in light and dark, on a desktop and a phone, with queues marked', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(marksOf(page, names.stuck)).toHaveCount(1);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await testInfo.attach(`overview with marks, ${colorScheme}, ${width} px`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: 'image/png',
        });
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    }
  });
});

test.describe('the failed list holds still', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  async function failOne(name: string, error: string): Promise<number> {
    const id = await queue.push(name, 'e2e.fails', {});
    await queue.fail((await queue.reserve([name], 'e2e-triage:3', 60))!, error);
    return id;
  }

  test('new failures do not push rows down under a selection: "N new failures — show"', async ({ page }) => {
    const name = keys.queueName('hold-still');
    const first = await failOne(name, 'first');
    const second = await failOne(name, 'second');
    await page.goto('/failed');
    const ids = page.getByRole('table', { name: 'Failed jobs, newest first' }).getByRole('rowheader');
    await expect(ids.first()).toHaveText(String(second));
    await expect(ids.nth(1)).toHaveText(String(first));
    await page.getByRole('checkbox', { name: `Select job ${first}` }).check();

    const third = await failOne(name, 'third');
    const fourth = await failOne(name, 'fourth');
    const show = page.getByRole('button', { name: '2 new failures — show' });
    await expect(show).toBeVisible();
    await expect(ids.first()).toHaveText(String(second));
    await expect(ids.nth(1)).toHaveText(String(first));
    await expect(page.getByRole('checkbox', { name: `Select job ${first}` })).toBeChecked();

    await show.click();
    await expect(ids.first()).toHaveText(String(fourth));
    await expect(ids.nth(1)).toHaveText(String(third));
    await expect(show).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: `Select job ${first}` })).toBeChecked();
  });

  test('the queue filter picks among the registered queues, and a filtered view stays live: "N new matches since you searched — show"', async ({ page }) => {
    const name = keys.queueName('live-filter');
    const other = keys.queueName('live-other');
    const first = await failOne(name, 'first of the filtered queue');
    await failOne(other, 'another queue');
    await page.goto('/failed');
    const filter = page.getByRole('search', { name: 'Filter failed jobs' });
    const picker = filter.getByRole('combobox', { name: 'Queue' });
    await expect(picker.getByRole('option', { name, exact: true })).toHaveCount(1);
    await expect(picker.getByRole('option', { name: other, exact: true })).toHaveCount(1);
    await picker.selectOption(name);
    await filter.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]queue=${encodeURIComponent(name)}(&|$)`));
    await expect(page.getByRole('status').filter({ hasText: /^Searched .*, 1 match/ })).toBeVisible();
    const ids = page.getByRole('table', { name: 'Failed jobs, newest first' }).getByRole('rowheader');
    await expect(ids).toHaveText([String(first)]);

    // One new failure of the filtered queue and one of another: only the first is a new match, counted and not inserted.
    const later = await failOne(name, 'second of the filtered queue');
    await failOne(other, 'another queue again');
    const show = page.getByRole('button', { name: '1 new match since you searched — show' });
    await expect(show).toBeVisible();
    await expect(ids).toHaveText([String(first)]);

    await show.click();
    await expect(ids).toHaveText([String(later), String(first)]);
    await expect(show).toHaveCount(0);
  });

  test('forget-before sits above the rows, its date and time typed as UTC text', async ({ page }) => {
    await failOne(keys.queueName('forget-before'), 'old');
    await page.goto('/failed');
    const form = page.getByRole('form', { name: 'Forget failed jobs before a date' });
    const table = page.getByRole('table', { name: 'Failed jobs, newest first' });
    await expect(table).toBeVisible();
    expect((await form.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y);
    await expect(form.getByLabel('Failed before (UTC date)')).toHaveAttribute('type', 'text');
    await expect(form.getByLabel('Failed before (UTC date)')).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    await expect(form.getByLabel('Time (UTC, optional)')).toHaveAttribute('type', 'text');
  });

  test('a filter that matches nothing says so and offers every failed job', async ({ page }) => {
    await page.goto(`/failed?queue=${encodeURIComponent(keys.queueName('never-failed'))}`);
    await expect(page.getByText('No failed job matches this filter.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Show every failed job' })).toHaveAttribute('href', '/failed');
  });
});

test.describe('one clock, one name, an icon', () => {
  test('the header says when the page was updated in UTC, 24-hour', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('banner').getByText(/^· updated \d\d:\d\d:\d\d UTC$/)).toBeVisible();
  });

  test.describe('signed in without a name', () => {
    test.use({ storageState: { cookies: [], origins: [] } });

    test('names the role once', async ({ page }) => {
      await page.goto('/');
      await page.getByLabel('Secret').fill(e2eSecrets().operator);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(overviewAddress());
      // The role alone, where a name would be followed by it.
      await expect(
        page
          .getByRole('banner')
          .locator('p')
          .filter({ hasText: /^operator$/ }),
      ).toHaveCount(1);
      await expect(page.getByRole('banner')).not.toContainText('operator · operator');
    });

    test('has a favicon, served before signing in', async ({ page, request }) => {
      await page.goto('/login');
      const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
      expect(href).toMatch(/^\/favicon\.ico/);
      const icon = await request.get(href!);
      expect(icon.status()).toBe(200);
      expect(icon.headers()['content-type']).toBe('image/x-icon');
    });
  });
});
