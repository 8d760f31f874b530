import type { Page } from '@playwright/test';
import { expect, test } from './test';
import type { NewAuditEntry } from '@/lib/dashboard/audit-entry';
import { appendAudit } from '@/lib/dashboard/audit-log';
import { dashboardKeys } from '@/lib/dashboard/keys';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { auditHref } from '@/lib/routes';
import { connectE2eQueue, e2eDashboardPrefix } from './support';
import { deleteKeysButSessions } from './spec-keys';

// The server under test reads the log under the same prefix (playwright.config.ts).
const keys = dashboardKeys(e2eDashboardPrefix());

function entry(target: string, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return { who: 'ada', role: 'operator', connection: 'default', action: 'retry failed jobs', target, result: 'ok', detail: 'retried 1', ...overrides };
}

function auditTable(page: Page) {
  return page.getByRole('table', { name: 'Audit log, newest first' });
}

/** The log's rows (not its header), in order. */
function rows(page: Page) {
  return auditTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** The Target column, in order. */
function targets(page: Page) {
  return rows(page).locator('td:nth-child(5)');
}

test.describe('audit log', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterEach(async () => {
    await deleteKeysButSessions(queue.redis, keys.prefix);
  });

  test.afterAll(async () => {
    await queue.close();
  });

  const append = (...entries: NewAuditEntry[]) => Promise.all(entries.map((one) => appendAudit(queue.redis, keys, one)));

  test('says when no change has been recorded yet', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await expect(page).toHaveURL(new RegExp(`${auditHref}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
    await expect(page.getByText('No changes have been made through QueueLens yet.')).toBeVisible();
    await expect(auditTable(page)).toHaveCount(0);
  });

  test('lists entries newest first with every field, and shows new ones as they are recorded', async ({ page }, testInfo) => {
    await appendAudit(queue.redis, keys, entry('jobs 12, 13, 14 (+97 more)', { detail: 'retried 97, 3 no longer failed' }));
    await appendAudit(
      queue.redis,
      keys,
      entry('all failed before 2026-11-01', {
        who: 'grace',
        role: 'viewer',
        action: 'forgetOldestStep',
        result: 'refused',
        detail: 'viewers cannot forget jobs',
      }),
    );
    await appendAudit(
      queue.redis,
      keys,
      entry('reservation 1-0 of emails', { who: 'linus', action: 'releaseNow', result: 'failed', detail: 'Redis refused a queue command: OOM' }),
    );

    await page.goto(auditHref);
    await expect(auditTable(page).getByRole('columnheader')).toHaveText(['Time (UTC)', 'Who', 'Role', 'Action', 'Target', 'Result', 'Detail']);
    await expect(targets(page)).toHaveText(['reservation 1-0 of emails', 'all failed before 2026-11-01', 'jobs 12, 13, 14 (+97 more)']);
    const refused = rows(page).nth(1);
    await expect(refused.getByRole('cell')).toHaveText([
      /UTC \((now|\d+ s ago)\)$/,
      'grace',
      'viewer',
      'forgetOldestStep on default',
      'all failed before 2026-11-01',
      'Refused',
      'viewers cannot forget jobs',
    ]);
    await expect(page.getByText('All 3 entries, newest first')).toBeVisible();
    await testInfo.attach('audit log, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await testInfo.attach('audit log, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    // Polling brings a change made meanwhile to the top, without a reload.
    await appendAudit(queue.redis, keys, entry('job 99', { action: 'runDelayedNow', detail: 'moved to its stream' }));
    await expect(targets(page).first()).toHaveText('job 99');
    await expect(page.getByText('All 4 entries, newest first')).toBeVisible();
  });

  test('filters by action, by result and by text, in the address', async ({ page }) => {
    await append(
      entry('job 1'),
      entry('job 2', { action: 'forget failed jobs', detail: 'forgot 1' }),
      entry('job 3', { who: 'grace', role: 'viewer', action: 'forget failed jobs', result: 'refused', detail: 'viewers cannot forget jobs' }),
      entry('job 4', { who: 'linus', action: 'failWithReason', result: 'failed', detail: 'The job changed meanwhile' }),
    );
    await page.goto(auditHref);
    await expect(rows(page)).toHaveCount(4);

    await page.getByLabel('Action').selectOption('forget failed jobs');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(/\/audit\?action=forget\+failed\+jobs$/);
    await expect(targets(page)).toHaveText(['job 3', 'job 2']);
    await expect(page.getByText('2 matches among all 4 entries')).toBeVisible();

    await page.getByLabel('Result').selectOption('refused');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(targets(page)).toHaveText(['job 3']);

    await page.goto(`${auditHref}?text=MEANWHILE`);
    await expect(targets(page)).toHaveText(['job 4']);
    await expect(page.getByLabel('Who, target or detail contains')).toHaveValue('MEANWHILE');

    await page.goto(`${auditHref}?text=nobody-did-this`);
    await expect(page.getByText('No entry matches this filter.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(page).toHaveURL(new RegExp(`${auditHref}$`));
    await expect(rows(page)).toHaveCount(4);
  });

  test('loads older entries a page at a time, to the oldest', async ({ page }) => {
    const written = await append(...Array.from({ length: 120 }, (_, n) => entry(`target-${String(n).padStart(3, '0')}`)));
    await page.goto(auditHref);
    await expect(rows(page)).toHaveCount(50);
    await expect(page.getByText('The newest 50 of 120 entries')).toBeVisible();
    await expect(targets(page).first()).toHaveText('target-119');

    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect(rows(page)).toHaveCount(100);
    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect(rows(page)).toHaveCount(120);
    await expect(page.getByText('All 120 entries, newest first')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load older entries' })).toHaveCount(0);
    await expect(targets(page)).toHaveText(written.map((stored) => stored.target).reverse());
  });

  test('a filter over a long log looks in bounded steps, says how far it got, and goes on to the oldest match', async ({ page }, testInfo) => {
    await appendAudit(queue.redis, keys, entry('the needle', { action: 'repairFindings', detail: 'repaired 1' }));
    await append(...Array.from({ length: 1_500 }, (_, n) => entry(`hay ${n}`)));

    await page.goto(`${auditHref}?action=repairFindings`);
    // The newest read looks at 1,000 entries at most.
    await expect(page.getByText('0 matches among the newest 1,000 entries of 1,501')).toBeVisible();
    await expect(page.getByText('No match yet among the entries looked at.')).toBeVisible();
    await testInfo.attach('audit log, filter still looking', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect(targets(page)).toHaveText(['the needle']);
    await expect(page.getByText('1 match among all 1,501 entries')).toBeVisible();
  });

  test('renders entry text as text: markup runs nothing', async ({ page }, testInfo) => {
    let dialogs = 0;
    page.on('dialog', async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    await appendAudit(queue.redis, keys, entry('<script>alert(2)</script>', { who: '<img src=x onerror=alert(1)>', detail: '<b>not bold</b>' }));
    await page.goto(auditHref);
    await expect(page.getByText('The only entry')).toBeVisible();
    await expect(page.getByText('<img src=x onerror=alert(1)>', { exact: true })).toBeVisible();
    await expect(page.getByText('<script>alert(2)</script>', { exact: true })).toBeVisible();
    await expect(page.getByText('<b>not bold</b>', { exact: true })).toBeVisible();
    await page.waitForTimeout(500);
    expect(dialogs).toBe(0);
    await testInfo.attach('audit log with markup', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });

  test('shows an entry QueueLens did not write as it is, saying what is wrong with it', async ({ page }) => {
    await queue.redis.xadd(keys.audit, '*', 'who', 'by hand', 'result', 'maybe');
    await page.goto(auditHref);
    const row = rows(page).first();
    await expect(row).toContainText('by hand');
    await expect(row).toContainText('maybe');
    await expect(row).toContainText('Not as QueueLens writes entries: role, connection, action, target, result, detail missing, too long or unknown.');
  });

  test('a wrong-typed audit key is named in an error, not a crash', async ({ page }) => {
    await queue.redis.set(keys.audit, 'not a stream');
    await page.goto(auditHref);
    const banner = page.getByRole('alert', { name: 'Cannot read the audit log' });
    await expect(banner).toContainText(`The audit log key ${keys.audit} holds a string, not a stream`);
  });
});
