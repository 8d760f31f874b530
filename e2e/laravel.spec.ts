import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { dashboardKeys, trashKeys } from '@/lib/dashboard/keys';
import { LARAVEL_NO_HOLDER } from '@/lib/layouts/laravel/absent';
import { HORIZON_FAILED, HorizonKeys } from '@/lib/layouts/laravel/horizon';
import { LaravelKeys } from '@/lib/layouts/laravel/keys';
import { JOB_SEARCH_LIMIT } from '@/lib/layouts/laravel/pages';
import { READY_REMOVAL_REACH } from '@/lib/layouts/line-repairs';
import { PAGE_ROWS } from '@/lib/layouts/pages';
import { LaravelHarness, requireRealLaravel } from '@/lib/layouts/laravel/php-harness';
import { horizonCountsFinished, horizonFails } from '@/lib/layouts/laravel/test-horizon';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { expectNoAxeViolations } from './axe';
import { jobIds, screenshots, showConnection } from './layout-pages';
import { LARAVEL_CONNECTION, connectE2eQueue, e2eDashboardPrefix, withUtcMoment } from './support';

async function showLaravel(page: Page): Promise<void> {
  await showConnection(page, LARAVEL_CONNECTION.name);
}

test.describe('a Laravel connection, its jobs written by the real Illuminate\\Queue\\RedisQueue', () => {
  let queue: RedisQueue;
  const prefix = LARAVEL_CONNECTION.prefix();
  const keys = new LaravelKeys(prefix);
  const laravel = new LaravelHarness(prefix, 'default');
  const horizon = new HorizonKeys(LARAVEL_CONNECTION.horizonPrefix());
  const ids = { reserved: '', first: '', second: '', delayed: '', failed: '' };

  /** Copies of a payload the real driver pushed onto `name` (and taken off again), each its own job: `count` of them, `${label}${n}` for n from `from`. */
  async function payloadCopies(name: string): Promise<(label: string, from: number, count: number) => string[]> {
    await new LaravelHarness(prefix, name).push('template');
    const template = JSON.parse((await queue.redis.lpop(keys.ready(name)))!) as Record<string, unknown>;
    return (label, from, count) =>
      Array.from({ length: count }, (_, n) => JSON.stringify({ ...template, id: `${label}${from + n}`, uuid: `${label}-${from + n}` }));
  }

  test.beforeAll(async () => {
    requireRealLaravel();
    queue = await connectE2eQueue();
    ids.reserved = await laravel.push('reserved');
    ids.first = await laravel.push('first');
    ids.second = await laravel.push('second');
    ids.delayed = await laravel.later(3600);
    expect(await laravel.pop(600)).toMatchObject({ id: ids.reserved });
    // A job of "mail" that failed under Horizon: the real popped payload, its reservation taken out, written as Horizon's failed() writes it.
    const mail = new LaravelHarness(prefix, 'mail');
    await mail.push('mailed');
    await mail.pop(600);
    const [payload] = await queue.redis.zrangeBuffer(keys.reserved('mail'), 0, '0');
    await queue.redis.del(keys.reserved('mail'));
    const [now] = await queue.redis.time();
    ids.failed = await horizonFails(queue.redis, horizon, payload!, {
      exception: 'RuntimeException: <b>SMTP</b> refused in /app/Mail.php:12\n#0 {main}',
      at: Number(now) - 60,
      queue: 'mail',
    });
  });

  test.afterAll(async () => {
    await deleteKeysUnder(queue.redis, prefix);
    await deleteKeysUnder(queue.redis, horizon.prefix);
    // What its remove and forget kept in QueueLens's trash.
    await deleteKeysUnder(queue.redis, trashKeys(dashboardKeys(e2eDashboardPrefix()), prefix).prefix);
    await deleteKeysUnder(queue.redis, trashKeys(dashboardKeys(e2eDashboardPrefix()), horizon.prefix).prefix);
    await queue.close();
  });

  test('the overview shows its queue’s counts, and Horizon’s failed jobs', async ({ page }, testInfo) => {
    await showLaravel(page);
    await page.goto('/');
    await expect(page.getByRole('combobox', { name: 'Redis' }).locator('option:checked')).toHaveText(`${LARAVEL_CONNECTION.label} · Laravel Redis queue`);
    const row = page
      .getByRole('table', { name: 'Jobs per queue' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'default' }) });
    // The last cell counts the queue's failures of the last 15 minutes in Horizon's failed list: the one failed job is of "mail".
    await expect(row.getByRole('cell')).toHaveText(['2', '1', '1', String(await laravel.size()), '0', /^Processed per second over the last 15 minutes/]);
    await expect(page.getByRole('group', { name: 'Failed jobs' })).toContainText('1');
    await expect(page.getByRole('list', { name: 'What this layout cannot show' })).toContainText('Laravel and Horizon record no count of pushes');
    await screenshots(page, testInfo, 'overview of a Laravel connection');
    await expectNoAxeViolations(page, 'overview of a Laravel connection');
  });

  test('the queue page lists the ready list head first, as Laravel’s pop takes it', async ({ page }, testInfo) => {
    await showLaravel(page);
    await page.goto('/queues/default');
    expect(await jobIds(page, 'Next jobs to run')).toEqual([ids.first, ids.second]);
    await expect(page.getByRole('table', { name: 'Next jobs to run' }).getByRole('row').nth(1)).toContainText('HarnessJob');
    await screenshots(page, testInfo, 'queue page of a Laravel queue');
    await expectNoAxeViolations(page, 'queue page of a Laravel queue');
  });

  test('the queue page charts the jobs Horizon counts as finished, with no pushed series', async ({ page }, testInfo) => {
    await showLaravel(page);
    await page.goto('/queues/default');
    await expect(page.getByText('Processed and failed per second and the pending backlog')).toBeVisible();
    // Ten jobs finished, counted as Horizon's UpdateJobMetrics listener counts them, between two of the sampler's ticks.
    for (let i = 0; i < 10; i++) await horizonCountsFinished(queue.redis, horizon, 'default', 5);
    await page.getByText('The figures as a table').click();
    const table = page.getByRole('table', { name: 'Throughput of queue default, last 1 hour, as a table' });
    await expect(table.getByRole('columnheader')).toHaveText(['Sampled at', 'Processed', 'Failed', 'Pending']);
    await expect(table.getByRole('row').filter({ hasText: /[1-9][\d.]*\/s/ })).not.toHaveCount(0, { timeout: 15_000 });
    await screenshots(page, testInfo, 'Laravel queue page with the throughput Horizon counts');
  });

  test('the failed page lists Horizon’s failed job with Retry, which pushes it onto its queue’s line as Horizon does; its page shows the record and the retry', async ({
    page,
  }, testInfo) => {
    await showLaravel(page);
    await page.goto('/failed');
    const failed = page.getByRole('table', { name: 'Failed jobs, newest first' });
    await expect(failed.getByRole('rowheader')).toHaveText([ids.failed]);
    await expect(failed).toContainText('RuntimeException: <b>SMTP</b> refused');
    // QueueLens retries it itself: no command to copy, no max attempts (Horizon's retry keeps maxTries).
    await expect(page.getByText('php artisan queue:retry')).toHaveCount(0);
    await expect(page.getByLabel('Max attempts on retry')).toHaveCount(0);
    await page.getByRole('checkbox', { name: `Select job ${ids.failed}` }).check();
    const retry = page.getByRole('button', { name: 'Retry 1' });
    await expect(retry).toBeEnabled();
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshots(page, testInfo, 'failed page of a Laravel connection with Horizon');
    await expectNoAxeViolations(page, 'failed page of a Laravel connection with Horizon');
    await retry.click();
    await expect(page.getByText('Retried 1 job')).toBeVisible();

    // Horizon keeps the record on its list, with the retry named in retried_by.
    const [retried] = JSON.parse((await queue.redis.hget(horizon.job(ids.failed), 'retried_by'))!) as { id: string; status: string }[];
    expect(retried).toMatchObject({ status: 'pending' });
    await expect(failed.getByRole('rowheader')).toHaveText([ids.failed]);
    await page.goto('/queues/mail');
    expect(await jobIds(page, 'Next jobs to run')).toEqual([retried!.id]);

    await page.goto(`/jobs/${ids.failed}`);
    const region = page.getByRole('region', { name: 'It failed' });
    await expect(region).toContainText(`${HORIZON_FAILED}.`);
    await expect(region).toContainText('RuntimeException: <b>SMTP</b> refused');
    await expect(region).toContainText('as Horizon’s retry does: a new id, 0 attempts');
    await expect(page.getByText('Horizon retried_by')).toBeVisible();
    await expect(page.getByText(`${retried!.id} (pending, retried`)).toBeVisible();
    // Its retry has not run: a second retry is refused, not pushed.
    await region.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect(page.getByText(`Job ${ids.failed} was not retried: its retry ${retried!.id} has not run yet`)).toBeVisible();
    expect(await queue.redis.llen(keys.ready('mail'))).toBe(1);
    await expect(page.getByText('Horizon status')).toBeVisible();
    await expect(page.locator('b', { hasText: 'SMTP' })).toHaveCount(0);
    // The real pop runs the retry once, as a job of its own.
    const ran = await new LaravelHarness(prefix, 'mail').drain();
    expect(ran.map((job) => [job.id, job.payload.retry_of])).toEqual([[retried!.id, ids.failed]]);
  });

  test('the reservations page lists the reserved job with its attempts and no holder', async ({ page }) => {
    await showLaravel(page);
    await page.goto('/reservations');
    await expect(page.getByText(`${LARAVEL_NO_HOLDER}.`)).toBeVisible();
    expect(await jobIds(page, 'Reservations of default')).toEqual([ids.reserved]);
  });

  test('the job page shows the payload decoded, its command as PHP data shown as text, and a remove takes the exact job out', async ({ page }, testInfo) => {
    await showLaravel(page);
    await page.goto(`/jobs/${ids.second}?queue=default`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(ids.second);
    await expect(page.getByText('displayName')).toBeVisible();
    await expect(page.getByText('<b>not markup</b> & "quoted"').first()).toBeVisible();
    await expect(page.locator('b', { hasText: 'not markup' })).toHaveCount(0);
    await screenshots(page, testInfo, 'job page of a Laravel job');
    await expectNoAxeViolations(page, 'job page of a Laravel job');

    const [, secondBytes] = await queue.redis.lrangeBuffer(keys.ready('default'), 0, -1);
    await page.getByRole('button', { name: `Remove job… ${ids.second} on default` }).click();
    const removal = page.getByRole('dialog', { name: `Remove job ${ids.second}?` });
    await removal.getByRole('button', { name: `Remove job ${ids.second}` }).click();
    const removed = page.getByRole('status').filter({ hasText: `Job ${ids.second} was removed from default. Kept in the Trash.` });
    await expect(removed).toBeVisible();
    const ready = await queue.redis.lrange(keys.ready('default'), 0, -1);
    expect(ready.map((payload) => (JSON.parse(payload) as { id: string }).id)).toEqual([ids.first]);
    // Kept in QueueLens's trash: Undo puts the payload back byte for byte, at the line's tail as Laravel's push would.
    await removed.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText('Restored 1 job')).toBeVisible();
    expect(await queue.redis.lrangeBuffer(keys.ready('default'), 0, -1)).toEqual([expect.anything(), secondBytes]);
    // The real pop takes what is there: the first job, the restored one, then nothing (the delayed one is an hour away).
    expect((await laravel.drain()).map((job) => job.id)).toEqual([ids.first, ids.second]);
  });

  test('a job beyond what the job page searches from the head says so and links to Find, whose row opens it where it was found; Remove there and on the line takes it', async ({
    page,
  }, testInfo) => {
    // Three pages, each screenshotted and checked with axe in four views: 25 to 35 s here, beyond the default 30.
    test.slow();
    // 2,000 jobs ahead of two (copies of a real payload, each its own id), each pushed by the real driver.
    const copies = await payloadCopies('deep');
    await queue.redis.rpush(keys.ready('deep'), ...copies('ahead', 0, JOB_SEARCH_LIMIT));
    const deep = new LaravelHarness(prefix, 'deep');
    const id = await deep.push('beyond');
    const next = await deep.push('beyond too');
    const readyIds = async () =>
      (await queue.redis.lrange(keys.ready('deep'), JOB_SEARCH_LIMIT, -1)).map((payload) => (JSON.parse(payload) as { id: string }).id);

    await showLaravel(page);
    await page.goto(`/jobs/${id}?queue=deep`);
    const where = page.getByRole('region', { name: 'Where it is now' });
    await expect(where).toContainText(/^Where it is now\s*unsearched: it is in none of the first 2,000 elements/i);
    await expect(page.getByRole('region', { name: 'Its data' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Remove job…/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'job page of a Laravel job beyond the 2,000 searched');
    await expectNoAxeViolations(page, 'job page of a Laravel job beyond the 2,000 searched');

    await where.getByRole('link', { name: 'Search its whole queue on Find' }).click();
    const found = page.getByRole('table', { name: 'Jobs found' });
    const row = found.getByRole('row').filter({ has: page.getByRole('link', { name: id }) });
    await expect(row).toContainText('ready');
    expect(new URL(page.url()).searchParams.get('queue')).toBe('deep');

    // Find saw it one place from the list's tail: its page looks there, reads it whole, and offers Remove.
    await row.getByRole('link', { name: id }).click();
    await expect(where).toContainText('ready at place 2,001 of the ready list');
    await expect(page.getByRole('region', { name: 'Its data' })).toContainText('beyond');
    await screenshots(page, testInfo, 'job page of a Laravel job opened from Find where it was found');
    await expectNoAxeViolations(page, 'job page of a Laravel job opened from Find where it was found');
    // Run a copy looks where the page found it too: the copy goes onto the tail, as Laravel's push puts one.
    await page.getByRole('button', { name: 'Run a copy…' }).click();
    await page
      .getByRole('dialog', { name: `Run a copy of job ${id}` })
      .getByRole('button', { name: 'Run the copy' })
      .click();
    const copied = page.getByRole('status').filter({ hasText: `is a copy of job ${id} on deep` });
    await expect(copied).toBeVisible();
    const copyId = /Job (\w+) is a copy/.exec((await copied.textContent()) ?? '')![1]!;
    expect(await readyIds()).toEqual([id, next, copyId]);
    await queue.redis.rpop(keys.ready('deep'));
    await page.getByRole('button', { name: `Remove job… ${id} on deep` }).click();
    await page
      .getByRole('dialog', { name: `Remove job ${id}?` })
      .getByRole('button', { name: `Remove job ${id}` })
      .click();
    await expect(page.getByRole('status').filter({ hasText: `Job ${id} was removed from deep.` })).toBeVisible();
    expect(await readyIds()).toEqual([next]);

    // The line's page 81 shows place 2,001 on: its Remove looks where the row is.
    await page.goto('/queues/deep?page=81');
    await page.getByRole('button', { name: `Remove job… ${next} on deep` }).click();
    await page
      .getByRole('dialog', { name: `Remove job ${next}?` })
      .getByRole('button', { name: `Remove job ${next}` })
      .click();
    await expect(page.getByRole('status').filter({ hasText: `Job ${next} was removed from deep.` })).toBeVisible();
    expect(await readyIds()).toEqual([]);
    expect(await queue.redis.llen(keys.ready('deep'))).toBe(JOB_SEARCH_LIMIT);

    // Its link, opened after it was removed from a list longer than the look-up reads around the place: unsearched, saying where it looked.
    await queue.redis.rpush(keys.ready('deep'), ...copies('behind', 0, JOB_SEARCH_LIMIT + 200));
    await page.goto(`/jobs/${next}?queue=deep&near=t1`);
    await expect(where).toContainText(/unsearched: .*up to 4,000 elements of its queue’s ready list around place 2 from its tail, where it was seen/i);
    await screenshots(page, testInfo, 'job page of a Laravel job not found around where it was seen');
    await expectNoAxeViolations(page, 'job page of a Laravel job not found around where it was seen');
  });

  test('Remove on 400 matches found near the tail removes each, though every removal moves the places of those nearer the head', async ({ page }) => {
    // 400 copies of a real payload, their ids holding the text, then 50 others at the tail: Find reads them from the tail, a chunk at a time.
    const copies = await payloadCopies('many');
    await queue.redis.rpush(keys.ready('many'), ...copies('needlemany', 0, 400), ...copies('other', 0, 50));

    await showLaravel(page);
    await page.goto(`/find?text=needlemany&field=payload&queue=many`);
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('400 matches. Done.');
    await page.getByRole('button', { name: 'Remove 400 live…' }).click();
    await page.getByRole('dialog', { name: 'Remove 400 jobs found?' }).getByRole('button', { name: 'Remove 400 jobs' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Removed 400 jobs. Kept in the Trash.' })).toBeVisible();
    expect(await queue.redis.lrange(keys.ready('many'), 0, -1)).toEqual(copies('other', 0, 50));
  });

  test('Remove on a match pushed out of its look-up’s reach since the search changes nothing and says to search again, which finds it where it is', async ({
    page,
  }, testInfo) => {
    const copies = await payloadCopies('aged');
    await queue.redis.rpush(keys.ready('aged'), ...copies('head', 0, JOB_SEARCH_LIMIT), ...copies('needleaged', 0, 1), ...copies('before', 0, 10));
    await showLaravel(page);
    await page.goto('/find?text=needleaged&field=payload&queue=aged');
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('1 match. Done.');

    // Producers push 2,000 more after the search and workers pop as many: the match is 2,010 places from the tail, where it was seen at 10,
    // and the list's length, the same, tells none of those pushes.
    await queue.redis.rpush(keys.ready('aged'), ...copies('after', 0, JOB_SEARCH_LIMIT));
    await queue.redis.lpop(keys.ready('aged'), JOB_SEARCH_LIMIT);
    const removeIt = async () => {
      await page.getByRole('button', { name: 'Remove 1 live…' }).click();
      await page.getByRole('dialog', { name: 'Remove 1 job found?' }).getByRole('button', { name: 'Remove 1 job' }).click();
    };
    await removeIt();
    await expect(page.getByRole('status').filter({ hasText: 'Removed 0 jobs, 1 had moved on (search again to find them where they are now)' })).toBeVisible();
    const after = page
      .getByRole('table', { name: 'Jobs found' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'needleaged0', exact: true }) })
      .getByRole('cell')
      .nth(2);
    await expect(after).toHaveText('moved on');
    expect(await queue.redis.llen(keys.ready('aged'))).toBe(JOB_SEARCH_LIMIT + 11);
    await screenshots(page, testInfo, 'Find: a Laravel match that moved on since the search');
    await expectNoAxeViolations(page, 'Find: a Laravel match that moved on since the search');

    await page.reload();
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('1 match. Done.');
    await removeIt();
    await expect(page.getByRole('status').filter({ hasText: 'Removed 1 job.' })).toBeVisible();
    expect(await queue.redis.lrange(keys.ready('aged'), 0, 0)).toEqual(copies('before', 0, 1));
    expect(await queue.redis.llen(keys.ready('aged'))).toBe(JOB_SEARCH_LIMIT + 10);
  });

  test('a ready job deeper than a removal looks from both ends of a long list is not removed, from Find or its page, and says why', async ({
    page,
  }, testInfo) => {
    // Three pages, each screenshotted and checked with axe in four views.
    test.slow();
    // A list longer than twice the reach: one needle in its middle, one at its tail, each pushed by the real driver.
    const fillers = await payloadCopies('long');
    const long = new LaravelHarness(prefix, 'long');
    await queue.redis.rpush(keys.ready('long'), ...fillers('filler', 0, READY_REMOVAL_REACH + 1_000));
    const middle = await long.push('needle-long middle');
    await queue.redis.rpush(keys.ready('long'), ...fillers('filler', READY_REMOVAL_REACH + 1_000, READY_REMOVAL_REACH + 1_000));
    const atTail = await long.push('needle-long tail');
    const length = await queue.redis.llen(keys.ready('long'));

    await showLaravel(page);
    await page.goto(`/find?text=needle-long&field=payload&queue=long`);
    const found = page.getByRole('table', { name: 'Jobs found' });
    await expect(found.getByRole('link', { name: middle })).toBeVisible();
    await page.getByRole('button', { name: 'Remove 2 live…' }).click();
    await page.getByRole('dialog', { name: 'Remove 2 jobs found?' }).getByRole('button', { name: 'Remove 2 jobs' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: /Removed 1 job, 1 not removed \(the job is not near either end of .*long.*nearer the head\)\. Kept in the Trash\./ }),
    ).toBeVisible();
    const afterOf = (id: string) =>
      found
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: id, exact: true }) })
        .getByRole('cell')
        .nth(2);
    await expect(afterOf(atTail)).toHaveText('removed');
    await expect(afterOf(middle)).toHaveText('not removed');
    expect(await queue.redis.llen(keys.ready('long'))).toBe(length - 1);
    await screenshots(page, testInfo, 'Find: a Laravel job too deep in a long list is not removed');
    await expectNoAxeViolations(page, 'Find: a Laravel job too deep in a long list is not removed');

    // Its page, opened from Find where it was found, reads it and says why it offers no Remove, as its row on the line does.
    const beyondReach = /a removal looks for a job among the 5,000 nearest either end of its list/i;
    await found.getByRole('link', { name: middle }).click();
    await expect(page.getByRole('region', { name: 'Where it is now' })).toContainText(
      `ready at place ${(READY_REMOVAL_REACH + 1_001).toLocaleString('en')} of the ready list`,
    );
    await expect(page.getByRole('region', { name: 'Remove it' })).toContainText(beyondReach);
    await expect(page.getByRole('button', { name: /^Remove job…/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'job page of a Laravel job too deep in a long list to remove');
    await expectNoAxeViolations(page, 'job page of a Laravel job too deep in a long list to remove');

    await page.goto(`/queues/long?page=${Math.ceil((READY_REMOVAL_REACH + 1_001) / PAGE_ROWS)}`);
    const rowOf = (id: string) =>
      page
        .getByRole('table', { name: 'Next jobs to run' })
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: id }) });
    await expect(rowOf(middle)).toContainText('Too deep to remove yet');
    await expect(page.getByRole('note').filter({ hasText: 'Too deep to remove yet' })).toContainText(beyondReach);
    await expect(page.getByRole('button', { name: /^Remove job…/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'the line of a long Laravel queue where no row can be removed yet');
    await expectNoAxeViolations(page, 'the line of a long Laravel queue where no row can be removed yet');
    await page.goto('/queues/long');
    await expect(page.getByRole('button', { name: /^Remove job…/ })).toHaveCount(PAGE_ROWS);
    await expect(page.getByRole('note').filter({ hasText: 'Too deep to remove yet' })).toHaveCount(0);
    expect(await queue.redis.llen(keys.ready('long'))).toBe(length - 1);
  });

  test('a delayed job among more than the job page’s look-up reads of its set opens from the delayed page and runs now, looked for at its score', async ({
    page,
  }) => {
    // 2,500 copies delayed past 2100 (the set larger than the 2,000 a look-up walks, in ZSCAN's order), and the real driver's, due in an hour.
    const copies = (await payloadCopies('later'))('later', 0, 2_500);
    await queue.redis.del(keys.notify('later'));
    await queue.redis.zadd(keys.delayed('later'), ...copies.flatMap((payload, n) => [String(4_102_444_800 + n), payload]));
    const later = new LaravelHarness(prefix, 'later');
    const id = await later.later(3600);
    const [, score] = await queue.redis.zrange(keys.delayed('later'), '0', '0', 'WITHSCORES');

    await showLaravel(page);
    await page.goto('/queues/later/delayed');
    const link = page.getByRole('table', { name: 'Next jobs due' }).getByRole('link', { name: `#${id}` });
    await expect(link).toHaveAttribute('href', `/jobs/${id}?queue=later&near=s${score}`);
    await link.click();
    await expect(page.getByRole('region', { name: 'Where it is now' })).toContainText('delayed until');
    await expect(page.getByRole('region', { name: 'Its data' })).toContainText('later 3600');

    await page.goBack();
    await page.getByRole('button', { name: `Run now job ${id}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Job ${id} is due now` })).toBeVisible();
    expect((await queue.redis.lrange(keys.ready('later'), 0, -1)).map((payload) => (JSON.parse(payload) as { id: string }).id)).toEqual([id]);
    expect(await queue.redis.zcard(keys.delayed('later'))).toBe(2_500);
  });

  test('Move due jobs now does what the pop’s migrate does, for a queue no worker pops; the real pop then runs each once', async ({ page }) => {
    // A queue of its own: a failure before this test runs beforeAll again, which pushes more onto default.
    const billing = new LaravelHarness(prefix, 'billing');
    const later = await billing.later(3600);
    const due = [await billing.later(-20), await billing.later(-10)];
    await showLaravel(page);
    await page.goto('/queues/billing/delayed');
    await page.getByRole('button', { name: 'Move due jobs now of billing' }).click();
    await expect(page.getByText('The due jobs of billing are in the line')).toBeVisible();
    expect(await queue.redis.zrange(keys.delayed('billing'), '0', '-1')).toEqual([expect.stringContaining(`"id":"${later}"`)]);
    expect((await billing.drain()).map((job) => job.id)).toEqual(due);
  });

  test('the overview marks a queue nobody pops, each mark linking to the Laravel page that repairs it', async ({ page }) => {
    const stalled = new LaravelHarness(prefix, 'stalled');
    await stalled.push('held');
    await stalled.pop(60);
    // Its worker died and nobody popped since: the reservation's score set ten minutes into the past on the exact member (ZADD XX).
    const [member] = await queue.redis.zrangeBuffer(keys.reserved('stalled'), 0, '0');
    const [seconds] = await queue.redis.time();
    expect(await queue.redis.zadd(keys.reserved('stalled'), 'XX', 'CH', String(Number(seconds) - 600), member!)).toBe(1);
    await stalled.later(-600);
    await showLaravel(page);
    await page.goto('/');
    const marks = page.getByRole('list', { name: 'What needs attention on stalled' }).getByRole('listitem');
    await expect(marks).toHaveText([
      /^No worker\s*1 job ready, none handed out for 10 min( \d+ s)?\s*See the queue$/,
      // Ten minutes before a run just after midnight UTC, the moment carries its date.
      withUtcMoment(String.raw`^Stuck\s*1 claim ran out at {moment} \(10 min( \d+ s)? ago\)\s*Put them back in line$`),
      /^Due, not moved\s*1 delayed job due for 10 min( \d+ s)?, not moved into the queue\s*Move them in$/,
    ]);
    await expect(marks.getByRole('link', { name: 'See the queue' })).toHaveAttribute('href', '/queues/stalled');
    await expect(marks.getByRole('link', { name: 'Put them back in line' })).toHaveAttribute('href', '/reservations?queue=stalled');
    await expect(marks.getByRole('link', { name: 'Move them in' })).toHaveAttribute('href', '/queues/stalled/delayed');
    await expect(page.getByRole('note', { name: '1 queue needs attention' })).toBeVisible();
  });

  test('the doctor finds a reservation no pop put back and due jobs no pop moved, repairs each after the confirmation, and the real pop runs them once', async ({
    page,
  }, testInfo) => {
    // A check over the whole connection, then the page screenshotted and checked with axe in four views: 24 s alone, 30.1 s in a CI run.
    test.slow();
    const doctored = new LaravelHarness(prefix, 'doctored');
    const held = await doctored.push('held');
    await doctored.pop(60);
    // Its worker died and nobody popped since: the reservation's score set ten minutes into the past on the exact member (ZADD XX).
    const [member] = await queue.redis.zrangeBuffer(keys.reserved('doctored'), 0, '0');
    const [seconds] = await queue.redis.time();
    expect(await queue.redis.zadd(keys.reserved('doctored'), 'XX', 'CH', String(Number(seconds) - 600), member!)).toBe(1);
    const due = await doctored.later(-600);
    await showLaravel(page);
    await page.goto('/doctor');
    await page.getByRole('button', { name: /^Run check/ }).click();
    await expect(page.getByRole('status').filter({ hasText: /Check/ })).toHaveText(/^Checked \d+ keys and payloads of \d+ queues/, { timeout: 30_000 });
    const expired = page.getByRole('region', { name: /^Reservations expired over a minute ago that no pop put back \(/ });
    const overdue = page.getByRole('region', { name: /^Delayed jobs due over a minute ago that no pop moved \(/ });
    await expect(expired.getByRole('cell', { name: `${keys.reserved('doctored')} ${held}`, exact: true })).toBeVisible();
    await expect(overdue.getByRole('cell', { name: keys.delayed('doctored'), exact: true })).toBeVisible();
    await screenshots(page, testInfo, 'doctor of a Laravel connection with findings');
    await expectNoAxeViolations(page, 'doctor of a Laravel connection with findings');

    for (const [region, subject] of [
      [expired, `${keys.reserved('doctored')} ${held}`],
      [overdue, keys.delayed('doctored')],
    ] as const) {
      await page.getByRole('button', { name: `Repair ${subject}` }).click();
      const dialog = page.getByRole('dialog', { name: `Repair ${subject}?` });
      await dialog.getByRole('button', { name: 'Repair', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Repaired 1 finding.').first()).toBeVisible();
      await expect(region.getByRole('cell', { name: subject, exact: true })).toHaveCount(0);
    }
    expect((await doctored.drain()).map((job) => job.id)).toEqual([held, due]);
  });

  test('Find finds a job by a piece of its payload in the queue and in Horizon’s failed list, each linking to its page', async ({ page }, testInfo) => {
    await showLaravel(page);
    await page.goto(`/find?text=${encodeURIComponent('SMTP')}&field=any`);
    const found = page.getByRole('table', { name: 'Jobs found' });
    await expect(found.getByRole('link', { name: ids.failed })).toHaveAttribute('href', new RegExp(`^/jobs/${ids.failed}(\\?|$)`));
    await expect(found).toContainText('failed');
    await found.getByRole('link', { name: ids.failed }).click();
    await expect(page.getByRole('region', { name: 'It failed' })).toContainText('SMTP');
    // The reserved job's command holds the string "reserved", which its JSON spells \"reserved\".
    await page.goto(`/find?text=${encodeURIComponent('"reserved"')}&field=payload`);
    await expect(found.getByRole('link', { name: ids.reserved })).toBeVisible();
    await expect(found.locator('mark').first()).toHaveText('"reserved"');
    await screenshots(page, testInfo, 'Find on a Laravel connection');
    await expectNoAxeViolations(page, 'Find on a Laravel connection');
  });
});
