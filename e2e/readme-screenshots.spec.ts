import { expect, test } from './test';
import type { QueueHistory } from '@/lib/queries/throughput';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { jobHref, reservationsHref } from '@/lib/routes';
import { Worker } from '@/lib/worker/worker';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eSecrets } from './support';
import { foundStates } from './find-page';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// README.md shows these files; every e2e run writes them again, so they show the pages as they are.
const SCREENSHOTS = { overview: 'docs/screenshots/overview.png', repair: 'docs/screenshots/repair.png', find: 'docs/screenshots/find.png' };
const VIEWPORT = { width: 1280, height: 800 };
/** The customer whose jobs the Find picture finds. */
const CUSTOMER = 'acme-42';

/**
 * The README's pictures: the overview of a few queues with a worker's
 * throughput, a repair (failing a job whose worker died, from the
 * reservations page), and Find with one customer's jobs in three states
 * and three queues. Queue names a reader would use, not the specs' random
 * ones: the run's prefix is its own, so nothing else has these names.
 */
test.describe('README screenshots', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      worker?.stop();
      await running;
    },
  );

  test('the overview, a repair and Find, written to docs/screenshots', async ({ page, request }) => {
    const [emails, webhooks, imports, reports, exports] = ['emails', 'webhooks', 'imports', 'reports', 'exports'].map((name) => keys.fixedQueueName(name)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    await queue.pushMany(
      Array.from({ length: 240 }, (_, n) => ({
        queue: emails,
        name: 'mail.send',
        payload: { to: `user${n}@example.com` },
        options: { priority: n % 4 === 0 ? 5 : 0 },
      })),
    );
    // No worker runs the webhooks: the one for the customer Find looks for stays in line.
    await queue.pushMany(
      Array.from({ length: 12 }, (_, n) => ({ queue: webhooks, name: 'webhook.deliver', payload: { n, customer: n === 5 ? CUSTOMER : `customer-${n}` } })),
    );
    await queue.pushMany(
      Array.from({ length: 6 }, (_, n) => ({
        queue: reports,
        name: 'report.build',
        payload: { customer: n === 2 ? CUSTOMER : `customer-${n}`, month: '2026-11' },
        options: { delaySeconds: 600 + n * 900 },
      })),
    );
    await queue.pushMany(
      Array.from({ length: 8 }, (_, n) => ({
        queue: imports,
        name: 'import.csv',
        payload: { file: `batch-${n}.csv`, customer: n === 3 ? CUSTOMER : `customer-${n}` },
        options: { maxAttempts: 1 },
      })),
    );
    const stuck = await queue.push(exports, 'export.orders', { month: '2026-11' });
    await queue.reserve([exports], 'worker-3.internal:4242', 1);

    // A real worker for a few seconds: the charts show jobs processed, the imports fail.
    worker = new Worker(queue, {
      // The imports first, so their failures are on the overview beside the emails processed.
      queues: [imports, emails],
      handlers: {
        'mail.send': () => sleep(25),
        'import.csv': (payload) => {
          throw new Error(`Import of ${(payload as { file: string }).file} failed: row 42 has 7 columns, expected 6`);
        },
      },
      idleMs: 50,
      workerId: 'worker-1.internal:1001',
    });
    running = worker.run();
    const bearer = { authorization: `Bearer ${e2eSecrets().viewer}` };
    await expect
      .poll(
        async () => {
          const response = await request.get(`/api/queues/${encodeURIComponent(emails)}/history?range=15m`, { headers: bearer });
          const body = (await response.json()) as { data: QueueHistory };
          return body.data.points.filter((point) => (point.processed ?? 0) > 0).length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(4);
    worker.stop();
    await running;

    await page.setViewportSize(VIEWPORT);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.getByRole('link', { name: exports, exact: true }).first()).toBeVisible();
    await expect(
      page
        .getByRole('figure', { name: /^Throughput of every queue/ })
        .locator('canvas')
        .first(),
    ).toBeVisible();
    await page.screenshot({ path: SCREENSHOTS.overview, fullPage: true });

    await page.goto(reservationsHref);
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="${jobHref(stuck)}"]`) });
    await expect(row).toContainText('Overdue');
    await row.getByRole('button', { name: 'Fail…' }).click();
    const dialog = page.getByRole('dialog', { name: `Fail job ${stuck}?` });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('worker-3 died mid-export; the export is re-run by the nightly job.');
    await page.screenshot({ path: SCREENSHOTS.repair });
    await dialog.getByRole('button', { name: `Fail job ${stuck}` }).click();
    await expect(page.getByText(`Job ${stuck} failed; it is in the failed list.`)).toBeVisible();

    // "Where are this customer's jobs?": one waiting, one delayed, one failed.
    await page.goto(`/find?text=${CUSTOMER}&field=payload`);
    expect(Object.values(await foundStates(page)).sort()).toEqual(['delayed', 'failed', 'ready']);
    await page.screenshot({ path: SCREENSHOTS.find });
  });
});
