import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { MARKO_NO_HOLDER } from '@/lib/layouts/marko/absent';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MARKO_FAILED, MARKO_GONE } from '@/lib/layouts/marko/pages';
import { UNVERIFIED_SIGNATURE } from '@/lib/layouts/marko/payload';
import { MarkoTestWorker, serializeJob, signPayload } from '@/lib/layouts/marko/test-worker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { jobIds, screenshots, showConnection } from './layout-pages';
import { MARKO_CONNECTION, OPERATOR_STATE, connectE2eQueue } from './support';

async function showMarko(page: Page): Promise<void> {
  await showConnection(page, MARKO_CONNECTION.name);
}

/** A job hash in no list or set whose data holds markup: the page must show it as text. */
const MARKUP_JOB = 'markup-job';
const MARKUP = '<b id="injected">bold</b><script>document.title="owned"</script>';

test.describe('a marko/queue-redis connection', () => {
  let queue: RedisQueue;
  const prefix = MARKO_CONNECTION.prefix();
  const ids = { ready: '', delayed: '', reserved: '', failed: '' };

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    // Written as marko's documented scripts write it: one ready, one delayed, one reserved and one failed job in "mail".
    const worker = new MarkoTestWorker(queue.redis, prefix);
    const pushed: string[] = [];
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test'])
      pushed.push(await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to } }));
    ids.ready = pushed[2]!;
    ids.delayed = await worker.later(3600, 'mail', { className: 'App\\Jobs\\SendMail', data: { to: 'later@example.test' } });
    ids.reserved = (await worker.pop('mail'))!.id;
    const failing = (await worker.pop('mail'))!;
    ids.failed = failing.id;
    await worker.fail('mail', failing.id, 'RuntimeException: <b>SMTP</b> refused');
    await queue.redis.hset(
      new MarkoKeys(prefix).job(MARKUP_JOB),
      'queue',
      'mail',
      'payload',
      signPayload(serializeJob('App\\Evil', { html: MARKUP })),
      'attempts',
      '0',
    );
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, prefix);
    await queue.close();
  });

  test('the overview shows its queues’ counts and failed jobs; the failed page lists the failed one with the command that retries it', async ({
    page,
  }, testInfo) => {
    await showMarko(page);
    await page.goto('/');
    await expect(page.getByRole('combobox', { name: 'Redis' }).locator('option:checked')).toHaveText(`${MARKO_CONNECTION.label} · marko/queue-redis`);
    const row = page
      .getByRole('table', { name: 'Jobs per queue' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'mail' }) });
    await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '3']);
    await expect(page.getByRole('group', { name: 'Failed jobs' })).toContainText('1');
    await expect(page.getByRole('list', { name: 'What this layout cannot show' })).toContainText('QueueLens does not sample marko throughput yet');
    for (const [colorScheme, width] of [
      ['light', 1400],
      ['dark', 390],
    ] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await testInfo.attach(`overview of a marko connection, ${colorScheme}, ${width} px`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: 'image/png',
      });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }

    await page.goto('/failed');
    const failed = page.getByRole('table', { name: 'Failed jobs, newest first' });
    await expect(failed.getByRole('rowheader')).toHaveText([ids.failed]);
    await expect(failed).toContainText('RuntimeException: <b>SMTP</b> refused');
    await expect(failed).toContainText(`marko queue:retry ${ids.failed}`);
    const api = await page.request.get('/api/failed');
    expect(api.status()).toBe(200);
  });

  test('the queue page lists the ready jobs head first, with their class and no TTR column', async ({ page }, testInfo) => {
    await showMarko(page);
    await page.goto('/queues/mail');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('mail');
    const table = page.getByRole('table', { name: 'Next jobs to run' });
    await expect(table).toBeVisible();
    expect(await jobIds(page, 'Next jobs to run')).toEqual(await queue.redis.lrange(new MarkoKeys(prefix).ready('mail'), '0', '24'));
    expect(await jobIds(page, 'Next jobs to run')).toEqual([ids.ready]);
    const first = table.getByRole('row').nth(1);
    await expect(first.getByRole('cell').first()).toHaveText('1');
    await expect(first).toContainText('App\\Jobs\\SendMail');
    await expect(table.getByRole('columnheader', { name: 'TTR' })).toHaveCount(0);
    await expect(page.getByText('marko’s documentation says a pop takes jobs in order without naming the end')).toBeVisible();
    // Removing is offered on each row of the line; putting back and running now are the reservations' and delayed pages'.
    await expect(first.getByRole('button', { name: `Remove job… ${ids.ready} on mail` })).toBeVisible();
    await expect(page.getByRole('button', { name: /release|run now|promote/i })).toHaveCount(0);
    await screenshots(page, testInfo, 'queue page of a marko queue');
  });

  test('the reservations page lists the reservation with its expiry and, retryAfter being set, since when; no holder is recorded', async ({
    page,
  }, testInfo) => {
    await showMarko(page);
    await page.goto('/reservations');
    await expect(page.getByRole('heading', { level: 1, name: 'Reservations' })).toBeVisible();
    await expect(page.getByText(`${MARKO_NO_HOLDER}.`)).toBeVisible();
    const table = page.getByRole('table', { name: 'Reservations of mail' });
    expect(await jobIds(page, 'Reservations of mail')).toEqual([ids.reserved]);
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ids.reserved}` }) });
    await expect(row).toContainText('Live');
    await expect(row).toContainText('UTC');
    await expect(row).not.toContainText('not known');
    await expect(page.getByRole('group', { name: 'Live', exact: true })).toContainText('1');
    await expect(page.getByRole('group', { name: 'Expired', exact: true })).toContainText('0');
    // Live: ended only after asking (marko-changes.spec.ts clicks it); an expired one would be put back in line.
    await expect(row.getByRole('button', { name: `End reservation… job ${ids.reserved} on mail` })).toBeVisible();
    await expect(page.getByRole('button', { name: /Put back in line/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'reservations of a marko connection');
  });

  test('the delayed page shows the timeline and the next job due', async ({ page }, testInfo) => {
    await showMarko(page);
    await page.goto('/queues/mail/delayed');
    await expect(page.getByRole('group', { name: 'Delayed', exact: true })).toContainText('1');
    for (const [chart, buckets] of [
      ['Coming due in the next hour', 12],
      ['Coming due in the next day', 24],
      ['Coming due in the next week', 7],
    ] as const) {
      await expect(page.getByRole('list', { name: chart }).getByRole('listitem')).toHaveCount(buckets);
    }
    expect(await jobIds(page, 'Next jobs due')).toEqual([ids.delayed]);
    await expect(page.getByText('each pop moves every due job')).toBeVisible();
    await expect(page.getByRole('button', { name: `Run now job ${ids.delayed} on mail` })).toBeVisible();
    await expect(page.getByRole('button', { name: /Move due jobs/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'delayed timeline of a marko queue');
  });

  test('a job page shows every field of its hash, the signed payload’s parts, unverified, and the job as a tree; a failed job’s page says it failed and how to retry it', async ({
    page,
  }, testInfo) => {
    await showMarko(page);
    await page.goto('/queues/mail');
    await page
      .getByRole('table', { name: 'Next jobs to run' })
      .getByRole('link', { name: `#${ids.ready}` })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: `Job ${ids.ready}` })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Where it is now' })).toContainText('ready at place 1 of the ready list');
    const job = page.getByRole('region', { name: 'The job' });
    for (const fact of ['Field queue', 'Field payload', 'Field attempts', 'Signature', 'Encoding', 'not checked', 'b64: the PHP serialization in base64'])
      await expect(job).toContainText(fact);
    await expect(job).not.toContainText('TTR');
    await expect(job.getByRole('note').filter({ hasText: 'Not verified' })).toContainText(UNVERIFIED_SIGNATURE);
    const data = page.getByRole('region', { name: 'Its data' });
    await expect(data.locator('details').first()).toHaveAttribute('open', '');
    await expect(data.locator('details > summary').first()).toContainText('App\\Jobs\\SendMail');
    await expect(data).toContainText('c@example.test');
    await screenshots(page, testInfo, 'job page of a marko job');

    await page.goto(`/jobs/${ids.failed}?queue=mail`);
    await expect(page.getByRole('region', { name: 'It failed' })).toContainText(`${MARKO_FAILED}.`);
    await expect(page.getByRole('region', { name: 'It failed' })).toContainText(`marko queue:retry ${ids.failed}`);
  });

  test('the failed page and the other lists arrive with their rows in the server’s HTML, before any JavaScript runs', async ({ browser }) => {
    // The first paint: the page as the server rendered it, with no script to fill in what it left out.
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: OPERATOR_STATE });
    try {
      const page = await context.newPage();
      await showMarko(page);
      await page.goto('/failed');
      await expect(page.getByText('Showing 1–1 of 1 failed jobs, newest first')).toBeVisible();
      const failed = page.getByRole('table', { name: 'Failed jobs, newest first' });
      await expect(failed.getByRole('rowheader')).toHaveText([ids.failed]);
      await expect(failed).toContainText(`marko queue:retry ${ids.failed}`);
      for (const [path, table, id] of [
        ['/queues/mail', 'Next jobs to run', ids.ready],
        ['/reservations', 'Reservations of mail', ids.reserved],
        ['/queues/mail/delayed', 'Next jobs due', ids.delayed],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('table', { name: table }).getByRole('link', { name: `#${id}` }), path).toBeVisible();
      }
    } finally {
      await context.close();
    }
  });

  test('markup in a job’s data is shown as text, and a hash in no list or set says it was not found in one', async ({ page }) => {
    await showMarko(page);
    await page.goto(`/jobs/${MARKUP_JOB}?queue=mail`);
    await expect(page.getByRole('region', { name: 'Where it is now' })).toContainText('its id is in neither its queue’s delayed nor reserved set');
    await expect(page.getByRole('region', { name: 'Its data' })).toContainText(MARKUP);
    await expect(page.locator('#injected')).toHaveCount(0);
    expect(await page.title()).not.toBe('owned');
  });

  test('a job id with no hash is a 404 that says what was looked for and why it is not there', async ({ page }) => {
    await showMarko(page);
    expect((await page.goto('/jobs/no-such-job'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Job no-such-job');
    await expect(page.getByText('No job no-such-job on this connection.')).toBeVisible();
    await expect(page.getByText(`${MARKO_GONE}.`)).toBeVisible();
    expect((await page.goto('/jobs/no-such-job?queue=mail'))?.status()).toBe(404);
    await expect(page.getByText('Job no-such-job is not in mail.')).toBeVisible();
  });
});
