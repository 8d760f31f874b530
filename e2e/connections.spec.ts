import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { settingsFromEnv } from '@/lib/redis/config';
import {
  alertsHref,
  delayedOfQueueHref,
  doctorHref,
  failedOfQueueHref,
  jobHref,
  layoutHref,
  layoutKeyHref,
  overviewHref,
  queueHref,
  reservationsOfQueueHref,
  trashHref,
  withConnection,
} from '@/lib/routes';
import { ORIGIN, postAction, serverActions } from './server-actions';
import { ARCHIVE_CONNECTION, LARAVEL_CONNECTION, REDIS_DOWN_CONNECTIONS } from './support';
import { LaravelHarness, requireRealLaravel } from '@/lib/layouts/laravel/php-harness';
import { LaravelKeys } from '@/lib/layouts/laravel/keys';
import { screenshots } from './layout-pages';
import { expectNoAxeViolations } from './axe';
import { RedisMonitor } from './redis-monitor';

/** A page of the archive's, as its address names it, and the words it says in its place in a browser showing the default connection. */
interface ShownElsewhere {
  href: string;
  heading: string;
  what: string;
  because: string;
}

/** Opens each of `pages` naming the archive in its address: its heading stays, and the note stands in for the page and its actions. */
async function expectShownElsewhere(page: Page, pages: readonly ShownElsewhere[]): Promise<void> {
  for (const { href, heading, what, because } of pages) {
    await page.goto(withConnection(href, ARCHIVE_CONNECTION.name));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByRole('note', { name: `${what} is on ${ARCHIVE_CONNECTION.label}` })).toContainText(`This browser shows E2E queues, ${because}.`);
    await expect(page.getByRole('button', { name: /^Run check$|^Restore|^Retry|^Forget/ })).toHaveCount(0);
  }
}

test.describe('several connections', () => {
  test.describe.configure({ mode: 'serial' });
  let archive: RedisQueue;
  let archivedId: number;
  const archivedQueue = `archived-${Date.now()}`;

  test.beforeAll(async () => {
    archive = await RedisQueue.connect({ ...settingsFromEnv(), prefix: ARCHIVE_CONNECTION.prefix() });
    await archive.push(archivedQueue, 'old.report', { month: 10 });
    const job = (await archive.reserve([archivedQueue], 'e2e-host:9', 60))!;
    await archive.fail(job, 'archived failure');
    archivedId = job.id;
    await archive.push(archivedQueue, 'old.report', { month: 11 });
  });

  test.afterAll(async () => {
    await deleteKeysUnder(archive.redis, ARCHIVE_CONNECTION.prefix());
    await archive.close();
  });

  test('the header says which Redis a page shows, and switching shows the other one’s queues', async ({ page }) => {
    await page.goto('/');
    const switcher = page.getByRole('combobox', { name: 'Redis' });
    await expect(switcher).toHaveValue('default');
    await expect(page.getByRole('link', { name: archivedQueue })).toHaveCount(0);

    await switcher.selectOption(ARCHIVE_CONNECTION.name);
    await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue(ARCHIVE_CONNECTION.name);
    await expect(page.getByRole('link', { name: archivedQueue, exact: true })).toBeVisible();

    // Pages opened later in this browser show the archive too.
    await page.goto('/failed');
    await expect(page.getByText('archived failure')).toBeVisible();
  });

  test('Go to job, a job link and Find by id ask the other connections for an application’s id this one holds no job with, and open the job on the one that does', async ({
    page,
  }, testInfo) => {
    // Three pages, each screenshotted and checked with axe in four views: 26 to 32 s here, beyond the default 30.
    test.slow();
    requireRealLaravel();
    // A job the real Laravel driver pushed onto a queue of its own, its id 32 random letters and digits.
    const laravelQueue = `elsewhere-${Date.now()}`;
    const id = await new LaravelHarness(LARAVEL_CONNECTION.prefix(), laravelQueue).push('found elsewhere');
    const keys = new LaravelKeys(LARAVEL_CONNECTION.prefix());
    try {
      await page.goto('/');
      const box = page.getByRole('textbox', { name: 'Go to job' });
      await box.fill(id);
      await box.press('Enter');
      await expect(box).toHaveAccessibleDescription(
        new RegExp(`^No job ${id} here: this connection numbers its jobs\\. Another connection holds a job with this id:`),
      );
      const offered = page.getByRole('list', { name: `Other connections holding a job ${id}` }).getByRole('button');
      await expect(offered).toHaveText([`Open on ${LARAVEL_CONNECTION.label} · ${laravelQueue}`]);
      await expectNoAxeViolations(page, 'Go to job: an id another connection holds');
      await screenshots(page, testInfo, 'Go to job: an id another connection holds');
      await page.setViewportSize({ width: 1400, height: 900 });
      await offered.click();
      await expect(page).toHaveURL(new RegExp(`/jobs/${id}\\?queue=${laravelQueue}&connection=${LARAVEL_CONNECTION.name}$`));
      await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue(LARAVEL_CONNECTION.name);
      await expect(page.getByRole('region', { name: 'Its data' })).toContainText('found elsewhere');

      // An id no connection holds: said as before, naming the connections that could not be asked (two are on a stopped Redis).
      await box.fill(`${id}x`);
      await box.press('Enter');
      const { yii2: yii2Down, marko: markoDown } = REDIS_DOWN_CONNECTIONS;
      await expect(box).toHaveAccessibleDescription(
        new RegExp(
          `^No job ${id}x in any queue of this connection \\(looked in .*${laravelQueue}.*\\)\\. ${yii2Down.label}, ${markoDown.label} could not be asked\\.$`,
        ),
      );

      // Its link, opened in a browser showing another connection (a colleague's): that connection takes no such id, and the page offers the one that holds it.
      await page.getByRole('combobox', { name: 'Redis' }).selectOption('default');
      await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue('default');
      await page.goto(`/jobs/${id}?queue=${laravelQueue}`);
      await expect(page.getByRole('heading', { name: 'Not a job id' })).toBeVisible();
      const fromLink = page.getByRole('list', { name: `Other connections holding a job ${id}` }).getByRole('button');
      await expect(fromLink).toHaveText([`Open on ${LARAVEL_CONNECTION.label} · ${laravelQueue}`]);
      await screenshots(page, testInfo, 'a job link of another connection');
      await expectNoAxeViolations(page, 'a job link of another connection');
      await fromLink.click();
      await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue(LARAVEL_CONNECTION.name);
      await expect(page.getByRole('region', { name: 'Its data' })).toContainText('found elsewhere');

      // Find by its id on the StaticPHP connection: no match here, and the same offer under the empty list.
      await page.getByRole('combobox', { name: 'Redis' }).selectOption('default');
      await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue('default');
      await page.goto(`/find?text=${id}&field=id`);
      await expect(page.getByText(`No job matches “${id}”.`)).toBeVisible();
      await expect(page.getByRole('list', { name: `Other connections holding a job ${id}` }).getByRole('button')).toHaveText([
        `Open on ${LARAVEL_CONNECTION.label} · ${laravelQueue}`,
      ]);
      await expectNoAxeViolations(page, 'Find: an id another connection holds');
    } finally {
      await archive.redis.del(keys.ready(laravelQueue), keys.notify(laravelQueue));
    }
  });

  test('a search’s address names its connection: opened in a browser showing another, it says so, and runs where the operator chooses', async ({
    page,
  }, testInfo) => {
    // Several pages, one screenshotted and checked with axe in four views: 16 to 22 s here, a margin of the default 30 that a slow run could use up.
    test.slow();
    const redis = page.getByRole('combobox', { name: 'Redis' });
    const found = page.getByRole('table', { name: 'Jobs found' });
    await page.goto('/');
    await redis.selectOption(ARCHIVE_CONNECTION.name);
    await expect(redis).toHaveValue(ARCHIVE_CONNECTION.name);
    // An address without a connection (an older link) runs on the connection shown, and the page then names that connection in the address, in place.
    await page.goto(`/find?text=${encodeURIComponent('archived failure')}&field=error`);
    await expect(page).toHaveURL(/\/find\?text=archived\+failure&field=error&connection=archive$/);
    await expect(found.getByRole('link', { name: String(archivedId), exact: true })).toBeVisible();
    const address = page.url();

    // A colleague's browser, showing the default connection: the search does not run there, and the note says where it was made.
    await redis.selectOption('default');
    await expect(redis).toHaveValue('default');
    await page.goto(address);
    const note = page.getByRole('note', { name: `This search is on ${ARCHIVE_CONNECTION.label}` });
    await expect(note).toContainText('This browser shows E2E queues, so the search has not run.');
    await expect(page.getByRole('status', { name: 'Search progress' })).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Text' })).toHaveValue('archived failure');
    await expectNoAxeViolations(page, 'Find: a search made on another connection');
    await screenshots(page, testInfo, 'Find: a search made on another connection');
    await page.setViewportSize({ width: 1400, height: 900 });

    // Searching this connection instead: the same search, naming it, finds nothing here.
    await note.getByRole('link', { name: 'Search E2E queues instead' }).click();
    await expect(page).toHaveURL(/\/find\?text=archived\+failure&field=error&connection=default$/);
    await expect(page.getByText('No job matches “archived failure”.')).toBeVisible();

    // Switching: the browser shows the archive, and the search runs there.
    await page.goto(address);
    await note.getByRole('button', { name: `Switch to ${ARCHIVE_CONNECTION.label} and search` }).click();
    await expect(redis).toHaveValue(ARCHIVE_CONNECTION.name);
    await expect(found.getByRole('link', { name: String(archivedId), exact: true })).toBeVisible();
    await expect(page.getByRole('note', { name: /^This search is on/ })).toHaveCount(0);

    // A connection this QueueLens does not have: said, with the way to search the one shown.
    await page.goto(address.replace('connection=archive', 'connection=gone%3Cb%3E'));
    const unknown = page.getByRole('note', { name: 'This search’s address names a connection QueueLens does not have' });
    await expect(unknown).toContainText('It names “gone<b>”; this browser shows Archive.');
    await unknown.getByRole('link', { name: 'Search Archive instead' }).click();
    await expect(page).toHaveURL(/connection=archive$/);
    await expect(found.getByRole('link', { name: String(archivedId), exact: true })).toBeVisible();
  });

  test('a job’s address names its connection: in a browser showing another, whose job of that id is another one, it says so instead', async ({
    page,
  }, testInfo) => {
    // Several pages, one screenshotted and checked with axe in four views: 16 to 22 s here, a margin of the default 30 that a slow run could use up.
    test.slow();
    const redis = page.getByRole('combobox', { name: 'Redis' });
    await page.goto('/');
    await redis.selectOption(ARCHIVE_CONNECTION.name);
    await expect(redis).toHaveValue(ARCHIVE_CONNECTION.name);
    // Opened from a link that names no connection, the address comes to name the one shown, in place.
    await page.goto(jobHref(archivedId));
    await expect(page.getByText('archived failure').first()).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/jobs/${archivedId}\\?connection=archive$`));
    const address = page.url();
    // Back to an address named in place shows its page again: the entry keeps what the router needs to show it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Failed' }).click();
    await expect(page).toHaveURL(/\/failed\?connection=archive$/);
    await page.goBack();
    await expect(page).toHaveURL(address);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Job ${archivedId}`);

    await redis.selectOption('default');
    await expect(redis).toHaveValue('default');
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Job ${archivedId}`);
    const note = page.getByRole('note', { name: `This job is on ${ARCHIVE_CONNECTION.label}` });
    await expect(note).toContainText(`This browser shows E2E queues, whose job ${archivedId} may be another job, so it is not shown.`);
    await expect(page.getByText('archived failure')).toHaveCount(0);
    await expectNoAxeViolations(page, 'a job link made on another connection');
    await screenshots(page, testInfo, 'a job link made on another connection');
    await page.setViewportSize({ width: 1400, height: 900 });

    await note.getByRole('link', { name: `Open job ${archivedId} on E2E queues instead` }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${archivedId}\\?connection=default$`));
    await expect(page.getByRole('note', { name: /^This job is on/ })).toHaveCount(0);

    await page.goto(address);
    await note.getByRole('button', { name: `Switch to ${ARCHIVE_CONNECTION.label} and open it` }).click();
    await expect(redis).toHaveValue(ARCHIVE_CONNECTION.name);
    await expect(page.getByText('archived failure').first()).toBeVisible();
  });

  test('an alert’s link names its connection: the failed list, a queue, its delayed jobs, the reservations and a key, opened in a browser showing another, say so instead', async ({
    page,
  }, testInfo) => {
    // One page screenshotted and checked with axe in four views, and four more opened: a slow test's time, as the two above.
    test.slow();
    const redis = page.getByRole('combobox', { name: 'Redis' });
    await page.goto('/');
    await expect(redis).toHaveValue('default');
    // The link an alert of the archive's would carry (lib/dashboard/alert-sender.ts: withConnection).
    const failedThere = withConnection(failedOfQueueHref(archivedQueue), ARCHIVE_CONNECTION.name);
    await page.goto(failedThere);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed jobs');
    const note = page.getByRole('note', { name: `This list is on ${ARCHIVE_CONNECTION.label}` });
    await expect(note).toContainText('This browser shows E2E queues, whose failed jobs are others, so they are not shown.');
    await expect(page.getByText('archived failure')).toHaveCount(0);
    await expectNoAxeViolations(page, 'an alert’s link to another connection’s failed jobs');
    await screenshots(page, testInfo, 'an alert’s link to another connection’s failed jobs');
    await page.setViewportSize({ width: 1400, height: 900 });

    // The same list here: this connection's failed jobs of that queue (none), the address naming it.
    await note.getByRole('link', { name: 'Show the failed jobs of E2E queues instead' }).click();
    await expect(page).toHaveURL(new RegExp(`/failed\\?queue=${archivedQueue}&connection=default$`));
    await expect(page.getByRole('note', { name: /^This list is on/ })).toHaveCount(0);

    // The queue, its delayed jobs, the reservations and a key's contents say the same, each in its own words.
    await expectShownElsewhere(page, [
      {
        href: queueHref(archivedQueue),
        heading: `Queue ${archivedQueue}`,
        what: 'This queue',
        because: 'whose queue of that name is another queue, so it is not shown',
      },
      {
        href: delayedOfQueueHref(archivedQueue),
        heading: `Delayed jobs of ${archivedQueue}`,
        what: 'This list',
        because: 'whose queue of that name is another queue, so its delayed jobs are not shown',
      },
      {
        href: reservationsOfQueueHref(archivedQueue),
        heading: 'Reservations',
        what: 'This list',
        because: 'whose reservations are others, so they are not shown',
      },
      {
        href: layoutKeyHref(`${archivedQueue}:key`),
        heading: `Key ${archivedQueue}:key`,
        what: 'This key',
        because: 'whose key of that name holds something else, if anything, so it is not shown',
      },
    ]);

    // Switching: the browser shows the archive, and the failed list there holds the job.
    await page.goto(failedThere);
    await note.getByRole('button', { name: `Switch to ${ARCHIVE_CONNECTION.label} and open it` }).click();
    await expect(redis).toHaveValue(ARCHIVE_CONNECTION.name);
    await expect(page.getByText('archived failure').first()).toBeVisible();
    await expect(page.getByRole('note', { name: /^This list is on/ })).toHaveCount(0);
  });

  test('the overview, the doctor, the keys, the trash and the alerts name their connection in the address; opened in a browser showing another, they say so, and the header’s switch shows a page on the one chosen', async ({
    page,
  }, testInfo) => {
    // One page screenshotted and checked with axe in four views, and six more opened: a slow test's time, as the ones above.
    test.slow();
    const redis = page.getByRole('combobox', { name: 'Redis' });
    const archiveName = ARCHIVE_CONNECTION.name;
    await page.goto(overviewHref);
    await expect(redis).toHaveValue('default');
    await expect(page).toHaveURL(/\/\?connection=default$/);

    await expectShownElsewhere(page, [
      { href: doctorHref, heading: 'Doctor', what: 'This check', because: 'whose keys are others, so it is not run here' },
      { href: layoutHref, heading: 'Keys', what: 'This key table', because: 'whose keys are others, so they are not shown' },
      { href: trashHref, heading: 'Trash', what: 'This trash', because: 'whose forgotten and removed jobs are others, so they are not shown' },
      { href: alertsHref, heading: 'Alerts', what: 'This alerts page', because: 'whose marks and silences are others, so they are not shown' },
    ]);

    await page.goto(withConnection(overviewHref, archiveName));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Queues');
    const note = page.getByRole('note', { name: `This overview is on ${ARCHIVE_CONNECTION.label}` });
    await expect(note).toContainText('This browser shows E2E queues, whose queues are others, so they are not shown.');
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoAxeViolations(page, 'an overview link made on another connection');
    await screenshots(page, testInfo, 'an overview link made on another connection');
    await page.setViewportSize({ width: 1400, height: 900 });
    await note.getByRole('link', { name: 'Show the queues of E2E queues instead' }).click();
    await expect(page).toHaveURL(/\/\?connection=default$/);
    await expect(page.getByRole('note', { name: /^This overview is on/ })).toHaveCount(0);

    // The header's switch on a page whose address names the connection shown: the same page on the one chosen, its address naming that one.
    await page.goto(withConnection(overviewHref, 'default'));
    await expect(page.getByRole('link', { name: archivedQueue, exact: true })).toHaveCount(0);
    await redis.selectOption(archiveName);
    await expect(page).toHaveURL(new RegExp(`/\\?connection=${archiveName}$`));
    await expect(redis).toHaveValue(archiveName);
    await expect(page.getByRole('link', { name: archivedQueue, exact: true })).toBeVisible();
    await expect(page.getByRole('note', { name: /^This overview is on/ })).toHaveCount(0);
    await page.goto(withConnection(trashHref, archiveName));
    await redis.selectOption('default');
    await expect(page).toHaveURL(new RegExp(`${trashHref}\\?connection=default$`));
    await expect(redis).toHaveValue('default');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
    await expect(page.getByRole('note', { name: /^This trash is on/ })).toHaveCount(0);
  });

  test('tabs asking the other connections for one id at once share each one’s look-up', async ({ page }) => {
    // 400 queues of one job on the Laravel connection: its look-up of an id without a queue sends a script per queue and structure, 8 queues
    // at a time, long enough for asks sent together to arrive while it is under way.
    const stamp = Date.now();
    const queues = Array.from({ length: 400 }, (_, n) => `shared-ask-${stamp}-${n}`);
    const keys = new LaravelKeys(LARAVEL_CONNECTION.prefix());
    const pushing = archive.redis.pipeline();
    for (const [n, queue] of queues.entries()) {
      pushing.rpush(
        keys.ready(queue),
        JSON.stringify({ uuid: `uuid-${n}`, displayName: 'SharedAsk', data: { commandName: 'SharedAsk' }, id: `job${n}`, attempts: 0 }),
      );
    }
    // MONITOR shows every command Redis runs, in order: a look-up's scripts name the id asked for.
    const monitor = await RedisMonitor.start(settingsFromEnv());
    const seen = monitor.lines;
    const commandsNaming = async (text: string) => {
      // A marker sent after the answers: once MONITOR shows it, it has shown every command run before it.
      const marker = `marker-${text}`;
      await archive.redis.echo(marker);
      await expect.poll(() => seen.some((command) => command.includes(marker))).toBe(true);
      return seen.filter((command) => command.includes(text) && !command.includes(marker)).length;
    };
    const ask = async (id: string) => {
      const response = await page.request.get(`/api/jobs/${id}/elsewhere`);
      expect(response.status()).toBe(200);
      expect((await response.json()).data.holders).toEqual([]);
    };
    try {
      await pushing.exec();
      await page.goto('/');
      const alone = `lone${stamp}${'x'.repeat(16)}`;
      await ask(alone);
      const oneLookUp = await commandsNaming(alone);
      expect(oneLookUp).toBeGreaterThanOrEqual(queues.length);

      // Ten tabs asking for another id at once: an ask takes the answer of a look-up under way, or of one that started after the ask
      // arrived. The first look-up starts with the first ask; an ask that arrived after that start and comes to it once it has ended
      // looks again; so does any ask that arrived after the second started and comes to it once it has ended. Ten sent at once arrive
      // within a few tens of ms: two look-ups in every run here (and for twenty), where ten asks without the sharing cost ten.
      const together = `many${stamp}${'y'.repeat(16)}`;
      await Promise.all(Array.from({ length: 10 }, () => ask(together)));
      expect(await commandsNaming(together)).toBeLessThanOrEqual(2 * oneLookUp);
    } finally {
      monitor.stop();
      await archive.redis.del(...queues.map((queue) => keys.ready(queue)));
    }
  });

  test('a read-only connection leaves out its controls and refuses changes sent anyway; the job stays failed', async ({ page }) => {
    const READ_ONLY = 'Archive is read-only: nothing on it can be changed through QueueLens.';
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Redis' }).selectOption(ARCHIVE_CONNECTION.name);
    await expect(page.getByRole('link', { name: archivedQueue, exact: true })).toBeVisible();
    await page.goto(jobHref(archivedId));
    await expect(page.getByRole('note').filter({ hasText: READ_ONLY })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);

    // The same retry posted by hand, with this operator's session and the archive chosen: the action itself refuses.
    const retry = serverActions().find((action) => action.name === 'retryJobs')!;
    const response = await postAction(page.request, retry, [{ ids: [archivedId] }, ARCHIVE_CONNECTION.name], { origin: ORIGIN });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain(READ_ONLY);
    expect(await archive.redis.zscore(archive.keys.failed, String(archivedId))).not.toBeNull();
  });

  test('a tab left on one connection stops when another tab switches, instead of mixing the two', async ({ page, context }) => {
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Redis' }).selectOption(ARCHIVE_CONNECTION.name);
    await expect(page.getByRole('link', { name: archivedQueue, exact: true })).toBeVisible();

    const other = await context.newPage();
    await other.goto('/');
    await other.getByRole('combobox', { name: 'Redis' }).selectOption('default');
    await expect(other.getByRole('combobox', { name: 'Redis' })).toHaveValue('default');

    await expect(page.getByText('This tab shows Archive, but QueueLens was switched to E2E queues in another tab: reload the page.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Redis' })).toHaveValue('default');
    await expect(page.getByRole('link', { name: archivedQueue })).toHaveCount(0);
  });
});
