import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { beyondExactIdNote } from '@/lib/shapes/job-ids';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { delayedOfQueueHref, failedHref, queueHref, reservationsHref } from '@/lib/routes';
import { screenshots } from './layout-pages';
import { SpecKeys, withSpecKeys } from './spec-keys';

/**
 * Issue 16, item 6: ids past 2^53, as PHP's 64-bit counter hands them out.
 * Each one rounds, as a JS number, to 9007199254740992 or …996: a page that
 * rounds shows a neighbour's id, and its link or button names that job.
 */
const FAILED = '9007199254740993';
const DELAYED = '9007199254740995';
const READY = '9007199254740997';
const ROUNDED = ['9007199254740992', '9007199254740996'];

/** A job hash as PHP's driver writes it, under an id no counter of ours hands out. */
async function writeAsPhp(queue: RedisQueue, name: string, id: string, place: 'failed' | 'delayed' | 'ready'): Promise<void> {
  const { keys, redis } = queue;
  const now = Number((await redis.time())[0]);
  const entry = place === 'ready' ? await redis.xadd(keys.stream(name, 0), '*', 'job', id) : '';
  await redis.hset(keys.job(id), {
    queue: name,
    name: `App\\Jobs\\Big${place}`,
    payload: '{}',
    attempts: place === 'failed' ? '3' : '0',
    max_attempts: '3',
    priority: '0',
    unique_key: '',
    available_at: String(now),
    reserved_until: '0',
    reserved_by: '',
    last_error: '',
    created_at: '2026-12-01 00:00:00',
    entry: entry ?? '',
    ...(place === 'failed' ? { error: 'boom', failed_at: '2026-12-01 00:00:00' } : {}),
  });
  await redis.sadd(keys.queues, name);
  if (place === 'failed') await redis.zadd(keys.failed, now, id);
  if (place === 'delayed') await redis.zadd(keys.delayed(name), now + 3600, id);
  if (place === 'ready') await redis.zadd(keys.levels(name), 0, '0');
}

/** The id is on the page digit for digit with its note, and nothing on the page links or acts on it or on a rounded neighbour. */
async function expectShownNotActedOn(page: Page, id: string): Promise<void> {
  await expect(page.getByText(beyondExactIdNote(id), { exact: true })).toBeVisible();
  for (const name of [id, `#${id}`, ...ROUNDED, ...ROUNDED.map((rounded) => `#${rounded}`)]) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('checkbox', { name: `Select job ${id}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: new RegExp(`job ${id}`) })).toHaveCount(0);
  for (const rounded of ROUNDED) await expect(page.getByText(rounded)).toHaveCount(0);
}

test.describe('job ids past 2^53', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  let name: string;

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      await queue.redis.unlink(...[FAILED, DELAYED, READY].map((id) => queue.keys.job(id)));
      await queue.redis.zrem(queue.keys.failed, FAILED);
    },
  );

  test.beforeAll(async () => {
    name = keys.queueName('big-ids');
    await writeAsPhp(queue, name, FAILED, 'failed');
    await writeAsPhp(queue, name, DELAYED, 'delayed');
    await writeAsPhp(queue, name, READY, 'ready');
  });

  test('the failed list shows the id exactly, with no link and no checkbox', async ({ page }, testInfo) => {
    await page.goto(failedHref);
    await expect(page.getByRole('rowheader', { name: new RegExp(FAILED) })).toBeVisible();
    await expectShownNotActedOn(page, FAILED);
    await screenshots(page, testInfo, 'failed list with an id past 2^53');
  });

  test('the queue page and the delayed timeline show the ids exactly, with no link and no Run now', async ({ page }, testInfo) => {
    await page.goto(queueHref(name));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    for (const id of [READY, DELAYED, FAILED]) await expectShownNotActedOn(page, id);
    await screenshots(page, testInfo, 'queue page with ids past 2^53');

    await page.goto(delayedOfQueueHref(name));
    await expectShownNotActedOn(page, DELAYED);
    await screenshots(page, testInfo, 'delayed timeline with an id past 2^53');
  });

  test('the reservations page shows such a claim running under its holder, not as a job gone, and offers no repair', async ({ page }, testInfo) => {
    // Reserve refuses to run the job and leaves its claim to run out.
    await expect(queue.reserve([name], 'e2e-big:1', 600)).rejects.toThrow(/beyond 2\^53/);
    await page.goto(reservationsHref);
    await expect(page.getByText('e2e-big:1').first()).toBeVisible();
    await expectShownNotActedOn(page, READY);
    await expect(page.getByText('No action: the row says why')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Running', exact: true })).toHaveText(/^Running\D*1\D*$/);
    await expect(page.getByRole('group', { name: 'Job gone', exact: true })).toHaveText(/^Job gone\D*0\D*$/);
    await screenshots(page, testInfo, 'reservations with an id past 2^53');
  });
});
