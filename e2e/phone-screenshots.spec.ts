import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { failedHref, jobHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';

// docs/dashboard.md shows these at a phone's width; every e2e run of this spec writes them again, so they show the pages as they are.
const SCREENSHOTS = {
  overview: 'docs/screenshots/phone-overview.png',
  failed: 'docs/screenshots/phone-failed.png',
  job: 'docs/screenshots/phone-job.png',
};
const PHONE = { width: 390, height: 844 };

/**
 * What an on-call engineer sees first on a phone (the viewport, not the
 * whole page: the point is what is above the fold): the overview with a
 * stuck reservation and failing imports among quiet queues, the failed list
 * and one failed job.
 */
test.describe('phone screenshots', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('the overview, the failed list and a job at 390 px, written to docs/screenshots', async ({ page }) => {
    const [emails, webhooks, imports, exports] = ['emails', 'webhooks', 'imports', 'exports'].map((name) => keys.queueName(name)) as [
      string,
      string,
      string,
      string,
    ];
    await queue.pushMany(Array.from({ length: 40 }, (_, n) => ({ queue: emails, name: 'mail.send', payload: { to: `user${n}@example.com` } })));
    await queue.pushMany(
      Array.from({ length: 6 }, (_, n) => ({ queue: webhooks, name: 'webhook.deliver', payload: { n }, options: { delaySeconds: 600 + n * 60 } })),
    );
    await queue.pushMany(
      Array.from({ length: 30 }, (_, n) => ({ queue: imports, name: 'import.csv', payload: { file: `batch-${n}.csv` }, options: { maxAttempts: 1 } })),
    );
    for (let job = await queue.reserve([imports], 'worker-1.internal:1001', 300); job; job = await queue.reserve([imports], 'worker-1.internal:1001', 300)) {
      await queue.fail(
        job,
        `Import of ${(JSON.parse(job.payload) as { file: string }).file} failed: row 42 has 7 columns, expected 6\n  at ImportCsv->handle (app/Jobs/ImportCsv.php:57)`,
      );
    }
    await queue.push(exports, 'export.orders', { month: '2026-11' });
    await queue.reserve([exports], 'worker-3.internal:4242', 1);
    const [failedId] = (await queue.redis.zrevrange(queue.keys.failed, 0, 0)) as [string];

    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByRole('link', { name: exports, exact: true }).first()).toBeVisible();
    await page.screenshot({ path: SCREENSHOTS.overview });

    await page.goto(failedHref);
    await expect(page.getByRole('checkbox', { name: `Select job ${failedId}` })).toBeVisible();
    await page.screenshot({ path: SCREENSHOTS.failed });

    await page.goto(jobHref(failedId));
    await expect(page.getByText('row 42 has 7 columns').first()).toBeVisible();
    await page.screenshot({ path: SCREENSHOTS.job });
  });
});
