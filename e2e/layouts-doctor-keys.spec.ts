import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { layoutKeyHref } from '@/lib/routes';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { axeViolations, expectNoAxeViolations } from './axe';
import { screenshots, showConnection } from './layout-pages';
import { ORIGIN, postAction, serverActions } from './server-actions';
import { MARKO_CONNECTION, YII2_CONNECTIONS, connectE2eQueue } from './support';

// The doctor and keys pages of the layouts without StaticPHP's own (yii2 stock, redis-ng, marko):
// something broken by hand, found by the check, repaired from the page, gone.

const checkStatus = (page: Page) => page.getByRole('status').filter({ hasText: /Check|Stopped/ });

/** Runs the check from the page and waits for its last step. */
async function runCheck(page: Page): Promise<void> {
  await expect(async () => {
    await page.getByRole('button', { name: /^Run check/ }).click();
    await expect(checkStatus(page)).toContainText('Checking', { timeout: 2_000 });
  }).toPass();
  await expect(checkStatus(page)).toHaveText(/^Checked \d+ keys and entries/, { timeout: 30_000 });
}

/** The section of findings titled `title`, by its heading. */
const findingsOf = (page: Page, title: string) => page.getByRole('region', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) });

async function confirmRepair(page: Page, dialogTitle: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog', { name: dialogTitle });
  await expect(dialog).toContainText('Each repair is the one this check proposed');
  await dialog.getByRole('button', { name: 'Repair', exact: true }).click();
  await expect(dialog).toBeHidden();
}

test.describe('the doctor and keys pages of yii2 and marko connections', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  const ng = new Yii2Keys(YII2_CONNECTIONS.ng.channel());
  const stock = new Yii2Keys(YII2_CONNECTIONS.stock.channel());
  const marko = new MarkoKeys(MARKO_CONNECTION.prefix());

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
    await loadYii2Fixture(queue.redis, 'ng-strict', ng.channel);
    await loadYii2Fixture(queue.redis, 'stock', stock.channel);
    const worker = new MarkoTestWorker(queue.redis, marko.prefix);
    for (const to of ['a@example.test', 'b@example.test']) await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to } });
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, `${ng.channel}.`);
    await deleteKeysUnder(queue.redis, `${stock.channel}.`);
    await deleteKeysUnder(queue.redis, marko.prefix);
    await queue.close();
  });

  test('redis-ng: a job taken out of the line is found as an orphan, repaired from the page and gone; the page passes axe', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const [taken] = await queue.redis.zpopmin(ng.prioritized);
    expect(taken).toBeDefined();
    const subject = `${ng.messages} ${taken}`;
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    await page.goto('/doctor');
    await expect(page.getByRole('heading', { level: 1, name: 'Doctor' })).toBeVisible();
    await expect(page.getByText(`Checks yii2-queue-redis-ng, channel ${ng.channel}`)).toBeVisible();
    await runCheck(page);
    const orphans = findingsOf(page, 'Messages no index holds');
    await expect(orphans.getByRole('cell', { name: subject, exact: true })).toBeVisible();
    await expect(orphans).toContainText('warning');
    await expect(orphans).toContainText(`Put job ${taken} in line where the driver puts a job due this second`);
    await expectNoAxeViolations(page, 'doctor of a redis-ng channel with a finding');
    await screenshots(page, testInfo, 'doctor of a redis-ng channel with an orphan');

    await page.getByRole('button', { name: `Repair ${subject}` }).click();
    expect(await axeViolations(page, 'dialog[open]')).toEqual([]);
    await confirmRepair(page, `Repair ${subject}?`);
    await expect(page.getByText('Repaired 1 finding.')).toBeVisible();
    await expect(orphans).toHaveCount(0);
    // The repair was the server's own, from the check it kept: the job is back in ng's line.
    expect(await queue.redis.zscore(ng.prioritized, taken!)).not.toBeNull();

    await runCheck(page);
    await expect(findingsOf(page, 'Messages no index holds')).toHaveCount(0);
  });

  test('stock: the check shows it reads suspects again a few seconds later, and "Repair all" repairs two orphans at once', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const taken = [await queue.redis.rpop(stock.waiting), await queue.redis.rpop(stock.waiting)];
    expect(taken.every((id) => id !== null)).toBe(true);
    await showConnection(page, YII2_CONNECTIONS.stock.name);
    await page.goto('/doctor');
    await expect(async () => {
      await page.getByRole('button', { name: 'Run check' }).click();
      await expect(checkStatus(page)).toContainText('Checking', { timeout: 2_000 });
    }).toPass();
    // The stock driver changes a job in several commands, so a suspect is read again 3 s later: the page says so while it waits.
    await expect(checkStatus(page)).toContainText('Checking suspects again', { timeout: 20_000 });
    await expect(checkStatus(page)).toHaveText(/^Checked \d+ keys and entries/, { timeout: 30_000 });
    const orphans = findingsOf(page, 'Messages no index holds');
    for (const id of taken) await expect(orphans.getByRole('cell', { name: `${stock.messages} ${id}`, exact: true })).toBeVisible();
    await screenshots(page, testInfo, 'doctor of a stock yii2 channel with two orphans');

    await page.getByRole('button', { name: /^Repair all \d+$/ }).click();
    await confirmRepair(page, /^Repair \d+ findings\?$/);
    await expect(page.getByText(/^Repaired \d+ findings?/)).toBeVisible();
    await expect(orphans).toHaveCount(0);
    // Back on the stock list, where the driver's mover puts a job due this second.
    for (const id of taken) expect(await queue.redis.lpos(stock.waiting, id!)).not.toBeNull();
  });

  test('marko: a failed index entry with no record is found, repaired after the confirmation, and gone', async ({ page }, testInfo) => {
    await queue.redis.zadd(marko.failedIndex, Math.floor(Date.now() / 1000), 'ghost');
    const subject = `${marko.failedIndex} ghost`;
    await showConnection(page, MARKO_CONNECTION.name);
    await page.goto('/doctor');
    await runCheck(page);
    const entries = findingsOf(page, 'Failed index entries with no record');
    await expect(entries.getByRole('cell', { name: subject, exact: true })).toBeVisible();
    await screenshots(page, testInfo, 'doctor of a marko connection with a finding');
    // Cancel first: nothing changes until the operator confirms.
    await page.getByRole('button', { name: `Repair ${subject}` }).click();
    await page
      .getByRole('dialog', { name: `Repair ${subject}?` })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect(await queue.redis.zscore(marko.failedIndex, 'ghost')).not.toBeNull();
    await page.getByRole('button', { name: `Repair ${subject}` }).click();
    await confirmRepair(page, `Repair ${subject}?`);
    await expect(page.getByText('Repaired 1 finding.')).toBeVisible();
    await expect(entries).toHaveCount(0);
    expect(await queue.redis.zscore(marko.failedIndex, 'ghost')).toBeNull();
  });

  test('a repair names findings by id only: a check id or finding id the server never gave, or a repair sent as data, changes nothing', async ({
    page,
    request,
  }) => {
    const [taken] = await queue.redis.zpopmin(ng.prioritized);
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    await page.goto('/doctor');
    // A real check holds the orphan's finding on the server; the forgeries below name other ids.
    await runCheck(page);
    await expect(findingsOf(page, 'Messages no index holds').getByRole('cell', { name: `${ng.messages} ${taken}`, exact: true })).toBeVisible();
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const action = serverActions().find(({ name }) => name === 'repairLayoutCheckFindings')!;
    const forgedIds = await postAction(request, action, [{ run: 'A'.repeat(24), findings: ['B'.repeat(22)] }, YII2_CONNECTIONS.ng.name], {
      origin: ORIGIN,
      cookie,
    });
    expect(await forgedIds.text()).toContain('"outcome":"unknown"');
    const forgedRepair = await postAction(
      request,
      action,
      [{ run: 'A'.repeat(24), findings: [{ kind: 'requeue-orphan', id: taken, channel: ng.channel }] }, YII2_CONNECTIONS.ng.name],
      { origin: ORIGIN, cookie },
    );
    expect(await forgedRepair.text()).toContain('Invalid input');
    expect(await queue.redis.zscore(ng.delayed, taken!)).toBeNull();
    expect(await queue.redis.zscore(ng.prioritized, taken!)).toBeNull();
    // The page's own repair, of the finding its check kept, does it.
    await page.getByRole('button', { name: `Repair ${ng.messages} ${taken}` }).click();
    await confirmRepair(page, `Repair ${ng.messages} ${taken}?`);
    await expect(page.getByText('Repaired 1 finding.')).toBeVisible();
    expect(await queue.redis.zscore(ng.prioritized, taken!)).not.toBeNull();
  });

  test('redis-ng keys page: the channel’s twelve keys, a key of the wrong type flagged, and a census that lists a stranger; the page passes axe', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await queue.redis.set(`${ng.channel}.left-behind`, 'x');
    await queue.redis.del(ng.attempts);
    await queue.redis.set(ng.attempts, 'not a hash');
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    await page.goto('/layout');
    await expect(page.getByRole('heading', { level: 1, name: 'Keys' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Queue keys' });
    await expect(table.getByRole('row')).toHaveCount(13);
    const messages = table.getByRole('row').filter({ has: page.getByRole('cell', { name: ng.messages, exact: true }) });
    await expect(messages.getByRole('cell').nth(2)).toHaveText('hash');
    await expect(messages).toContainText('"<ttr>;<serialized job>"');
    const attempts = table.getByRole('row').filter({ has: page.getByRole('cell', { name: ng.attempts, exact: true }) });
    await expect(attempts).toContainText('Wrong type: string, expected hash');
    await expect(page.getByText('1 key has the wrong type')).toBeVisible();

    await expect(async () => {
      await page.getByRole('button', { name: 'Run census' }).click();
      await expect(page.getByRole('status').filter({ hasText: /^(Scanning|Done)/ })).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await expect(page.getByRole('status').filter({ hasText: /^Done: / })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('group', { name: 'Channel keys' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Keys the driver never creates' })).toContainText(`${ng.channel}.left-behind`);
    await expect(page.getByRole('table', { name: 'Keys named like the layout, of another type' })).toContainText(ng.attempts);
    await expectNoAxeViolations(page, 'keys page of a redis-ng channel');
    await screenshots(page, testInfo, 'keys page of a redis-ng channel after a census');
    await queue.redis.del(ng.attempts, `${ng.channel}.left-behind`);

    // A key opens on its own page, a bounded page of its fields; a key outside the channel's name is refused.
    await page.goto('/layout');
    await expect(async () => {
      await page.getByRole('table', { name: 'Queue keys' }).getByRole('link', { name: ng.messages, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Key ${ng.messages}`, { timeout: 3_000 });
    }).toPass();
    const [firstId] = await queue.redis.hkeys(ng.messages);
    await expect(page.getByRole('table', { name: 'Contents' })).toContainText(`${firstId}`);
    await screenshots(page, testInfo, 'a redis-ng channel’s messages hash opened from the keys page');
    await page.goto(layoutKeyHref('not-a-channel.messages'));
    await expect(page.getByRole('alert', { name: 'Cannot read this key' })).toContainText(`Only keys under ${ng.channel}.`);
  });

  test('stock and marko keys pages list their own keys', async ({ page }, testInfo) => {
    await showConnection(page, YII2_CONNECTIONS.stock.name);
    await page.goto('/layout');
    const stockTable = page.getByRole('table', { name: 'Queue keys' });
    // The stock driver's seven keys, none of ng's.
    await expect(stockTable.getByRole('row')).toHaveCount(8);
    await expect(stockTable.getByRole('cell', { name: stock.prioritized, exact: true })).toHaveCount(0);
    await expect(stockTable.getByRole('row').filter({ has: page.getByRole('cell', { name: stock.waiting, exact: true }) })).toContainText('list');

    await showConnection(page, MARKO_CONNECTION.name);
    await page.goto('/layout');
    const markoTable = page.getByRole('table', { name: 'Queue keys' });
    const ready = markoTable.getByRole('row').filter({ has: page.getByRole('cell', { name: marko.ready('mail'), exact: true }) });
    await expect(ready.getByRole('cell').nth(3)).toHaveText('2');
    await expect(async () => {
      await page.getByRole('button', { name: 'Run census' }).click();
      await expect(page.getByRole('status').filter({ hasText: /^(Scanning|Done)/ })).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await expect(page.getByRole('status').filter({ hasText: /^Done: / })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('group', { name: 'Job hashes' })).toContainText('2');
    await expectNoAxeViolations(page, 'keys page of a marko connection');
    await screenshots(page, testInfo, 'keys page of a marko connection after a census');
  });
});
