import { expect, test, type Locator, type Page } from '@playwright/test';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { deleteKeysUnder } from '@/lib/queue/scan-keys';
import { UNREACHABLE_APP_PORT, connectE2eQueue } from './support';

const FIRST_PUSH = `npx queuelens push default demo.noop '{}'`;

function failedJobs(page: Page): Locator {
  return page.getByRole('group', { name: 'Failed jobs' });
}

/** The data cells of the row whose header is exactly `name`. */
function cellsOf(table: Locator, name: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name, exact: true }) })
    .getByRole('cell');
}

/** emails: 3 ready and 1 reserved; reports: 1 delayed; and 1 failed job. */
async function seed(queue: RedisQueue): Promise<void> {
  for (let i = 0; i < 4; i++) await queue.push('emails', 'mail.send', { to: `user${i}@example.test` });
  await queue.push('reports', 'report.build', {}, { delaySeconds: 3600 });
  await queue.push('reports', 'report.broken', {});
  const held = await queue.reserve(['emails'], 'e2e-worker', 300);
  const broken = await queue.reserve(['reports'], 'e2e-worker', 300);
  if (held === null || broken === null) throw new Error('Seeding could not reserve its jobs');
  await queue.fail(broken, 'Failed on purpose by the e2e seed');
}

test.describe('queues overview', () => {
  // One prefix for the whole run: the empty state can only be seen before the seed.
  test.describe.configure({ mode: 'serial' });

  let queue: RedisQueue;

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, queue.keys.prefix);
    await queue.close();
  });

  test('shows how to push a first job while no queue has any', async ({ page }) => {
    await page.goto('/');

    await expect(page.getByText('No jobs in any queue yet.')).toBeVisible();
    await expect(page.getByRole('code')).toHaveText(FIRST_PUSH);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(failedJobs(page).getByText('0', { exact: true })).toBeVisible();
  });

  test('counts the jobs of each queue, their totals and the failed jobs', async ({ page }) => {
    await seed(queue);
    await page.goto('/');

    const table = page.getByRole('table', { name: 'Jobs per queue' });
    await expect(table.getByRole('columnheader')).toHaveText(['Queue', 'Pending', 'Delayed', 'Reserved', 'Total']);
    await expect(table.getByRole('rowheader')).toHaveText(['emails', 'reports', 'All queues']);
    await expect(cellsOf(table, 'emails')).toHaveText(['3', '0', '1', '4']);
    await expect(cellsOf(table, 'reports')).toHaveText(['0', '1', '0', '1']);
    await expect(cellsOf(table, 'All queues')).toHaveText(['3', '1', '1', '5']);
    await expect(failedJobs(page).getByText('1', { exact: true })).toBeVisible();
    await expect(page.getByText(FIRST_PUSH)).toHaveCount(0);
  });
});

test('explains that Redis cannot be reached instead of failing', async ({ page }) => {
  const response = await page.goto(`http://127.0.0.1:${UNREACHABLE_APP_PORT}/`);

  expect(response?.status()).toBe(200);
  await expect(page.getByRole('alert', { name: 'Cannot read the queues' })).toContainText(
    'Could not reach redis at 127.0.0.1:1',
  );
  await expect(page.getByRole('table')).toHaveCount(0);
});
