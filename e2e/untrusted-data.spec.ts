import type { Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import {
  auditHref,
  delayedOfQueueHref,
  doctorHref,
  failedHref,
  jobHref,
  layoutHref,
  layoutKeyHref,
  overviewHref,
  queueHref,
  reservationsHref,
} from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';

// Markup in every field a job has, each of which would run if any page put it into the DOM as HTML.
const IN_QUEUE = '<img src=x onerror="window.__xss=1">';
const IN_NAME = '<script>window.__xss=1</script>';
const IN_PAYLOAD = { html: '<img src=x onerror="window.__xss=1">' };
const IN_ERROR = '<svg onload="window.__xss=1"></svg>';
const IN_HOLDER = '<img src=x onerror="window.__xss=1">:7';
const IN_UNIQUE = '<iframe src="javascript:window.__xss=1"></iframe>';

async function expectNothingRan(page: Page, path: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
  // Give an injected element the time to load and fire.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss), path).toBeUndefined();
  expect(await page.locator('main img[src="x"], main svg[onload], main iframe, main script:not([nonce])').count(), path).toBe(0);
}

test.describe('untrusted job data', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('markup in every field is shown as text on every page, and runs nothing', async ({ page }) => {
    const name = keys.queueName('xss', IN_QUEUE);
    await queue.push(name, IN_NAME, IN_PAYLOAD, { maxAttempts: 1 });
    const failing = (await queue.reserve([name], IN_HOLDER, 60))!;
    await queue.fail(failing, IN_ERROR);
    const delayed = await queue.push(name, IN_NAME, IN_PAYLOAD, { delaySeconds: 600, uniqueKey: IN_UNIQUE });
    await queue.push(name, IN_NAME, IN_PAYLOAD);
    const held = (await queue.reserve([name], IN_HOLDER, 1))!;
    page.on('dialog', (dialog) => {
      throw new Error(`a dialog opened: ${dialog.message()}`);
    });

    const pages = [
      overviewHref,
      queueHref(name),
      delayedOfQueueHref(name),
      failedHref,
      jobHref(failing.id),
      jobHref(delayed),
      jobHref(held.id),
      reservationsHref,
      layoutHref,
      layoutKeyHref(queue.keys.job(delayed)),
      doctorHref,
      auditHref,
    ];
    for (const path of pages) {
      await page.goto(path);
      await expectNothingRan(page, path);
    }
    // Shown, not swallowed: the text itself is on the pages that list it.
    await page.goto(queueHref(name));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(IN_QUEUE);
    await page.goto(jobHref(failing.id));
    await expect(page.getByText(IN_ERROR).first()).toBeVisible();
    await expect(page.getByText(IN_NAME).first()).toBeVisible();
    await page.goto(reservationsHref);
    await expect(page.getByText(IN_HOLDER).first()).toBeVisible();

    // An action names the queue in the audit log; the log shows it as text too.
    await page.goto(delayedOfQueueHref(name));
    await page.getByRole('button', { name: `Run now job ${delayed}` }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Run job ${delayed} now` })
      .click();
    await expect(page.getByRole('status').filter({ hasText: `Job ${delayed} is ready` })).toBeVisible();
    await page.goto(auditHref);
    await expect(page.getByText(`job ${delayed} on ${name}`)).toBeVisible();
    await expectNothingRan(page, 'audit after an action');
  });
});
