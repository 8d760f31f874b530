import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import {
  connectHref,
  delayedOfQueueHref,
  doctorHref,
  failedHref,
  findSearchHref,
  glossaryHref,
  jobHref,
  layoutHref,
  layoutKeyHref,
  queueHref,
  reservationsHref,
  sessionsHref,
  trashHref,
} from '@/lib/routes';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import { LaravelKeys } from '@/lib/layouts/laravel/keys';
import { LaravelHarness, requireRealLaravel } from '@/lib/layouts/laravel/php-harness';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { axeViolations } from './axe';
import { showConnection } from './layout-pages';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { LARAVEL_CONNECTION, MARKO_CONNECTION, YII2_CONNECTIONS } from './support';

const WIDTHS = [
  { name: 'desktop', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** How far the page runs wider than the window, in CSS pixels: 0 when nothing needs a sideways scroll. */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** True when the element lies wholly inside the window's width once scrolled to vertically (nothing sideways to reach it). */
async function withinWidth(locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const width = await locator.page().evaluate(() => document.documentElement.clientWidth);
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

/**
 * axe on each of `pages`, light and dark, at a desktop's and a phone's
 * width, after one load per page: the theme and the width change under it,
 * as they do when a phone turns or the system goes dark. No violation
 * expected, and no page wider than a phone.
 */
async function expectNoViolationsOnPages(
  page: Page,
  testInfo: TestInfo,
  pages: readonly { name: string; path: string; ready: (page: Page) => Locator }[],
): Promise<void> {
  const found: Record<string, string[]> = {};
  for (const { name, path, ready } of pages) {
    await page.setViewportSize(WIDTHS[0]);
    await page.emulateMedia({ colorScheme: THEMES[0] });
    await page.goto(path);
    await expect(ready(page)).toBeVisible();
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const { name: size, width, height } of WIDTHS) {
        await page.setViewportSize({ width, height });
        await expect(ready(page)).toBeVisible();
        const label = `${name}, ${theme}, ${size}`;
        await attachScreenshot(page, testInfo, label);
        const violations = await axeViolations(page);
        if (violations.length > 0) found[label] = violations;
        if (size === 'phone') expect.soft(await pageOverflow(page), `${label}: px wider than the screen`).toBe(0);
      }
    }
  }
  await testInfo.attach('axe violations', { body: JSON.stringify(found, null, 2), contentType: 'application/json' });
  expect(found).toEqual({});
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

test.describe('accessibility: every page on a phone, by keyboard and in the dark', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;
  let seeded: { queue: string; failedId: number; heldId: number; delayedId: number; holder: string };

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test.beforeAll(async () => {
    const name = keys.queueName('a11y-mail');
    await queue.pushMany(
      [0, 0, 5].map((priority, index) => ({ queue: name, name: 'mail.send', payload: { to: `user${index}@example.com` }, options: { priority } })),
    );
    await queue.push(name, 'mail.bounce', { to: 'gone@example.com' });
    const failing = (await queue.reserve([name], 'e2e-host:1', 60))!;
    await queue.fail(
      failing,
      `SmtpException: 550 mailbox unavailable for ${'a-very-long-recipient-address@example.com '.repeat(3)}\n#0 /app/src/Mailer.php(88): send()`,
    );
    const delayedId = await queue.push(name, 'mail.digest', { daily: true }, { delaySeconds: 3600 });
    const holder = 'worker-host-with-a-long-name.example.internal:4242';
    await queue.push(name, 'mail.held', {});
    const held = (await queue.reserve([name], holder, 1))!;
    seeded = { queue: name, failedId: failing.id, heldId: held.id, delayedId, holder };
  });

  const pages = (): { name: string; path: string; ready: (page: Page) => Locator }[] => [
    { name: 'overview', path: '/', ready: (page) => page.getByRole('link', { name: seeded.queue, exact: true }).first() },
    { name: 'failed', path: failedHref, ready: (page) => page.locator(`a[href="${jobHref(seeded.failedId)}"]`).first() },
    { name: 'failed job', path: jobHref(seeded.failedId), ready: (page) => page.getByRole('region', { name: 'Where it is now' }) },
    { name: 'reserved job', path: jobHref(seeded.heldId), ready: (page) => page.getByRole('region', { name: 'Where it is now' }) },
    { name: 'queue', path: queueHref(seeded.queue), ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'delayed', path: delayedOfQueueHref(seeded.queue), ready: (page) => page.locator(`a[href="${jobHref(seeded.delayedId)}"]`).first() },
    { name: 'reservations', path: reservationsHref, ready: (page) => page.locator(`a[href="${jobHref(seeded.heldId)}"]`).first() },
    { name: 'doctor', path: doctorHref, ready: (page) => page.getByRole('button', { name: 'Run check' }) },
    { name: 'keys', path: layoutHref, ready: (page) => page.getByRole('table', { name: 'Queue keys', exact: true }) },
    {
      name: 'key contents',
      path: layoutKeyHref(queue.keys.stream(seeded.queue, 0)),
      ready: (page) => page.getByRole('table', { name: 'Contents', exact: true }),
    },
    { name: 'audit', path: '/audit', ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'alerts', path: '/alerts', ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'glossary', path: glossaryHref, ready: (page) => page.getByRole('heading', { level: 1 }) },
    {
      name: 'find',
      path: findSearchHref({ text: 'mail', field: 'any', queue: null, states: [] }),
      // Done once it has found the four states' jobs: the delayed one is among them.
      ready: (page) => page.getByRole('table', { name: 'Jobs found' }).getByRole('row').filter({ hasText: 'mail.digest' }),
    },
    { name: 'trash', path: trashHref, ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'connect', path: connectHref, ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'sessions', path: sessionsHref, ready: (page) => page.getByRole('heading', { level: 1 }) },
  ];

  test('axe finds nothing on any page, light and dark, wide and on a phone; no page runs wider than a phone', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await expectNoViolationsOnPages(page, testInfo, pages());
  });

  test('axe finds nothing on any page of a yii2, a marko and a Laravel connection, light and dark, wide and on a phone', async ({ page }, testInfo) => {
    test.setTimeout(450_000);
    requireRealLaravel();
    const channel = YII2_CONNECTIONS.ng.channel();
    const markoPrefix = MARKO_CONNECTION.prefix();
    const laravelPrefix = LARAVEL_CONNECTION.prefix();
    const laravel = new LaravelHarness(laravelPrefix, 'a11y');
    try {
      await loadYii2Fixture(queue.redis, 'ng-strict', channel);
      const [yii2Job] = await queue.redis.zrange(new Yii2Keys(channel).prioritized, '0', '0');
      const marko = new MarkoTestWorker(queue.redis, markoPrefix);
      await marko.push('mail', { className: 'App\\Jobs\\SendMail', data: { to: 'a@example.test' } });
      await marko.later(3600, 'mail', { className: 'App\\Jobs\\SendMail', data: { to: 'later@example.test' } });
      const failing = (await marko.pop('mail'))!;
      await marko.fail('mail', failing.id, 'RuntimeException: SMTP refused');
      const laravelJob = await laravel.push('ready');
      await laravel.later(3600);
      await laravel.push('held');
      await laravel.pop(600);
      const heading = (page: Page) => page.getByRole('heading', { level: 1 });
      const layoutPages = (queueName: string, job: string) => [
        { name: 'overview', path: '/', ready: (page: Page) => page.getByRole('link', { name: queueName, exact: true }).first() },
        { name: 'queue', path: queueHref(queueName), ready: heading },
        { name: 'delayed', path: delayedOfQueueHref(queueName), ready: heading },
        { name: 'reservations', path: reservationsHref, ready: heading },
        { name: 'failed', path: failedHref, ready: heading },
        { name: 'job', path: `${jobHref(job)}?queue=${encodeURIComponent(queueName)}`, ready: heading },
        { name: 'doctor', path: doctorHref, ready: heading },
        { name: 'keys', path: layoutHref, ready: heading },
        { name: 'find', path: findSearchHref({ text: 'a', field: 'any', queue: queueName, states: [] }), ready: heading },
      ];
      await showConnection(page, YII2_CONNECTIONS.ng.name);
      await expectNoViolationsOnPages(
        page,
        testInfo,
        layoutPages(channel, yii2Job!).map((entry) => ({ ...entry, name: `yii2 ${entry.name}` })),
      );
      await showConnection(page, MARKO_CONNECTION.name);
      await expectNoViolationsOnPages(
        page,
        testInfo,
        layoutPages('mail', failing.id).map((entry) => ({ ...entry, name: `marko ${entry.name}` })),
      );
      await showConnection(page, LARAVEL_CONNECTION.name);
      await expectNoViolationsOnPages(
        page,
        testInfo,
        layoutPages('a11y', laravelJob).map((entry) => ({ ...entry, name: `Laravel ${entry.name}` })),
      );
    } finally {
      await deleteKeysUnder(queue.redis, `${channel}.`);
      await deleteKeysUnder(queue.redis, markoPrefix);
      await deleteKeysUnder(queue.redis, new LaravelKeys(laravelPrefix).queuesPrefix + 'a11y');
    }
  });

  test('the sign-in page has no axe violations, light and dark', async ({ browser }, testInfo) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const { name: size, width, height } of WIDTHS) {
        await page.setViewportSize({ width, height });
        await page.goto(`${testInfo.project.use.baseURL}/login`);
        await expect(page.getByLabel('Secret')).toBeVisible();
        await attachScreenshot(page, testInfo, `sign in, ${theme}, ${size}`);
        const violations = await axeViolations(page);
        if (violations.length > 0) found[`sign in, ${theme}, ${size}`] = violations;
      }
    }
    await context.close();
    expect(found).toEqual({});
  });

  test('an open dialog has no axe violations, keeps focus inside and closes on Escape', async ({ page }, testInfo) => {
    await page.goto(reservationsHref);
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="${jobHref(seeded.heldId)}"]`) });
    const opener = row.getByRole('button', { name: 'Fail…' });
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: `Fail job ${seeded.heldId}?` });
      await expect(dialog).toBeVisible();
      await attachScreenshot(page, testInfo, `fail dialog, ${theme}`);
      expect(await axeViolations(page), theme).toEqual([]);

      // Tab and Shift+Tab go round the dialog's controls and never leave it.
      for (let step = 0; step < 6; step++) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      for (let step = 0; step < 6; step++) {
        await page.keyboard.press('Shift+Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }
    expect(await queue.redis.hget(queue.keys.job(seeded.heldId), 'reserved_by')).toBe(seeded.holder);
  });

  test('a skip link is the first thing Tab reaches, and it moves focus to the page’s content', async ({ page }) => {
    await page.goto(failedHref);
    await expect(page.locator(`a[href="${jobHref(seeded.failedId)}"]`).first()).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab goes on inside the page, past the header.
    await page.keyboard.press('Tab');
    expect(await page.getByRole('main').evaluate((main) => main.contains(document.activeElement))).toBe(true);
  });

  test('every landmark has a name of its own, and every button’s name starts with the words it shows', async ({ page }) => {
    for (const { name, path, ready } of pages()) {
      await page.goto(path);
      await expect(ready(page)).toBeVisible();
      const { duplicates, misnamed } = await page.evaluate(() => {
        const landmarks = [
          ...document.querySelectorAll(
            'header, nav, main, aside, footer, form[aria-label], form[aria-labelledby], section[aria-label], section[aria-labelledby], [role=region], [role=search], [role=navigation]',
          ),
        ];
        const nameOf = (element: Element) => {
          const labelledBy = element.getAttribute('aria-labelledby');
          if (labelledBy)
            return labelledBy
              .split(' ')
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' ')
              .trim();
          return element.getAttribute('aria-label') ?? '';
        };
        const seen = new Map<string, number>();
        for (const element of landmarks) {
          const key = `${element.getAttribute('role') ?? element.tagName.toLowerCase()}: ${nameOf(element)}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
        const buttons = [...document.querySelectorAll('button[aria-label]')].filter(
          (button) => (button.textContent ?? '').trim() !== '' && !button.querySelector('[aria-hidden=true]'),
        );
        return {
          duplicates: [...seen].filter(([, count]) => count > 1).map(([key]) => key),
          misnamed: buttons
            .map((button) => ({ shown: (button.textContent ?? '').trim().replace(/\s+/g, ' '), name: button.getAttribute('aria-label') ?? '' }))
            .filter(({ shown, name }) => !name.toLowerCase().startsWith(shown.toLowerCase()))
            .map(({ shown, name }) => `"${name}" shows "${shown}"`),
        };
      });
      expect.soft(duplicates, `${name}: landmarks named alike`).toEqual([]);
      expect.soft(misnamed, `${name}: buttons`).toEqual([]);
    }
  });

  test('on a phone the failed list shows the error and the reservations’ Release and Fail are on screen and work', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(failedHref);
    const failedRow = page.getByRole('row').filter({ has: page.locator(`a[href="${jobHref(seeded.failedId)}"]`) });
    const error = failedRow.getByText('SmtpException: 550 mailbox unavailable', { exact: false });
    await expect(error).toBeVisible();
    expect(await withinWidth(error)).toBe(true);
    expect(await withinWidth(failedRow.getByRole('checkbox'))).toBe(true);
    await attachScreenshot(page, testInfo, 'failed, phone');

    await page.goto(reservationsHref);
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="${jobHref(seeded.heldId)}"]`) });
    const release = row.getByRole('button', { name: 'Release now' });
    const fail = row.getByRole('button', { name: 'Fail…' });
    expect(await withinWidth(release)).toBe(true);
    expect(await withinWidth(fail)).toBe(true);
    await attachScreenshot(page, testInfo, 'reservations, phone');
    expect(await pageOverflow(page)).toBe(0);

    await release.click();
    // Focus goes to the outcome, not back to the top of the page.
    const outcome = page.getByRole('status').filter({ hasText: `Job ${seeded.heldId} released` });
    await expect(outcome).toBeVisible();
    await expect(page.locator(':focus')).toHaveCount(1);
    expect(await outcome.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    expect(await queue.redis.hget(queue.keys.job(seeded.heldId), 'reserved_by')).not.toBe(seeded.holder);
  });
});
