import { expect, test } from './test';
import { LARAVEL_COPY_AS_IS } from '@/lib/layouts/laravel/absent';
import { LaravelHarness, requireRealLaravel } from '@/lib/layouts/laravel/php-harness';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import { MARKO_ABSENT } from '@/lib/layouts/marko/absent';
import { DEFAULT_YII2_NG_SETTINGS } from '@/lib/layouts/settings';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { layoutTrashKeys } from '@/lib/layouts/trash';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import type { Yii2Channel } from '@/lib/layouts/yii2/repairs';
import { driverAcknowledge, driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { loadYii2Fixture } from '@/lib/layouts/yii2/test-fixtures';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { expectNoAxeViolations } from './axe';
import { screenshots, showConnection } from './layout-pages';
import { LARAVEL_CONNECTION, MARKO_CONNECTION, YII2_CONNECTIONS, connectE2eQueue, e2eDashboardPrefix } from './support';

/** Run a copy… on the layouts QueueLens does not push for: yii2 copies the message, edited where it is JSON; marko says why it cannot. */

/** Reserves and acknowledges every job the channel's own driver hands out (lib/layouts/yii2/test-drivers.ts); the ids in the order it ran them. */
async function drain(channel: Yii2Channel): Promise<string[]> {
  const ran: string[] = [];
  for (let id = await driverReserve(channel); id !== null; id = await driverReserve(channel)) {
    ran.push(id);
    await driverAcknowledge(channel, id);
  }
  return ran;
}

test.describe('Run a copy of a job', () => {
  let queue: RedisQueue;
  const channelOf = (connection: (typeof YII2_CONNECTIONS)['stock' | 'ng']): Yii2Channel => ({
    connection: queue,
    driver: connection.layout,
    keys: new Yii2Keys(connection.channel()),
    ng: DEFAULT_YII2_NG_SETTINGS,
  });

  test.beforeAll(async () => {
    queue = await connectE2eQueue();
  });

  test.afterAll(async () => {
    for (const connection of [YII2_CONNECTIONS.ng, YII2_CONNECTIONS.stock]) await deleteKeysUnder(queue.redis, `${connection.channel()}.`);
    await deleteKeysUnder(queue.redis, MARKO_CONNECTION.prefix());
    await deleteKeysUnder(queue.redis, layoutTrashKeys(MARKO_CONNECTION.prefix(), e2eDashboardPrefix()).prefix);
    await deleteKeysUnder(queue.redis, LARAVEL_CONNECTION.prefix());
    await queue.close();
  });

  test('a JSON-serialized redis-ng job is copied with its message edited, the changes shown first; ng runs the copy once and the original is untouched', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const channel = channelOf(YII2_CONNECTIONS.ng);
    await loadYii2Fixture(queue.redis, 'ng-json-serializer', channel.keys.channel);
    const original = (await queue.redis.hget(channel.keys.messages, '8'))!;
    const [, ttr, body] = /^(\d+);([\s\S]*)$/.exec(original)!;
    await showConnection(page, YII2_CONNECTIONS.ng.name);
    await page.goto('/jobs/8');
    await page.getByRole('button', { name: 'Run a copy…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a copy of job 8' });
    const editor = dialog.getByRole('textbox', { name: 'Message (JSON, after its TTR prefix)' });
    await expect(editor).toHaveValue(body!);
    await editor.fill('[1, 2]');
    await expect(dialog.getByText('The message must be a JSON object naming its "class"')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Run the copy' })).toBeDisabled();
    const edited = body!.replace('"job-1"', '"job-1 <b>copy</b>"');
    expect(edited).not.toBe(body);
    await editor.fill(edited);
    await expect(dialog.getByLabel('Changes to the payload')).toContainText('job-1 <b>copy</b>');
    await screenshots(page, testInfo, 'run a copy dialog, edited');
    await expectNoAxeViolations(page, 'run a copy dialog, edited');
    await page.setViewportSize({ width: 1400, height: 900 });
    await dialog.getByRole('button', { name: 'Run the copy' }).click();
    const copied = page.getByRole('status').filter({ hasText: `is a copy of job 8 on ${channel.keys.channel}` });
    await expect(copied).toBeVisible();
    const id = /Job (\d+) is a copy/.exec((await copied.textContent()) ?? '')![1]!;
    expect(await queue.redis.hget(channel.keys.messages, id)).toBe(`${ttr};${edited}`);
    expect(await queue.redis.hget(channel.keys.messages, '8')).toBe(original);
    const ran = await drain(channel);
    expect([ran.filter((one) => one === id).length, ran.filter((one) => one === '8').length]).toEqual([1, 1]);
  });

  test('a PHP-serialized stock job is copied as stored, delayed; marko says why it is not copied', async ({ page }, testInfo) => {
    const channel = channelOf(YII2_CONNECTIONS.stock);
    await loadYii2Fixture(queue.redis, 'stock', channel.keys.channel);
    const original = await queue.redis.hgetBuffer(channel.keys.messages, '7');
    await showConnection(page, YII2_CONNECTIONS.stock.name);
    await page.goto('/jobs/7');
    await page.getByRole('button', { name: 'Run a copy…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a copy of job 7' });
    await expect(dialog.getByText('Its message is copied as stored: only a JSON-serialized message, read whole, can be edited here')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: /Message/ })).toHaveCount(0);
    await dialog.getByRole('textbox', { name: 'Delay (seconds)' }).fill('3600');
    await dialog.getByRole('button', { name: 'Run the copy' }).click();
    const copied = page.getByRole('status').filter({ hasText: `is a copy of job 7 on ${channel.keys.channel}, due in 3600 s` });
    await expect(copied).toBeVisible();
    const id = /Job (\d+) is a copy/.exec((await copied.textContent()) ?? '')![1]!;
    expect(await queue.redis.hgetBuffer(channel.keys.messages, id)).toEqual(original);
    const [seconds] = await queue.redis.time();
    expect(Number(await queue.redis.zscore(channel.keys.delayed, id)) - Number(seconds)).toBeGreaterThan(3500);
    expect(await queue.redis.hgetBuffer(channel.keys.messages, '7')).toEqual(original);

    const worker = new MarkoTestWorker(queue.redis, MARKO_CONNECTION.prefix());
    const marko = await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to: 'a@example.test' } });
    await showConnection(page, MARKO_CONNECTION.name);
    await page.goto(`/jobs/${marko}?queue=mail`);
    await expect(page.getByRole('region', { name: 'Run a copy' })).toContainText(MARKO_ABSENT.jobCopies.slice(1));
    await expect(page.getByRole('button', { name: 'Run a copy…' })).toHaveCount(0);
    await screenshots(page, testInfo, 'job page of a marko job, saying why it is not copied');
  });

  test('a Laravel job is copied as stored with a new id, uuid and 0 attempts, and the real pop runs the copy and the original once each', async ({
    page,
  }, testInfo) => {
    requireRealLaravel();
    const laravel = new LaravelHarness(LARAVEL_CONNECTION.prefix(), 'copy-e2e');
    const original = await laravel.push('<b>copied</b>');
    await showConnection(page, LARAVEL_CONNECTION.name);
    await page.goto(`/jobs/${original}?queue=copy-e2e`);
    await page.getByRole('button', { name: 'Run a copy…' }).click();
    const dialog = page.getByRole('dialog', { name: `Run a copy of job ${original}` });
    await expect(dialog).toContainText(`${LARAVEL_COPY_AS_IS}.`);
    await screenshots(page, testInfo, 'run a copy dialog of a Laravel job');
    await expectNoAxeViolations(page, 'run a copy dialog of a Laravel job');
    await page.setViewportSize({ width: 1400, height: 900 });
    await dialog.getByRole('button', { name: 'Run the copy' }).click();
    const copied = page.getByRole('status').filter({ hasText: `is a copy of job ${original} on copy-e2e` });
    await expect(copied).toBeVisible();
    const id = /Job (\w+) is a copy/.exec((await copied.textContent()) ?? '')![1]!;
    expect((await laravel.drain()).map((job) => job.id)).toEqual([original, id]);
  });
});
