import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { settingsFromEnv } from '@/lib/redis/config';
import { delayedOfQueueHref, jobHref, layoutHref, queueHref } from '@/lib/routes';
import { expectNoAxeViolations } from './axe';
import { screenshots, showConnection } from './layout-pages';
import { REDIS_DOWN_CONNECTIONS, RESTARTABLE_REDIS_PORT, e2ePrefix, restartableRedis } from './support';

/** What only StaticPHP's reservations page says: a yii2 or marko connection must never show it. */
const HOLDERS_VIEW = 'by the worker holding it';

/** Jobs for each layout's pages to show once its Redis is back: waiting ones, and a reservation. */
const LOAD = {
  yii2: async (redis: RedisQueue) => {
    await loadYii2Fixture(redis.redis, 'stock', REDIS_DOWN_CONNECTIONS.yii2.queue());
  },
  marko: async (redis: RedisQueue) => {
    const { prefix, queue } = REDIS_DOWN_CONNECTIONS.marko;
    const worker = new MarkoTestWorker(redis.redis, prefix());
    for (const to of ['a@example.test', 'b@example.test']) await worker.push(queue(), { className: 'App\\Jobs\\SendMail', data: { to } });
    await worker.pop(queue());
  },
};

test.describe('a yii2 and a marko connection whose Redis is down when the page loads', () => {
  const { start: startRedis, stop: stopRedis } = restartableRedis();
  const connectToIt = async () => {
    let queue: RedisQueue | undefined;
    await expect(async () => {
      queue = await RedisQueue.connect({ ...settingsFromEnv(), hostname: '127.0.0.1', port: RESTARTABLE_REDIS_PORT, prefix: e2ePrefix() });
    }).toPass({ timeout: 10_000 });
    return queue!;
  };

  test.afterEach(stopRedis);

  const cannotReach = `Could not reach redis at 127.0.0.1:${RESTARTABLE_REDIS_PORT}`;

  async function expectUnreachable(page: Page, banner: string): Promise<void> {
    await expect(page.getByRole('alert', { name: banner })).toContainText(cannotReach);
  }

  for (const layout of ['yii2', 'marko'] as const) {
    const connection = REDIS_DOWN_CONNECTIONS[layout];
    test(`${layout}: the reservations and queue pages are the layout’s own, say Redis cannot be reached, and recover by themselves when it is back`, async ({
      page,
      context,
    }, testInfo) => {
      const queue = connection.queue();
      await showConnection(page, connection.name);
      await page.goto('/reservations');
      await expect(page.getByRole('heading', { level: 1, name: 'Reservations' })).toBeVisible();
      await expectUnreachable(page, 'Cannot read the reservations');
      // StaticPHP's holders page would poll a route this layout answers 501 to, for good.
      await expect(page.getByText(HOLDERS_VIEW)).toHaveCount(0);
      if (layout === 'yii2') {
        await screenshots(page, testInfo, `reservations of a ${layout} connection whose Redis is down`);
        await expectNoAxeViolations(page, `reservations of a ${layout} connection whose Redis is down`);
      }

      const queuePage = await context.newPage();
      await queuePage.goto(queueHref(queue));
      await expect(queuePage.getByRole('heading', { level: 1 })).toContainText(queue);
      await expectUnreachable(queuePage, 'Cannot read this queue');
      // The layout-neutral line page links the queue's reservations and delayed timeline; StaticPHP's queue page does not.
      await expect(queuePage.getByRole('link', { name: 'Its reservations' })).toBeVisible();

      // The other pages that choose a view by layout say so in theirs (StaticPHP's keys page would say "Cannot read the key layout").
      const otherPage = await context.newPage();
      for (const [href, banner] of [
        [delayedOfQueueHref(queue), 'Cannot read the delayed jobs'],
        [layoutHref, 'Cannot read the keys'],
        [jobHref('1'), 'Cannot read job 1'],
      ] as const) {
        await otherPage.goto(href);
        await expectUnreachable(otherPage, banner);
      }
      await otherPage.close();

      startRedis();
      const loader = await connectToIt();
      try {
        await LOAD[layout](loader);
      } finally {
        await loader.close();
      }

      // No reload: each page's next poll reads the Redis that is back.
      await expect(page.getByRole('table', { name: `Reservations of ${queue}` })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('alert', { name: 'Cannot read the reservations' })).toBeHidden();
      await expect(queuePage.getByRole('table', { name: 'Next jobs to run' })).toBeVisible({ timeout: 20_000 });
      await expect(queuePage.getByRole('alert', { name: 'Cannot read this queue' })).toBeHidden();
    });
  }
});
