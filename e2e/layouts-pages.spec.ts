import { expect, test } from './test';
import { DEFAULT_YII2_NG_SETTINGS } from '@/lib/layouts/settings';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { YII2_GONE, YII2_NO_HOLDER } from '@/lib/layouts/yii2/reads';
import { driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { loadYii2Fixture, type Yii2Expected } from '@/lib/layouts/yii2/test-fixtures';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { delayedOfQueueHref, queueHref, reservationsOfQueueHref } from '@/lib/routes';
import { expectNoAxeViolations } from './axe';
import { jobIds, screenshots, showConnection } from './layout-pages';
import { YII2_CONNECTIONS, connectE2eQueue } from './support';

/** A job whose data holds markup: the page must show it as text. */
const MARKUP_JOB = '900';
const MARKUP = '<b id="injected">bold</b><script>document.title="owned"</script>';

const DRIVERS = [
  { driver: 'ng', fixture: 'ng-strict', connection: YII2_CONNECTIONS.ng },
  { driver: 'stock', fixture: 'stock', connection: YII2_CONNECTIONS.stock },
] as const;

test.describe('a yii2 connection’s pages', () => {
  let queue: RedisQueue;
  const loaded: Partial<Record<(typeof DRIVERS)[number]['driver'], Yii2Expected>> = {};

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    for (const { driver, fixture, connection } of DRIVERS) {
      const channel = connection.channel();
      loaded[driver] = await loadYii2Fixture(queue.redis, fixture, channel);
      const text = `s:${Buffer.byteLength(MARKUP)}:"${MARKUP}";`;
      await queue.redis.hset(new Yii2Keys(channel).messages, MARKUP_JOB, `300;O:8:"App\\Evil":1:{s:4:"html";${text}}`);
    }
  });

  test.afterAll(async () => {
    for (const { connection } of DRIVERS) await deleteKeysUnder(queue.redis, `${connection.channel()}.`);
    await queue.close();
  });

  for (const { driver, connection } of DRIVERS) {
    test(`${driver}: the queue page lists the line in the order the driver pops it`, async ({ page }, testInfo) => {
      const channel = connection.channel();
      const keys = new Yii2Keys(channel);
      // What a reserve would take, read without taking it: stock pops the list's tail, ng the lowest score.
      const order = driver === 'ng' ? await queue.redis.zrange(keys.prioritized, '0', '24') : (await queue.redis.lrange(keys.waiting, '-25', '-1')).reverse();
      await showConnection(page, connection.name);
      await page.goto(`/queues/${encodeURIComponent(channel)}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(channel);
      await expect(page.getByRole('table', { name: 'Next jobs to run' })).toBeVisible();
      expect(order.length).toBe(loaded[driver]!.statistics.waiting);
      expect(await jobIds(page, 'Next jobs to run')).toEqual(order);
      const first = page.getByRole('table', { name: 'Next jobs to run' }).getByRole('row').nth(1);
      await expect(first.getByRole('cell').first()).toHaveText('1');
      await expect(first).toContainText('harness\\jobs\\');
      // Removing is offered on each row of the line; putting back and running now are the reservations' and delayed pages'.
      await expect(first.getByRole('button', { name: `Remove job… ${order[0]} on ${channel}` })).toBeVisible();
      await expect(page.getByRole('button', { name: /release|run now|promote/i })).toHaveCount(0);
      if (driver === 'ng') await screenshots(page, testInfo, `queue page of a ${driver} channel`);
    });

    test(`${driver}: the reservations page lists each reservation with its expiry and says no holder is recorded`, async ({ page }, testInfo) => {
      const channel = connection.channel();
      await showConnection(page, connection.name);
      await page.goto('/reservations');
      await expect(page.getByRole('heading', { level: 1, name: 'Reservations' })).toBeVisible();
      await expect(page.getByText(`${YII2_NO_HOLDER}.`)).toBeVisible();
      const table = page.getByRole('table', { name: `Reservations of ${channel}` });
      const reserved = await queue.redis.zrange(new Yii2Keys(channel).reserved, '0', '-1');
      expect(reserved.length).toBe(loaded[driver]!.statistics.reserved);
      await expect(table.getByRole('link', { name: /^#\d+$/ })).toHaveCount(reserved.length);
      expect(await jobIds(page, `Reservations of ${channel}`)).toEqual(reserved);
      await expect(table).toContainText('UTC');
      await expect(page.getByRole('button', { name: /release|fail/i })).toHaveCount(0);
      // Each row says live or expired, as the counts above do (a reservation's time may run out while the test runs: they are compared, not fixed).
      const expired = await table.getByText('Expired', { exact: true }).count();
      await expect(page.getByRole('group', { name: 'Expired', exact: true })).toContainText(String(expired));
      await expect(page.getByRole('group', { name: 'Live', exact: true })).toContainText(String(reserved.length - expired));
      if (driver === 'stock') {
        // Job 5 was waiting out its 2 s TTR for a retry at capture: its reservation has run out.
        await expect(table.getByRole('row').filter({ has: page.getByRole('link', { name: '#5', exact: true }) })).toContainText('Expired');
        await screenshots(page, testInfo, `reservations of a ${driver} channel`);
      }
    });

    test(`${driver}: the delayed page shows the timeline and the next jobs due`, async ({ page }, testInfo) => {
      const channel = connection.channel();
      const delayed = loaded[driver]!.statistics.delayed;
      await showConnection(page, connection.name);
      await page.goto(`/queues/${encodeURIComponent(channel)}/delayed`);
      await expect(page.getByRole('group', { name: 'Delayed', exact: true })).toContainText(String(delayed));
      // Every scale of the shared timeline: 12 five-minute buckets, 24 hours, 7 days.
      for (const [chart, buckets] of [
        ['Coming due in the next hour', 12],
        ['Coming due in the next day', 24],
        ['Coming due in the next week', 7],
      ] as const) {
        await expect(page.getByRole('list', { name: chart }).getByRole('listitem')).toHaveCount(buckets);
      }
      const soonest = await queue.redis.zrange(new Yii2Keys(channel).delayed, '0', '19');
      expect(await jobIds(page, 'Next jobs due')).toEqual(soonest);
      // A job not due yet can be run now (e2e/layouts-repairs.spec.ts runs one); the fixture's soonest come due within a minute of loading, so only some may still offer it.
      expect(await page.getByRole('button', { name: /^Run now job / }).count()).toBeGreaterThan(0);
      if (driver === 'ng') await screenshots(page, testInfo, `delayed timeline of a ${driver} channel`);
    });

    test(`${driver}: a job page shows its class, where it is and its data decoded; a job that is gone says so`, async ({ page }, testInfo) => {
      const channel = connection.channel();
      const keys = new Yii2Keys(channel);
      const next = driver === 'ng' ? (await queue.redis.zrange(keys.prioritized, '0', '0'))[0]! : (await queue.redis.lindex(keys.waiting, '-1'))!;
      await showConnection(page, connection.name);
      await page.goto(`/queues/${encodeURIComponent(channel)}`);
      await page
        .getByRole('table', { name: 'Next jobs to run' })
        .getByRole('link', { name: `#${next}` })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: `Job ${next}` })).toBeVisible();
      const where = page.getByRole('region', { name: 'Where it is now' });
      await expect(where).toContainText(driver === 'ng' ? 'in line at place 1 of' : 'waiting at place 1 of');
      const data = page.getByRole('region', { name: 'Its data' });
      // The tree's top object names the job's class, open at first and collapsible.
      await expect(data.locator('details').first()).toHaveAttribute('open', '');
      await expect(data.locator('details > summary').first()).toContainText('harness\\jobs\\');
      await expect(data).toContainText('object');
      await expect(page.getByRole('region', { name: 'The job' })).toContainText('PHP serialize()');
      if (driver === 'ng') await screenshots(page, testInfo, `job page of a ${driver} channel`);

      // Job 3 used its attempts: the driver deleted it.
      expect((await page.goto(`/jobs/3?queue=${encodeURIComponent(channel)}`))?.status()).toBe(404);
      await expect(page.getByText(`${YII2_GONE}.`)).toBeVisible();
    });

    test(`${driver}: markup in a job's data is shown as text, and a message in no index is an orphan`, async ({ page }) => {
      const channel = connection.channel();
      await showConnection(page, connection.name);
      await page.goto(`/jobs/${MARKUP_JOB}?queue=${encodeURIComponent(channel)}`);
      await expect(page.getByRole('region', { name: 'Where it is now' })).toContainText('a message in no index: nothing will run it');
      await expect(page.getByRole('region', { name: 'Its data' })).toContainText(MARKUP);
      await expect(page.locator('#injected')).toHaveCount(0);
      expect(await page.title()).not.toBe('owned');
    });
  }

  test('an unknown channel is a 404 that says there is no such channel on this connection', async ({ page }) => {
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    const api = await page.request.get('/api/queues/no-such-channel');
    expect(api.status()).toBe(404);
    expect((await api.json()).error).toContain('There is no channel "no-such-channel" on this connection');
    expect((await page.goto('/queues/no-such-channel'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No queue no-such-channel');
    await expect(page.getByText('This connection has no queue named no-such-channel.')).toBeVisible();
  });
});

test.describe('a stock yii2 channel with due delayed jobs and an expired reservation no worker has moved yet', () => {
  const channel = YII2_CONNECTIONS.stock.channel();
  const keys = new Yii2Keys(channel);

  test('the queue page says above row 1 how many go ahead of it, linking to them, and the driver’s next reserve puts them there', async ({
    page,
  }, testInfo) => {
    const queue = await connectE2eQueue();
    try {
      // The channel as this test alone leaves it: rows 1 and 2 in line; 3 and 4 due (4 longer), 6's reservation expired.
      await deleteKeysUnder(queue.redis, `${channel}.`);
      const now = Number((await queue.redis.time())[0]);
      await queue.redis
        .multi()
        .hset(keys.messages, ...['1', '2', '3', '4', '6'].flatMap((id) => [id, '300;O:8:"App\\Note":0:{}']))
        .set(keys.messageId, 6)
        .lpush(keys.waiting, '1', '2')
        .zadd(keys.delayed, now - 5, '3', now - 20, '4')
        .zadd(keys.reserved, now - 3, '6')
        .hset(keys.attempts, '6', '1')
        .exec();
      await showConnection(page, YII2_CONNECTIONS.stock.name);
      await page.goto(queueHref(channel));
      const line = page.getByRole('region', { name: 'Next jobs to run' });
      const note = line.getByRole('note', { name: 'Not in the line yet' });
      await expect(note).toContainText(
        '2 due delayed jobs and 1 expired reservation are not in the line yet: the next reserve puts them ahead of row 1, expired reservations first, then due delayed jobs, each earliest first.',
      );
      await expect(note.getByRole('link', { name: '2 due delayed jobs' })).toHaveAttribute('href', delayedOfQueueHref(channel));
      await expect(note.getByRole('link', { name: '1 expired reservation' })).toHaveAttribute('href', reservationsOfQueueHref(channel));
      expect(await jobIds(page, 'Next jobs to run')).toEqual(['1', '2']);
      const [noteBox, tableBox] = [await note.boundingBox(), await line.getByRole('table').boundingBox()];
      expect(noteBox!.y + noteBox!.height).toBeLessThanOrEqual(tableBox!.y);
      await screenshots(page, testInfo, 'queue page of a stock channel with due and expired jobs not in line yet');
      await expectNoAxeViolations(page, 'the queue page with its note');

      // The stock driver's own reserve takes the expired reservation and puts the due jobs ahead of the rows, earliest first.
      expect(await driverReserve({ connection: queue, driver: 'yii2', keys, ng: DEFAULT_YII2_NG_SETTINGS })).toBe('6');
      await page.reload();
      await expect.poll(() => jobIds(page, 'Next jobs to run')).toEqual(['4', '3', '1', '2']);
      await expect(note).toHaveCount(0);
    } finally {
      await deleteKeysUnder(queue.redis, `${channel}.`);
      await queue.close();
    }
  });
});
