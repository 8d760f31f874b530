import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { doctorHref } from '@/lib/routes';
import { ORIGIN, postAction, serverActions } from './server-actions';
import { SpecKeys, withSpecKeys } from './spec-keys';

test.describe('doctor page', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('shows a broken state, repairs it after a confirmation and then finds nothing', async ({ page }, testInfo) => {
    const name = keys.queueName('doctor');
    const id = await queue.push(name, 'mail.send', { to: 1 });
    await queue.redis.hset(queue.keys.job(id), 'payload', '{not json');

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Doctor' }).click();
    await expect(page).toHaveURL(new RegExp(`${doctorHref}\\?connection=default$`));
    await page.getByRole('button', { name: 'Run check' }).click();

    const group = page.getByRole('region', { name: /Payloads that are not JSON \(1\)/ });
    await expect(group).toBeVisible();
    await expect(group.getByRole('link', { name: `#${id}` })).toBeVisible();
    await expect(group).toContainText('payload is not JSON');
    await expect(page.getByRole('status').filter({ hasText: /^Checked \d+ keys and entries\.$/ })).toBeVisible();
    await testInfo.attach('findings', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await group.getByRole('button', { name: `Repair job ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Repair job ${id}?` });
    await expect(dialog).toContainText(`Fail job ${id} now`);
    await dialog.getByRole('button', { name: 'Repair' }).click();
    await expect(page.getByText('Repaired 1 finding.')).toBeVisible();
    await expect(group).toHaveCount(0);
    await expect(page.getByText('Everything the check found was repaired or was no longer broken. Run the check again to confirm.')).toBeVisible();
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).not.toBeNull();

    await page.getByRole('button', { name: 'Run check again' }).click();
    await expect(page.getByText('No problems found. The layout is consistent.')).toBeVisible();
    await testInfo.attach('clean', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });

  test('repairs every finding of a kind after one confirmation that names them', async ({ page }) => {
    const [first, second] = [await keys.takeId(), await keys.takeId()];
    await queue.redis.zadd(queue.keys.failed, 1, String(first), 2, String(second));

    await page.goto(doctorHref);
    await page.getByRole('button', { name: 'Run check' }).click();
    const group = page.getByRole('region', { name: /Failed ids whose job is gone \(2\)/ });
    await group.getByRole('button', { name: 'Repair all 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Repair 2 findings?' });
    await expect(dialog).toContainText(`Remove ${first} from ${queue.keys.failed}`);
    await expect(dialog).toContainText(`Remove ${second} from ${queue.keys.failed}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await queue.redis.zmscore(queue.keys.failed, String(first), String(second))).toEqual(['1', '2']);

    await group.getByRole('button', { name: 'Repair all 2' }).click();
    await dialog.getByRole('button', { name: 'Repair' }).click();
    await expect(page.getByText('Repaired 2 findings.')).toBeVisible();
    expect(await queue.redis.zmscore(queue.keys.failed, String(first), String(second))).toEqual([null, null]);
    await page.getByRole('button', { name: 'Run check again' }).click();
    await expect(page.getByText('No problems found. The layout is consistent.')).toBeVisible();
  });

  test('lists each of several findings in one key, each by its entry, and no drained queue', async ({ page }) => {
    const name = keys.queueName('doctor-entries');
    const drained = keys.queueName('doctor-drained');
    await queue.push(drained, 'mail.send', {});
    await queue.complete((await queue.reserve([drained], 'e2e:1', 60))!);
    const stream = queue.keys.stream(name, 0);
    await queue.redis.sadd(queue.keys.queues, name);
    await queue.redis.zadd(queue.keys.levels(name), 0, '0');
    // Entries that name no job: before findings had subjects, one stream's were one finding.
    const entries = [await queue.redis.xadd(stream, '*', 'other', 'a'), await queue.redis.xadd(stream, '*', 'other', 'b')];

    await page.goto(doctorHref);
    await page.getByRole('button', { name: 'Run check' }).click();
    const group = page.getByRole('region', { name: /Stream entries whose job is gone \(2\)/ });
    for (const entry of entries) await expect(group.getByText(`${stream} ${entry}`)).toBeVisible();
    await expect(page.getByText(drained)).toHaveCount(0);
    await group.getByRole('button', { name: 'Repair all 2' }).click();
    await page.getByRole('dialog', { name: 'Repair 2 findings?' }).getByRole('button', { name: 'Repair' }).click();
    await expect(page.getByText('Repaired 2 findings.')).toBeVisible();
    expect(await queue.redis.xlen(stream)).toBe(0);
  });

  test('a made-up state posted with a step is not checked: the step starts a check of the real layout', async ({ page, request }) => {
    // Issue 15 item 11: a 0.9 MB invented state once made a step check and report on the queues it named (a 5.2 MB answer).
    const invented = Array.from({ length: 1500 }, (_, n) => ({
      name: `invented-queue-${n}`,
      levels: Array.from({ length: 60 }, (_, level) => String(level)),
      delayed: 0,
      delayedReadable: true,
    }));
    const state = {
      phase: 'streams',
      cursor: '0',
      index: 0,
      subIndex: 0,
      queues: invented,
      highestId: 0,
      seq: null,
      seqReadable: true,
      queuesReadable: true,
      failedReadable: true,
      examined: 0,
      steps: 0,
    };
    await page.goto(doctorHref);
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const step = serverActions().find((action) => action.name === 'runLayoutCheckStep')!;

    const answer = await postAction(request, step, [{ run: null, state }], { origin: ORIGIN, cookie });
    expect(answer.status()).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(/"run":"[\w-]{24}"/);
    expect(text).not.toContain('invented-queue-');
    expect(text.length).toBeLessThan(200_000);
    // In the run id's place the state is no id at all, and refused as such.
    expect(await (await postAction(request, step, [{ run: state }], { origin: ORIGIN, cookie })).text()).toMatch(/"ok":false/);
  });
});
