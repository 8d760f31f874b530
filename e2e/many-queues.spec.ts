import { expect, test } from './test';
import { rowNames } from './overview-table';
import { expectNoAxeViolations } from './axe';
import { screenshots } from './layout-pages';
import { OVERVIEW_PAGE_ROWS } from '@/lib/queries/overview';
import { QUEUE_PICKER_OPTIONS } from '@/lib/shapes/queue-picker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { writeWaitingJob } from './backdated-job';
import { SpecKeys, withSpecKeys } from './spec-keys';

/** Queues a tenant each, as applications with thousands of customers run them. */
const TENANTS = 2000;
/** Marked queues: more than the attention summary names, so it counts the rest. */
const STALLED = 12;
const LONG_AGO_SECONDS = 600;

test.describe('the overview with thousands of queues', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  // Named tenant-0000… so that by name they come in their index's order; pushed straight, not through SpecKeys (whose clean-up scans per queue).
  const tenants: string[] = [];
  const stalled: string[] = [];

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      for (let start = 0; start < tenants.length; start += 500) {
        const names = tenants.slice(start, start + 500);
        await queue.redis.unlink(...names.flatMap((name) => [queue.keys.levels(name), queue.keys.delayed(name), queue.keys.stream(name, 0)]));
        await queue.redis.srem(queue.keys.queues, ...names);
      }
    },
  );

  test.beforeAll(async () => {
    const suffix = Math.random().toString(16).slice(2, 8);
    for (let index = 0; index < TENANTS; index++) tenants.push(`tenant-${String(index).padStart(4, '0')}-${suffix}`);
    for (let start = 0; start < TENANTS; start += 200) await Promise.all(tenants.slice(start, start + 200).map((name) => queue.push(name, 'e2e.tenant', {})));
    // Named to sort after every tenant: only their trouble puts them first.
    for (let index = 0; index < STALLED; index++) {
      const name = keys.queueName(`zz-stalled-${String(index).padStart(2, '0')}`);
      stalled.push(name);
      await writeWaitingJob(queue, keys, name, LONG_AGO_SECONDS);
    }
    stalled.sort();
  });

  test('shows one page of the queues, those that need attention first, and counts every queue in the totals and the banner', async ({ page, request }) => {
    await page.goto('/');
    const summary = page.getByRole('note', { name: `${STALLED} queues need attention` });
    await expect(summary).toBeVisible();
    await expect(summary).toContainText(`And ${STALLED - 10} more: the table lists every queue that needs attention first.`);
    await expect(summary.getByRole('listitem')).toHaveCount(10);

    const names = await rowNames(page);
    expect(names).toHaveLength(OVERVIEW_PAGE_ROWS);
    expect(names.slice(0, STALLED)).toEqual(stalled);
    expect(names.slice(STALLED)).toEqual(tenants.slice(0, OVERVIEW_PAGE_ROWS - STALLED));
    await expect(page.getByRole('navigation', { name: 'Pages of queues', exact: true })).toContainText(
      `Queues 1–50 of ${(TENANTS + STALLED).toLocaleString('en-US')}, page 1 of 41`,
    );
    // Pending of every queue, not only of the page's.
    await expect(page.getByRole('group', { name: 'Pending' })).toContainText((TENANTS + STALLED).toLocaleString('en-US'));

    // The page carries the rows it shows and no others: its size does not grow with the queues beyond them.
    const html = await (await request.get('/')).text();
    const tenantsCarried = new Set(tenants.filter((name) => html.includes(name)));
    expect([...tenantsCarried].sort()).toEqual(tenants.slice(0, OVERVIEW_PAGE_ROWS - STALLED));
  });

  test('finds a queue of page 3 by part of its name, and pages to it', async ({ page }) => {
    // Page 3 holds rows 101–150: the stalled queues come first, so tenant 120 is row 133.
    const wanted = tenants[120]!;
    await page.goto('/');
    const pager = page.getByRole('navigation', { name: 'Pages of queues', exact: true });
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(pager).toContainText('Queues 51–100');
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(pager).toContainText('Queues 101–150');
    await expect(page).toHaveURL(/\/\?page=3&connection=default$/);
    expect(await rowNames(page)).toContain(wanted);

    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Queue name contains' }).fill(wanted.slice(0, 11).toUpperCase());
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${wanted.slice(0, 11).toUpperCase()}&connection=default$`));
    await expect.poll(() => rowNames(page)).toEqual([wanted]);
    await expect(page.getByRole('navigation', { name: 'Pages of queues', exact: true })).toHaveCount(0);
    // The banner still speaks of every queue.
    await expect(page.getByRole('note', { name: `${STALLED} queues need attention` })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Queue name contains' }).fill('no-such-tenant');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByText(/^No queue’s name contains no-such-tenant\. Clear the filter to list all 2,012 queues again\.$/)).toBeVisible();
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(() => rowNames(page)).toHaveLength(OVERVIEW_PAGE_ROWS);
  });

  test('the failed list’s queue filter is a field any queue’s name is typed in, suggesting a bounded few, not a list of thousands', async ({ page }) => {
    const wanted = tenants[1800]!;
    await page.goto('/failed');
    const filter = page.getByRole('search', { name: 'Filter failed jobs' });
    const field = filter.getByRole('combobox', { name: 'Queue' });
    await expect(field).toHaveValue('');
    expect(await filter.locator('datalist option').count()).toBe(QUEUE_PICKER_OPTIONS);
    await field.fill(wanted);
    await filter.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]queue=${encodeURIComponent(wanted)}(&|$)`));
    await expect(filter.getByRole('combobox', { name: 'Queue' })).toHaveValue(wanted);
  });

  test('orders by the figure asked for after the queues that need attention', async ({ page }) => {
    const busiest = tenants[1500]!;
    await queue.push(busiest, 'e2e.tenant', {});
    await queue.push(busiest, 'e2e.tenant', {});
    // Pushed behind QueueLens's back: the overview shows them from the sampler's next tick, a read of every one of these 2,000 queues,
    // which on this 2-core machine under CI once took longer than the default 5 s to show them.
    await expect
      .poll(
        async () => {
          await page.goto('/?sort=pending');
          return (await rowNames(page))[STALLED];
        },
        { timeout: 20_000 },
      )
      .toBe(busiest);
    await expect(page.getByRole('combobox', { name: 'Then order by' })).toHaveValue('pending');
    expect((await rowNames(page)).slice(0, STALLED)).toEqual(stalled);
  });

  test('the reservations page reads the queues the latest count found jobs reserved in, says so, and shows their holders', async ({ page }, testInfo) => {
    const held = tenants[1700]!;
    await queue.reserve([held], 'e2e-tenant-host:4242', 300);
    await page.goto('/reservations');
    // Reserved behind QueueLens's back: the queue is read from the count after it, and the page's poll shows it.
    await expect(page.getByRole('heading', { name: 'Held by e2e-tenant-host:4242' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/^Of the [\d,]+ queues, (the one|the [\d,]+) that had jobs reserved at the count of/)).toBeVisible();
    await screenshots(page, testInfo, 'reservations among thousands of queues');
    await expectNoAxeViolations(page, 'reservations among thousands of queues');
    await page.goto(`/reservations?queue=${encodeURIComponent(tenants[10]!)}`);
    await expect(page.getByText(`No job of ${tenants[10]!} is reserved.`)).toBeVisible();
    await expect(page.getByText(/^Of the [\d,]+ queues/)).toHaveCount(0);
  });
});
