import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { readAuditPage } from '@/lib/dashboard/audit-log';
import { alertKeys, dashboardKeys } from '@/lib/dashboard/keys';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { alertsHref } from '@/lib/routes';
import { axeViolations } from './axe';
import { ORIGIN, postAction, serverActions } from './server-actions';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eDashboardPrefix, e2eSecrets } from './support';

// The server under test keeps the default connection's silences and audit log under the run's QUEUELENS_PREFIX.
const dashboard = dashboardKeys(e2eDashboardPrefix());
const alerts = alertKeys(dashboard, 'default');

function marksTable(page: Page) {
  return page.getByRole('table', { name: 'Marks now' });
}

test.describe('alert silences', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;
  let failingQueue: string;

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => void (await queue.redis.unlink(alerts.silences, alerts.sent, alerts.recent, alerts.lease)),
  );

  test.beforeAll(async () => {
    // A job that failed just now: the queue is marked failing (a failure within 15 minutes).
    failingQueue = keys.queueName('alert-silence', '<i>&');
    await queue.push(failingQueue, 'e2e.silence', {});
    const job = await queue.reserve([failingQueue], 'e2e-worker', 60);
    await queue.fail(job!, 'SMTP refused');
  });

  test('an operator silences a queue’s failing mark from the alerts page, it is audited, and lifts it again', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/alerts\?connection=default$/);
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();

    const row = marksTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: failingQueue, exact: true }) });
    await expect(row.getByText('Failing', { exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: `See its failed jobs (${failingQueue})` })).toHaveAttribute(
      'href',
      `/failed?queue=${encodeURIComponent(failingQueue)}`,
    );

    await row.getByLabel(`Silence Failing on ${failingQueue} for`).selectOption({ label: '4 hours' });
    await row.getByRole('button', { name: `Silence Failing on ${failingQueue}` }).click();
    await expect(row.getByRole('status')).toHaveText(/^Silenced until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);

    // Stored for the sender, about four hours from the server's clock.
    const [now] = await queue.redis.time();
    const until = Number(await queue.redis.hget(alerts.silences, `failing\n${failingQueue}`));
    expect(until - Number(now)).toBeGreaterThan(4 * 3600 - 60);
    expect(until - Number(now)).toBeLessThanOrEqual(4 * 3600);

    const silences = page.getByRole('table', { name: 'Running silences' });
    await expect(silences.getByRole('rowheader', { name: failingQueue, exact: true })).toBeVisible();

    const [entry] = (await readAuditPage(queue.redis, dashboard, { limit: 1 })).entries;
    expect(entry).toMatchObject({
      who: 'e2e operator',
      role: 'operator',
      connection: 'default',
      action: 'silence an alert',
      target: `failing on ${failingQueue}`,
      result: 'ok',
      detail: `silenced until ${new Date(until * 1000).toISOString().replace('.000Z', 'Z')}`,
    });

    await silences.getByRole('button', { name: `Lift silence of Failing on ${failingQueue}` }).click();
    await expect(page.getByText('Nothing is silenced.')).toBeVisible();
    expect(await queue.redis.hget(alerts.silences, `failing\n${failingQueue}`)).toBe('0');
    const [lifted] = (await readAuditPage(queue.redis, dashboard, { limit: 1 })).entries;
    expect(lifted).toMatchObject({ action: 'silence an alert', target: `failing on ${failingQueue}`, result: 'ok', detail: 'silence lifted' });
  });

  test('axe finds nothing on the alerts page with a silence running, light and dark, wide and on a phone, and it runs no wider than a phone', async ({
    page,
  }) => {
    await page.goto(alertsHref);
    const row = marksTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: failingQueue, exact: true }) });
    await row.getByRole('button', { name: `Silence Failing on ${failingQueue}` }).click();
    await expect(page.getByRole('table', { name: 'Running silences' })).toBeVisible();
    const found: Record<string, string[]> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `test-results/alerts-page-${colorScheme}-${width}.png`, fullPage: true });
        const violations = await axeViolations(page);
        if (violations.length > 0) found[`${colorScheme} ${width}`] = violations;
        if (width === 390) expect.soft(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      }
    }
    expect(found).toEqual({});
    // Lifted again, so the viewer's refused attempt below finds it as the operator left it.
    await page
      .getByRole('table', { name: 'Running silences' })
      .getByRole('button', { name: `Lift silence of Failing on ${failingQueue}` })
      .click();
    await expect(page.getByText('Nothing is silenced.')).toBeVisible();
  });

  test('a viewer sees the marks without the controls, and a silence a viewer posts anyway is refused and audited', async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const page = await context.newPage();
      await page.goto(`/login?next=${encodeURIComponent(alertsHref)}`);
      await page.getByLabel('Secret').fill(e2eSecrets().viewer);
      await page.getByLabel(/Your name/).fill('e2e viewer');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/alerts\?connection=default$/);
      await expect(page.getByText(/Only an operator can silence a mark, and you are signed in as a viewer\./)).toBeVisible();
      const row = marksTable(page)
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: failingQueue, exact: true }) });
      await expect(row.getByText('Failing', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Silence/ })).toHaveCount(0);

      const action = serverActions().find((candidate) => candidate.name === 'silenceAlert')!;
      const refused = await postAction(context.request, action, [{ queue: failingQueue, kind: 'failing', minutes: 60 }], { origin: ORIGIN });
      expect(await refused.text()).toContain('Only an operator can change queues, and you are signed in as a viewer.');
      expect(await queue.redis.hget(alerts.silences, `failing\n${failingQueue}`)).toBe('0');
      const [entry] = (await readAuditPage(queue.redis, dashboard, { limit: 1 })).entries;
      expect(entry).toMatchObject({ who: 'e2e viewer', role: 'viewer', action: 'silence an alert', result: 'refused' });
    } finally {
      await context.close();
    }
  });
});
