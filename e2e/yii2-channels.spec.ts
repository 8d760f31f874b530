import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { DEFAULT_YII2_NG_SETTINGS } from '@/lib/layouts/settings';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { driverAcknowledge, driverPush, driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { readYii2Messages } from '@/lib/layouts/yii2/test-messages';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { screenshots, showConnection } from './layout-pages';
import { YII2_PAIR_CONNECTION, connectE2eQueue } from './support';

const [first, second] = YII2_PAIR_CONNECTION.channels();
const [message] = readYii2Messages('stock').values();

test.describe('a connection of two redis-ng channels', () => {
  let queue: RedisQueue;
  const channelOf = (name: string) => ({ connection: queue, driver: 'yii2-ng' as const, keys: new Yii2Keys(name), ng: DEFAULT_YII2_NG_SETTINGS });

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterEach(async () => {
    for (const channel of [first, second]) await deleteKeysUnder(queue.redis, `${channel}.`);
  });

  test.afterAll(async () => {
    await queue.close();
  });

  /** A worker of the real driver's steps on `channel`: every 100 ms a push, a reserve and an acknowledge, until stopped. */
  function keepWorking(channel: string): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = running.then(async () => {
        const yii = channelOf(channel);
        await driverPush(yii, message!);
        const id = await driverReserve(yii);
        if (id !== null) await driverAcknowledge(yii, id);
      });
    }, 100);
    return async () => {
      clearInterval(timer);
      await running;
    };
  }

  async function processedLabel(page: Page, channel: string) {
    const row = page
      .getByRole('table', { name: 'Jobs per queue' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: channel }) });
    return row.getByRole('img', { name: /^Processed per second over the last 15 minutes/ });
  }

  test('the overview shows a yii2 channel’s processed rate sampled from what Redis records, its queue page the chart, and /api/metrics its series', async ({
    page,
  }, testInfo) => {
    await showConnection(page, YII2_PAIR_CONNECTION.name);
    const stop = keepWorking(first);
    try {
      await page.goto('/');
      // Some rate above zero, from done advancing, once the sampler has two samples and the overview polls again.
      await expect(await processedLabel(page, first)).toHaveAccessibleName(/: (?!0\.00 )\d+\.\d\d per second now$/, { timeout: 20_000 });
      await expect(page.getByRole('table', { name: 'Jobs per queue' }).getByRole('columnheader')).toHaveText([
        'Queue',
        'Pending',
        'Delayed',
        'Reserved',
        'Total',
        'Processed/s, 15 min',
      ]);
      await expect(page.getByRole('heading', { name: 'Throughput' })).toBeVisible();
      await screenshots(page, testInfo, 'overview of two yii2-ng channels, one at work');

      const metrics = await (await page.request.get('/api/metrics')).text();
      const pushed = new RegExp(`^queuelens_queue_pushed_total\\{connection="${YII2_PAIR_CONNECTION.name}",queue="${first}"\\} ([1-9]\\d*)$`, 'm').exec(
        metrics,
      );
      expect(pushed, metrics).not.toBeNull();
      expect(metrics).toMatch(new RegExp(`^queuelens_queue_processed_total\\{connection="${YII2_PAIR_CONNECTION.name}",queue="${second}"\\} 0$`, 'm'));
      expect(metrics).not.toContain('queuelens_queue_failed_total');

      await page.goto(`/queues/${encodeURIComponent(first)}`);
      const chart = page.getByRole('figure', { name: /^Throughput of queue/ });
      await expect(chart).toBeVisible();
      // No failed series: yii2 keeps no failed jobs.
      await page.getByText('The figures as a table').click();
      const figures = page.getByRole('table', { name: /as a table$/ });
      await expect(figures.getByRole('columnheader')).toHaveText(['Sampled at', 'Processed', 'Pushed', 'Pending']);
      await screenshots(page, testInfo, 'a yii2-ng channel’s page with its throughput');
    } finally {
      await stop();
    }
  });

  test('"Go to job" opens the one channel holding an id, lists both when both do, and says when neither does; so does the job page', async ({
    page,
  }, testInfo) => {
    // Job 1 in both channels, job 2 in the second only.
    await driverPush(channelOf(first), message!);
    await driverPush(channelOf(second), message!);
    await driverPush(channelOf(second), message!);
    await showConnection(page, YII2_PAIR_CONNECTION.name);
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'Go to job' });

    await box.fill('2');
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/jobs/2\\?queue=${encodeURIComponent(second)}&connection=${YII2_PAIR_CONNECTION.name}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Job 2');
    await expect(page.getByRole('link', { name: new RegExp(`Queue ${second}$`) })).toBeVisible();

    await box.fill('99');
    await box.press('Enter');
    await expect(box).toHaveAccessibleDescription(`No job 99 in any queue of this connection (looked in ${first}, ${second}).`);

    await box.fill('#1');
    await box.press('Enter');
    const picks = page.getByRole('list', { name: 'Queues holding a job 1' });
    await expect(picks.getByRole('link')).toHaveText([first, second]);
    await screenshots(page, testInfo, 'Go to job: an id two channels hold');
    await page.setViewportSize({ width: 1400, height: 900 });
    await picks.getByRole('link', { name: first, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/1\\?queue=${encodeURIComponent(first)}&connection=${YII2_PAIR_CONNECTION.name}$`));
    await expect(page.getByRole('heading', { name: 'Where it is now' })).toBeVisible();

    // The job page without ?queue= asks which channel, and one without the id says so.
    await page.goto('/jobs/1');
    await expect(page.getByRole('heading', { name: 'In several queues' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Queues holding a job 1' }).getByRole('link')).toHaveText([`Job 1 of ${first}`, `Job 1 of ${second}`]);
    await screenshots(page, testInfo, 'the job page of an id two channels hold');
    await page.goto('/jobs/99');
    await expect(page.getByText('No queue of this connection holds a job 99.')).toBeVisible();
  });
});
