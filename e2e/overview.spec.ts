import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { queuesTable } from './overview-table';
import { HYDRATED_ATTRIBUTE } from '@/components/shell/hydration';
import { parseInfo } from '@/lib/redis/server-info';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { UNREACHABLE_APP_PORT, connectE2eQueue } from './support';
import { SpecKeys, deleteKeysButSessions, withSpecKeys } from './spec-keys';

const FIRST_PUSH = `npx queuelens push default demo.noop '{}'`;
const OVERVIEW_API = '**/api/overview';

function failedJobs(page: Page): Locator {
  return page.getByRole('group', { name: 'Failed jobs' });
}

/** The count cells (pending, delayed, reserved, total) of the row whose header is exactly `name`: the four after it, before the throughput cells. */
function countsOf(table: Locator, name: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name, exact: true }) })
    .locator('td:nth-child(-n+5)');
}

/** The value shown for `term` among the Redis server's facts. */
function fact(page: Page, term: string): Locator {
  return page.getByRole('region', { name: 'Redis server' }).getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]');
}

/** emails: 3 ready and 1 reserved; reports: 1 delayed; and 1 failed job. */
async function seed(queue: RedisQueue): Promise<void> {
  for (let i = 0; i < 4; i++) await queue.push('emails', 'mail.send', { to: `user${i}@example.test` });
  await queue.push('reports', 'report.build', {}, { delaySeconds: 3600 });
  await queue.push('reports', 'report.broken', {});
  const held = await queue.reserve(['emails'], 'e2e-worker', 300);
  const broken = await queue.reserve(['reports'], 'e2e-worker', 300);
  if (held === null || broken === null) throw new Error('Seeding could not reserve its jobs');
  await queue.fail(broken, 'Failed on purpose by the e2e seed');
}

test.describe('queues overview', () => {
  // One prefix for the whole run: the empty state can only be seen before the seed.
  test.describe.configure({ mode: 'serial' });

  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterAll(async () => {
    await deleteKeysButSessions(queue.redis, queue.keys.prefix);
    await queue.close();
  });

  test('shows how to push a first job while no queue has any', async ({ page }) => {
    await page.goto('/');

    await expect(page.getByText('No jobs in any queue yet.')).toBeVisible();
    await expect(page.getByRole('code')).toHaveText(FIRST_PUSH);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(failedJobs(page).getByText('0', { exact: true })).toBeVisible();
  });

  test('counts the jobs of each queue, their totals and the failed jobs', async ({ page }) => {
    await seed(queue);
    await page.goto('/');

    const table = queuesTable(page);
    await expect(table.getByRole('columnheader')).toHaveText([
      'Queue',
      'Pending',
      'Delayed',
      'Reserved',
      'Total',
      'Failed, 15 min',
      'Processed/s, 15 min',
      'Wait',
    ]);
    // Named by their queue alone, whatever marks they carry; reports, failing, comes first.
    const headers = table.getByRole('rowheader');
    await expect(headers).toHaveCount(3);
    for (const [index, name] of ['reports', 'emails', 'All queues'].entries()) await expect(headers.nth(index)).toHaveAccessibleName(name);
    await expect(countsOf(table, 'emails')).toHaveText(['3', '0', '1', '4']);
    await expect(countsOf(table, 'reports')).toHaveText(['0', '1', '0', '1']);
    await expect(countsOf(table, 'All queues')).toHaveText(['3', '1', '1', '5']);
    await expect(failedJobs(page).getByText('1', { exact: true })).toBeVisible();
    await expect(page.getByText(FIRST_PUSH)).toHaveCount(0);
  });

  test('links each queue to its page and the failed count to the failed jobs', async ({ page }) => {
    await page.goto('/');

    await expect(queuesTable(page).getByRole('link', { name: 'emails', exact: true })).toHaveAttribute('href', '/queues/emails');
    await expect(page.getByRole('link', { name: /^Failed jobs/ })).toHaveAttribute('href', '/failed');
  });

  test('shows a job pushed after the page loaded, without a reload', async ({ page }) => {
    await page.goto('/');
    const table = queuesTable(page);
    await expect(countsOf(table, 'emails')).toHaveText(['3', '0', '1', '4']);
    // Gone if the page reloaded: the new figures must come from polling.
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    await queue.push('emails', 'mail.send', { to: 'late@example.test' });

    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);
    await expect(countsOf(table, 'All queues')).toHaveText(['4', '1', '1', '6']);
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);
  });

  test('answers GET /api/overview with the queues, the failed count and the server', async ({ request }) => {
    const response = await request.get('/api/overview');

    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toContain('no-store');
    const body = (await response.json()) as { ok: boolean; data: { queues: { queue: string }[]; failed: number; server: object } };
    expect(body.ok).toBe(true);
    // One page of the queues, the failing one first.
    expect(body.data.queues.map((row) => row.queue)).toEqual(['reports', 'emails']);
    expect(body.data.failed).toBe(1);
    expect(Object.keys(body.data.server).sort()).toEqual([
      'connectedClients',
      'maxmemoryPolicy',
      'uptimeSeconds',
      'usedMemoryBytes',
      'usedMemoryHuman',
      'version',
    ]);
  });

  test('shows the facts of the Redis server the queues live on', async ({ page }) => {
    const server = parseInfo(await queue.redis.info('server'));
    const [, policy] = (await queue.redis.config('GET', 'maxmemory-policy')) as [string, string];
    await page.goto('/');

    await expect(page.getByRole('region', { name: 'Redis server' }).getByRole('term')).toHaveText([
      'Version',
      'Used memory',
      'Connected clients',
      'Uptime',
      'Eviction policy',
    ]);
    await expect(fact(page, 'Version')).toHaveText(server.get('redis_version')!);
    await expect(fact(page, 'Used memory')).toHaveText(/^\d+(\.\d+)?[BKMGT]$/);
    await expect(fact(page, 'Connected clients')).toHaveText(/^[1-9][\d,]*$/);
    await expect(fact(page, 'Uptime')).toHaveText(/^\d+ (d|h|min|s)( \d+ (h|min|s))?$/);
    await expect(fact(page, 'Eviction policy')).toHaveText(policy);
    // This Redis is the one the suite runs on: a warning only if it can in fact evict.
    await expect(page.getByRole('note', { name: /evict/ })).toHaveCount(policy === 'noeviction' ? 0 : 1);
  });

  test('warns when Redis may evict queue keys, and says when it cannot tell', async ({ page }) => {
    await page.goto('/');
    await expect(fact(page, 'Eviction policy')).toHaveText(/\w/);
    let policy: string | null = 'allkeys-lru';
    // The real answer, with the policy a server could have: the next poll shows it.
    await page.route(OVERVIEW_API, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { server: { maxmemoryPolicy: string | null } } };
      body.data.server.maxmemoryPolicy = policy;
      await route.fulfill({ response, json: body });
    });

    const evicting = page.getByRole('note', { name: 'Redis may evict queue keys' });
    await expect(evicting).toContainText('maxmemory-policy is allkeys-lru');
    await expect(evicting).toContainText('lost jobs');
    await expect(fact(page, 'Eviction policy')).toHaveText('allkeys-lru');

    policy = null;
    await expect(page.getByRole('note', { name: 'Redis does not report its eviction policy' })).toBeVisible();
    await expect(evicting).toHaveCount(0);
    await expect(fact(page, 'Eviction policy')).toHaveText('unknown');
  });

  test('keeps the last figures on screen while Redis cannot be read, says why, and recovers', async ({ page }) => {
    await page.goto('/');
    const table = queuesTable(page);
    const alert = page.getByRole('alert', { name: 'Cannot read the queues' });
    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);
    await expect(page.getByText('Live', { exact: true })).toBeVisible();

    await page.route(OVERVIEW_API, (route) =>
      route.fulfill({ status: 503, json: { ok: false, error: 'Could not reach redis at 127.0.0.1:6379 (connect ECONNREFUSED)' } }),
    );
    await expect(alert).toContainText('Could not reach redis at 127.0.0.1:6379');
    await expect(alert).toContainText('What is shown below was read at');
    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);
    await expect(page.getByText('Cannot read Redis', { exact: true })).toBeVisible();

    await page.unroute(OVERVIEW_API);
    await expect(alert).toHaveCount(0);
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);
  });

  test('says so when the QueueLens server itself stops answering', async ({ page }) => {
    await page.goto('/');
    const table = queuesTable(page);
    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);

    await page.route(OVERVIEW_API, (route) => route.abort('connectionrefused'));
    await expect(page.getByRole('alert', { name: 'Cannot read the queues' })).toContainText('Cannot reach the QueueLens server');
    await expect(page.getByText('QueueLens server unreachable', { exact: true })).toBeVisible();
    await expect(countsOf(table, 'emails')).toHaveText(['4', '0', '1', '5']);

    await page.unroute(OVERVIEW_API);
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert', { name: 'Cannot read the queues' })).toHaveCount(0);
  });

  test('shows a queue named like markup as text', async ({ page }) => {
    const name = '<img src=x onerror=alert(1)>';
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await queue.push(name, 'xss.probe', {});
    await page.goto('/');

    const link = queuesTable(page).getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', `/queues/${encodeURIComponent(name)}`);
    // Rendered again from a poll, not only by the server.
    await page.waitForResponse((response) => response.url().endsWith('/api/overview'));
    await expect(link).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('looks right in light and dark, on a desktop and a phone', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(queuesTable(page)).toBeVisible();
    await testInfo.attach('overview, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    const background = () => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await background()).not.toBe(light);
    await testInfo.attach('overview, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    // The table scrolls inside its frame; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});

test.describe('the header', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('"Go to job" opens a job that exists, and says in place what a job id is, or that the job is gone or never was', async ({ page }) => {
    const name = keys.queueName('go-to-job');
    const kept = await queue.push(name, 'go.kept', {});
    const finished = await queue.push(name, 'go.finished', {});
    await queue.redis.del(queue.keys.job(String(finished)));
    const highest = Number(await queue.redis.get(queue.keys.seq));
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'Go to job' });

    await box.fill('twelve');
    await box.press('Enter');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(box).toHaveAccessibleDescription('A job id is a whole number above 0.');
    await expect(page).toHaveURL(/\/\?connection=default$/);

    await box.fill('0');
    await page.getByRole('button', { name: 'Go' }).click();
    await expect(box).toHaveAccessibleDescription('A job id is a whole number above 0.');

    // Ids are handed out in order: one above the highest was never pushed, one below whose hash is gone finished or was forgotten.
    await box.fill(String(highest + 1000));
    await box.press('Enter');
    await expect(box).toHaveAccessibleDescription(`No job ${highest + 1000}: no such job was ever pushed (the highest id so far is ${highest}).`);
    await expect(page).toHaveURL(/\/\?connection=default$/);

    await box.fill(String(finished));
    await box.press('Enter');
    await expect(box).toHaveAccessibleDescription(`Job ${finished} is gone: it finished or was forgotten.`);
    await expect(page).toHaveURL(/\/\?connection=default$/);

    await box.fill(` ${kept} `);
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/jobs/${kept}\\?connection=default$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(String(kept));
  });

  test('keeps the chosen refresh interval across reloads, and says when updates are off', async ({ page }) => {
    await page.goto('/');
    const refresh = page.getByRole('combobox', { name: 'Refresh' });
    await expect(refresh.locator('option:checked')).toHaveText(/\(default\)$/);

    await refresh.selectOption({ label: 'Off' });
    await expect(page.getByText('Updates off', { exact: true })).toBeVisible();
    await page.reload();
    await expect(refresh).toHaveValue('off');
    await expect(page.getByText('Updates off', { exact: true })).toBeVisible();

    await refresh.selectOption({ label: 'Every 5 s' });
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
  });

  test('marks the page on screen in the navigation', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Failed' })).toHaveAttribute('href', '/failed');
    await expect(nav.getByRole('link', { name: 'Failed' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('a link clicked before the page has hydrated is followed as a page load; once hydrated, in place', async ({ page }) => {
    // In-place navigation keeps the window and what it holds; a page load starts a new one.
    const keptWindow = () => page.evaluate(() => (window as { kept?: true }).kept === true);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.evaluate(() => ((window as { kept?: true }).kept = true));
    await nav.getByRole('link', { name: 'Failed' }).click();
    await expect(page).toHaveURL(/\/failed\?connection=default$/);
    await expect(nav.getByRole('link', { name: 'Failed' })).toHaveAttribute('aria-current', 'page');
    expect(await keptWindow()).toBe(true);

    // As in the moments before hydration ends: no mark yet.
    await page.evaluate((attribute) => document.documentElement.removeAttribute(attribute), HYDRATED_ATTRIBUTE);
    await nav.getByRole('link', { name: 'Reservations' }).click();
    await expect(page).toHaveURL(/\/reservations\?connection=default$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reservations' })).toBeVisible();
    expect(await keptWindow()).toBe(false);
  });
});

test.describe('Redis unreachable', () => {
  const unreachable = `http://127.0.0.1:${UNREACHABLE_APP_PORT}`;

  test('explains that Redis cannot be reached instead of failing', async ({ page }) => {
    const response = await page.goto(`${unreachable}/`);

    expect(response?.status()).toBe(200);
    await expect(page.getByRole('alert', { name: 'Cannot read the queues' })).toContainText('Could not reach redis at 127.0.0.1:1');
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByText('Cannot read Redis', { exact: true })).toBeVisible();
  });

  test('the API answers 503 with the reason and nothing else', async ({ request }) => {
    const response = await request.get(`${unreachable}/api/overview`);

    expect(response.status()).toBe(503);
    expect(response.headers()['cache-control']).toContain('no-store');
    const body = (await response.json()) as unknown;
    expect(body).toEqual({ ok: false, error: expect.stringMatching(/^Could not reach redis at 127\.0\.0\.1:1\b/) });
    expect(JSON.stringify(body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
  });
});

test.describe('how fresh the overview is', () => {
  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterAll(async () => {
    await deleteKeysButSessions(queue.redis, queue.keys.prefix);
    await queue.close();
  });

  test('shows a retry made through QueueLens on the next page load, though the overview is read once per tick', async ({ page }) => {
    await queue.push('reports', 'report.broken', {});
    const broken = await queue.reserve(['reports'], 'e2e-worker', 300);
    if (broken === null || !(await queue.fail(broken, 'Failed on purpose by the e2e seed'))) throw new Error('Seeding could not fail its job');
    await page.goto('/');
    const table = queuesTable(page);
    await expect(countsOf(table, 'reports')).toHaveText(['0', '0', '0', '0']);
    await expect(failedJobs(page).getByText('1', { exact: true })).toBeVisible();

    await page.goto('/failed');
    await page.getByRole('checkbox', { name: `Select job ${broken.id}` }).check();
    await page.getByRole('button', { name: 'Retry 1' }).click();
    await expect(page.getByText('Retried 1 job')).toBeVisible();
    // No poll may help: what the page shows is what its load was answered with.
    await page.route(OVERVIEW_API, (route) => route.abort());
    await page.goto('/');

    await expect(countsOf(table, 'reports')).toHaveText(['1', '0', '0', '1']);
    await expect(failedJobs(page).getByText('0', { exact: true })).toBeVisible();
  });
});
