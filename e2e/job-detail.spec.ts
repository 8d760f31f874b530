import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { jobHref, queueHref } from '@/lib/routes';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { withUtcMoment } from './support';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Where the job is now, in words. */
function location(page: Page): Locator {
  return page.getByRole('region', { name: 'Where it is now' });
}

/** The value shown for one field of the hash. */
function field(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: 'Fields' })
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${name}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

function toast(page: Page, text: string): Locator {
  return page
    .getByRole('status')
    .filter({ hasText: text })
    .or(page.getByRole('alert').filter({ hasText: text }));
}

test.describe('job page', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  async function failedJob(name: string, options: { maxAttempts?: number; priority?: number } = {}): Promise<{ id: number; queueName: string }> {
    const queueName = keys.queueName(name);
    const id = await queue.push(queueName, `${name}.job`, { order: 42, note: 'héllo' }, options);
    const job = await queue.reserve([queueName], 'web-1:4242', 300);
    if (job?.id !== id) throw new Error('Seeding could not reserve its job');
    await queue.fail(job, 'RuntimeException: the mail server said no\n#0 Mailer.php(12): send()\n#1 {main}');
    return { id, queueName };
  }

  test('says where a job is, and follows it without a reload', async ({ page }) => {
    const queueName = keys.queueName('where');
    const id = await queue.push(queueName, 'where.job', { step: 1 }, { priority: 4 });
    await page.goto(jobHref(id));
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Job ${id}`);
    await expect(page.getByRole('link', { name: `Queue ${queueName}` })).toHaveAttribute('href', queueHref(queueName));
    await expect(location(page)).toContainText('Ready at priority 4: waiting for a worker');

    await queue.reserve([queueName], 'web-1:4242', 300);
    await expect(location(page)).toContainText(withUtcMoment(String.raw`Reserved by web-1:4242 until {moment} \(in (4 min \d+ s|5 min)\)`));
    await expect(field(page, 'reserved_by')).toHaveText('web-1:4242');
    await expect(field(page, 'attempts')).toHaveText('1');
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);
  });

  test('tells an overdue claim, a delayed job and a stray hash apart', async ({ page }) => {
    const queueName = keys.queueName('states');
    const overdue = await queue.push(queueName, 'states.overdue', {});
    await queue.reserve([queueName], 'web-2:7', 1);
    const delayed = await queue.push(queueName, 'states.delayed', {}, { delaySeconds: 3600 });
    const stray = await keys.takeId();
    await queue.redis.hset(queue.keys.job(stray), 'queue', queueName, 'name', 'states.stray', 'entry', '');
    await sleep(2_100);

    await page.goto(jobHref(overdue));
    await expect(location(page)).toContainText(withUtcMoment(String.raw`Held by web-2:7, claim ran out at {moment} \(\d+ s ago\)`));
    await expect(location(page)).toContainText('takes it back and runs it again.');

    await page.goto(jobHref(delayed));
    await expect(location(page)).toContainText(withUtcMoment(String.raw`Delayed until {moment} \(in (59 min \d+ s|1 h)\)`));

    await page.goto(jobHref(stray));
    await expect(location(page)).toContainText('Stray: in no level, not delayed and not failed');
  });

  test('retries a failed job from its page: it is ready on its own queue with 0 attempts', async ({ page }) => {
    const { id, queueName } = await failedJob('retry', { maxAttempts: 2, priority: 6 });
    await page.goto(jobHref(id));
    await page.evaluate(() => Object.assign(window, { queuelensSameDocument: true }));

    await expect(location(page)).toContainText(withUtcMoment('Failed at {moment}'));
    const error = page.getByRole('region', { name: 'error', exact: true });
    await expect(error).toHaveText('RuntimeException: the mail server said no\n#0 Mailer.php(12): send()\n#1 {main}');
    await expect(field(page, 'failed_at')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    const maxAttempts = page.getByRole('textbox', { name: 'Max attempts' });
    for (const refused of ['0', 'five']) {
      await maxAttempts.fill(refused);
      await page.getByRole('button', { name: 'Retry', exact: true }).click();
      await expect(maxAttempts).toHaveAttribute('aria-invalid', 'true');
      await expect(maxAttempts).toHaveAccessibleDescription(/whole number from 1 to 1000/);
      await expect(maxAttempts).toHaveValue(refused);
    }
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).not.toBeNull();

    await maxAttempts.fill('5');
    await page.getByRole('button', { name: 'Retry', exact: true }).click();

    await expect(toast(page, `Retried job ${id}`)).toBeVisible();
    await expect(location(page)).toContainText('Ready at priority 0: waiting for a worker');
    await expect(field(page, 'attempts')).toHaveText('0');
    await expect(field(page, 'max_attempts')).toHaveText('5');
    await expect(field(page, 'queue')).toHaveText(queueName);
    await expect(page.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'error', exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => 'queuelensSameDocument' in window)).toBe(true);

    await page.getByRole('link', { name: `Queue ${queueName}` }).click();
    const next = page.getByRole('table', { name: 'Next jobs to run' });
    await expect(next.getByRole('link')).toHaveText([`#${id}`]);
    // The line's cells: place, job, class, attempts.
    await expect(
      next
        .getByRole('row')
        .filter({ hasText: `#${id}` })
        .getByRole('cell')
        .nth(3),
    ).toHaveText('0');
    await expect(page.getByRole('region', { name: 'Latest failed jobs' })).toContainText('No failed jobs of this queue.');
  });

  test('shows the first lines of a failed job’s error and last error at the top, linked to the whole text', async ({ page }) => {
    const { id } = await failedJob('excerpt');
    const trace = ['PDOException: deadlock found', ...Array.from({ length: 30 }, (_, n) => `#${n} Db.php(${n + 10}): query()`)].join('\n');
    await queue.redis.hset(queue.keys.job(id), 'error', trace, 'last_error', 'Timeout after 30 s');
    await page.goto(jobHref(id));

    const error = location(page).getByRole('figure', { name: 'Error', exact: true });
    await expect(error).toContainText('PDOException: deadlock found\n#0 Db.php(10): query()');
    await expect(error).toContainText('#4 Db.php(14): query()');
    await expect(error).not.toContainText('#5 Db.php(15)');
    await error.getByRole('link', { name: 'The whole error' }).click();
    await expect(page).toHaveURL(/#field-error$/);
    await expect(page.getByRole('region', { name: 'error', exact: true })).toBeInViewport();

    const lastError = location(page).getByRole('figure', { name: 'Last error', exact: true });
    await expect(lastError).toContainText('Timeout after 30 s');
    await expect(lastError.getByRole('link', { name: 'Last error in the fields below' })).toHaveAttribute('href', '#field-last_error');
  });

  test('releases or fails a reserved job from its page, with the reservations page’s actions, and links its holder’s row', async ({ page }) => {
    const queueName = keys.queueName('held');
    const id = await queue.push(queueName, 'held.job', {});
    const held = (await queue.reserve([queueName], 'web-3:99', 600))!;
    await page.goto(jobHref(id));

    await expect(location(page).getByRole('link', { name: 'Its holder’s row in the reservations' })).toHaveAttribute(
      'href',
      `/reservations?queue=${queueName}#entry-${queueName}-0-${held.entry}`,
    );
    // Its claim is still live: releasing asks first, as on the reservations page.
    await location(page)
      .getByRole('button', { name: `Release now job ${id}` })
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Release job ${id}` })
      .click();
    await expect(toast(page, `Job ${id} released`)).toBeVisible();
    await expect(location(page)).toContainText('Ready at priority 0: waiting for a worker');
    await expect(location(page).getByRole('button', { name: `Release now job ${id}` })).toHaveCount(0);

    await queue.reserve([queueName], 'web-3:99', 600);
    await expect(location(page)).toContainText('Reserved by web-3:99');
    await location(page)
      .getByRole('button', { name: `Fail… job ${id}` })
      .click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Reason' }).fill('Stuck on a dead socket');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Fail job ${id}` })
      .click();
    await expect(toast(page, `Job ${id} failed`)).toBeVisible();
    await expect(location(page)).toContainText(withUtcMoment('Failed at {moment}'));
    await expect(location(page).getByRole('figure', { name: 'Error', exact: true })).toContainText('Stuck on a dead socket');
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).not.toBeNull();
  });

  test('forgets a failed job only once that is confirmed', async ({ page }) => {
    const { id } = await failedJob('forget');
    await page.goto(jobHref(id));
    const forget = page.getByRole('button', { name: 'Forget…' });
    const dialog = page.getByRole('dialog', { name: `Forget job ${id}?` });

    await forget.click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('it is kept there, whole, and can be restored');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(forget).toBeFocused();

    await forget.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(1);
    await expect(location(page)).toContainText('Failed at');

    await forget.click();
    await dialog.getByRole('button', { name: `Forget job ${id}` }).click();

    await expect(toast(page, `Forgot job ${id}`)).toBeVisible();
    // Back on the failed list it came from, with the Undo (e2e/trash.spec.ts presses it).
    await expect(page).toHaveURL(/\/failed\?connection=default$/);
    expect(await queue.redis.exists(queue.keys.job(id))).toBe(0);
    expect(await queue.redis.zscore(queue.keys.failed, String(id))).toBeNull();
  });

  test('says a job was no longer failed when somebody else retried it first', async ({ page }) => {
    const { id } = await failedJob('raced');
    await page.goto(jobHref(id));
    // Frozen, so the page still offers Retry after the job left the failed list.
    await page.getByRole('combobox', { name: 'Refresh' }).selectOption({ label: 'Off' });
    await expect(page.getByRole('button', { name: 'Retry', exact: true })).toBeVisible();

    await queue.retryFailed([id]);
    await page.getByRole('button', { name: 'Retry', exact: true }).click();

    await expect(toast(page, `Job ${id} was no longer failed`)).toBeVisible();
    await expect(location(page)).toContainText('Ready at priority 0');
  });

  test('shows job data as text: markup in the payload and the name runs nothing', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const name = '<script>alert("name")</script><b>bold</b>';
    const id = await queue.push(keys.queueName('xss'), name, {});
    // Stored as it is, not as JSON: what a careless producer would write.
    await queue.redis.hset(
      queue.keys.job(id),
      'payload',
      '<img src=x onerror=alert(1)>',
      'last_error',
      '<img src=y onerror=alert(2)>\n<iframe src="javascript:alert(3)">',
    );
    await page.goto(jobHref(id));

    await expect(field(page, 'name')).toHaveText(name);
    await expect(page.getByRole('region', { name: 'payload' })).toHaveText('<img src=x onerror=alert(1)>');
    await expect(field(page, 'payload')).toContainText('Not JSON: shown as stored.');
    await expect(page.getByRole('region', { name: 'last_error' })).toHaveText('<img src=y onerror=alert(2)>\n<iframe src="javascript:alert(3)">');
    // Drawn again from a poll, not only by the server.
    await page.waitForResponse((response) => response.url().endsWith(`/api/jobs/${id}`));
    await expect(field(page, 'name')).toHaveText(name);
    await expect(page.locator('main img, main b, main script, main iframe')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('shows the first 64 KiB of a 20 MB payload, cut inside a character, and downloads all of it byte for byte', async ({ page, request }) => {
    const id = await queue.push(keys.queueName('huge'), 'huge.job', {});
    const huge = Buffer.alloc(20 * 1024 * 1024, 'x');
    huge.write('{"start":', 0);
    // A byte that is no UTF-8 before the cut, and '€' (E2 82 AC) torn by it.
    huge[100] = 0xff;
    huge.write('€', 64 * 1024 - 1);
    await queue.redis.hset(queue.keys.job(id), 'payload', huge);
    await page.goto(jobHref(id));

    const payload = field(page, 'payload');
    await expect(payload).toContainText('Showing the first 64 KiB of 20,971,520 bytes.');
    const shown = (await page.getByRole('region', { name: 'payload' }).textContent()) ?? '';
    expect(shown.slice(95, 108)).toBe('xxxxx\\xFFxxxx');
    expect(shown.endsWith('x\\xE2')).toBe(true);
    expect(shown.length).toBe(64 * 1024 - 1 + 4 + 3);
    await expect(payload.getByRole('button', { name: 'Copy payload' })).toHaveCount(0);
    // What the page polls stays small whatever the job holds.
    const api = await request.get(`/api/jobs/${id}`);
    expect((await api.body()).length).toBeLessThan(100 * 1024);

    const downloading = page.waitForEvent('download');
    await payload.getByRole('link', { name: 'Download the whole payload' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`job-${id}-payload.bin`);
    expect((await readFile((await download.path())!)).equals(huge)).toBe(true);
  });

  test('answers the field download with the stored bytes, and refuses what is not there', async ({ request }) => {
    const id = await keys.takeId();
    const bytes = Buffer.from([0x7b, 0xff, 0x00, 0xc3, 0x28, 0x7d]);
    await queue.redis.hset(queue.keys.job(id), 'payload', bytes);

    const response = await request.get(`/api/jobs/${id}/fields/payload`);
    expect(response.status()).toBe(200);
    expect(response.headers()).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="job-${id}-payload.bin"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    expect((await response.body()).equals(bytes)).toBe(true);

    const missingField = await request.get(`/api/jobs/${id}/fields/error`);
    expect(missingField.status()).toBe(404);
    expect(await missingField.json()).toEqual({ ok: false, error: expect.stringContaining(`Job ${id} has no field error`) });
    await queue.redis.del(queue.keys.job(id));
    expect((await request.get(`/api/jobs/${id}/fields/payload`)).status()).toBe(404);
    expect((await request.get('/api/jobs/abc/fields/payload')).status()).toBe(400);
  });

  test('shows bytes that are not UTF-8 as \\xNN, and a field the hash lacks as a dash', async ({ page }) => {
    const id = await keys.takeId();
    await queue.redis.hset(queue.keys.job(id), 'name', Buffer.from([0x62, 0x69, 0x6e, 0xff, 0xfe]), 'payload', Buffer.from('{"a":"\xc3("}', 'latin1'));
    await page.goto(jobHref(id));

    await expect(field(page, 'name')).toHaveText('bin\\xFF\\xFE');
    await expect(page.getByRole('region', { name: 'payload' })).toHaveText('{"a":"\\xC3("}');
    for (const missing of ['queue', 'attempts', 'created_at', 'entry']) await expect(field(page, missing)).toHaveText('—not stored');
    await expect(location(page)).toContainText('Stray: in no level, not delayed and not failed');
  });

  test('pretty-prints a JSON payload and copies it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const id = await queue.push(keys.queueName('copy'), 'copy.job', { id: 12345678901234567890, tags: ['a', 'b'], empty: {} });
    await page.goto(jobHref(id));

    const pretty = '{\n  "id": 12345678901234567000,\n  "tags": [\n    "a",\n    "b"\n  ],\n  "empty": {}\n}';
    await expect(page.getByRole('region', { name: 'payload' })).toHaveText(pretty);
    await page.getByRole('button', { name: 'Copy payload' }).click();
    await expect(field(page, 'payload').getByText('Copied', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pretty);
  });

  test('says why a key that is not a job hash cannot be read', async ({ page, request }) => {
    const id = await keys.takeId();
    await queue.redis.set(queue.keys.job(id), 'not a hash');
    await page.goto(jobHref(id));

    await expect(page.getByRole('alert', { name: `Cannot read job ${id}` })).toContainText(`${queue.keys.job(id)} is a string, not a job hash`);
    expect((await request.get(`/api/jobs/${id}`)).status()).toBe(500);
  });

  test('says what a job id is when the address has none, and when a job is gone', async ({ page, request }) => {
    for (const segment of ['abc', '0', '-3', '1.5']) {
      await page.goto(`/jobs/${segment}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not a job id');
      await expect(page.getByText('a job id is a whole number above 0')).toBeVisible();
    }
    expect((await request.get('/api/jobs/abc')).status()).toBe(400);

    // An id the counter handed out whose hash is gone: finished or forgotten.
    const finished = await keys.takeId();
    // No job answers: the page is a 404 that says what was looked for.
    expect((await page.goto(jobHref(finished)))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Job ${finished}`);
    await expect(page.getByText(`Job ${finished} is gone (finished or forgotten).`)).toBeVisible();
    expect(await (await request.get(`/api/jobs/${finished}`)).json()).toEqual({
      ok: true,
      data: {
        id: String(finished),
        queue: '',
        now: expect.any(Number),
        status: 'gone',
        statusText: 'it finished or was forgotten',
        places: [],
        attempts: 0,
        priority: null,
        name: null,
        message: null,
        lastId: finished,
      },
    });

    // One above the counter was never a job.
    const never = finished + 1_000_000;
    expect((await page.goto(jobHref(never)))?.status()).toBe(404);
    await expect(page.getByText(`No job ${never}: no such job was ever pushed.`)).toBeVisible();
    await expect(page.getByText(`the highest so far is ${finished}`)).toBeVisible();
  });

  test('looks right in light and dark, on a desktop and a phone', async ({ page }, testInfo) => {
    const { id } = await failedJob('looks');
    await queue.redis.hset(queue.keys.job(id), 'last_error', 'Timeout after 30 s\n#0 Worker.php(88): run()');
    await page.goto(jobHref(id));
    await expect(page.getByRole('button', { name: 'Retry', exact: true })).toBeVisible();
    await testInfo.attach('job page, light, 1280 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    const background = () => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await background()).not.toBe(light);
    await testInfo.attach('job page, dark, phone', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.getByRole('button', { name: 'Forget…' }).click();
    await testInfo.attach('forget dialog, dark, phone', { body: await page.screenshot(), contentType: 'image/png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
