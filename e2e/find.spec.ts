import { expect, test } from './test';
import { readAuditPage } from '@/lib/dashboard/audit-log';
import { dashboardKeys } from '@/lib/dashboard/keys';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { DEFAULT_YII2_NG_SETTINGS } from '@/lib/layouts/settings';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import { driverPush, driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { FIND_MATCH_CAP, type FindState } from '@/lib/shapes/find';
import { formatCount, plural } from '@/components/ui/format-count';
import { EVERY_MATCH_STEP_MAX } from '@/lib/layouts/every-match';
import { findInPayloads, foundStates } from './find-page';
import { expectNoAxeViolations } from './axe';
import { screenshots, showConnection } from './layout-pages';
import { MARKO_CONNECTION, YII2_CONNECTIONS, e2eDashboardPrefix } from './support';
import { layoutTrashKeys } from '@/lib/layouts/trash';
import { SpecKeys, withSpecKeys } from './spec-keys';

/** Each layout's jobs carry this in their payload; nothing else in the run does. */
const MARKER = `order-${Date.now()}-<b>`;
const QUEUE = 'find-e2e';
/** The part of the page that acts on every match of a search. */
const EVERY_MATCH = 'section[aria-label="Every match"]';

test.describe('Find', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;

  // The StaticPHP queues and jobs this spec pushes are deleted by SpecKeys (a later spec counts every queue); the other layouts' by prefix.
  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      await deleteKeysUnder(queue.redis, MARKO_CONNECTION.prefix());
      await deleteKeysUnder(queue.redis, layoutTrashKeys(MARKO_CONNECTION.prefix(), e2eDashboardPrefix()).prefix);
      await deleteKeysUnder(queue.redis, `${YII2_CONNECTIONS.stock.channel()}.`);
    },
  );

  test('finds a StaticPHP job by a piece of its payload in every state, shows the match as text, and the search is an address', async ({ page }, testInfo) => {
    keys.fixedQueueName(QUEUE);
    const push = (delaySeconds = 0) => queue.push(QUEUE, 'App\\Jobs\\Ship', { order: MARKER }, { delaySeconds });
    const ids: Record<FindState, string> = {
      reserved: String(await push()),
      failed: String(await push()),
      ready: String(await push()),
      delayed: String(await push(3600)),
    };
    await queue.reserve([QUEUE], 'worker-find', 300);
    const failing = await queue.reserve([QUEUE], 'worker-find', 300);
    await queue.fail(failing!, 'boom');
    await queue.push(QUEUE, 'App\\Jobs\\Ship', { order: 'another' });

    await findInPayloads(page, MARKER);
    await expect(page).toHaveURL(/\/find\?text=.*&field=payload/);
    const found = await foundStates(page);
    expect(found).toEqual(Object.fromEntries(Object.entries(ids).map(([state, id]) => [id, state])));
    // The markup in the payload is text on the page, highlighted where it matched.
    await expect(page.getByRole('table', { name: 'Jobs found' }).locator('mark').first()).toHaveText(MARKER);
    await expect(page.getByRole('table', { name: 'Jobs found' }).locator('b')).toHaveCount(0);
    await expect(page.getByRole('link', { name: ids.failed, exact: true })).toHaveAttribute('href', `/jobs/${ids.failed}?queue=${QUEUE}`);

    // The address is the search: opened afresh, it runs again.
    const address = page.url();
    await page.goto(address);
    expect(await foundStates(page)).toEqual(found);

    // Ignoring case, the text in capitals finds the same jobs and highlights the bytes as stored; the address keeps the choice.
    const form = page.getByRole('search', { name: 'Find jobs' });
    await form.getByRole('searchbox', { name: 'Text' }).fill(MARKER.toUpperCase());
    await form.getByRole('checkbox', { name: 'Ignore case' }).check();
    await form.getByRole('button', { name: 'Find' }).click();
    await expect(page).toHaveURL(/[?&]case=ignore(&|$)/);
    expect(await foundStates(page)).toEqual(found);
    await expect(page.getByRole('table', { name: 'Jobs found' }).locator('mark').first()).toHaveText(MARKER);
    await page.reload();
    await expect(form.getByRole('checkbox', { name: 'Ignore case' })).toBeChecked();
    await form.getByRole('checkbox', { name: 'Ignore case' }).uncheck();
    await form.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByText(`No job matches “${MARKER.toUpperCase()}”`)).toBeVisible();
    await page.goto(address);
    expect(await foundStates(page)).toEqual(found);
    await screenshots(page, testInfo, 'Find on StaticPHP');
    await expectNoAxeViolations(page, 'Find on StaticPHP');

    // Acting on what was found: counted by state, then the failed one retried where it still is.
    await expect(page.getByText('4 matches: 1 ready, 1 delayed, 1 reserved, 1 failed')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    await page.getByRole('button', { name: 'Retry 1 failed…' }).click();
    await page.getByRole('dialog', { name: 'Retry 1 job found?' }).getByRole('button', { name: 'Retry 1 job' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Retried 1 job' })).toBeVisible();
    expect(await queue.redis.zscore(queue.keys.failed, ids.failed)).toBeNull();
    expect(await queue.redis.hget(queue.keys.job(ids.failed), 'attempts')).toBe('0');
  });

  test('acting on the jobs it lists re-checks each against the search: one that failed again with another error is left alone and counted', async ({
    page,
  }, testInfo) => {
    const recheckQueue = keys.fixedQueueName(`${QUEUE}-recheck`);
    const error = `Timeout ${MARKER}`;
    const failNext = async (why: string) => {
      const job = (await queue.reserve([recheckQueue], 'worker-find', 300))!;
      await queue.fail(job, why);
      return String(job.id);
    };
    await queue.pushMany([0, 1].map((i) => ({ queue: recheckQueue, name: 'App\\Jobs\\Ship', payload: { order: i } })));
    const stillMatching = await failNext(error);
    const failedAgain = await failNext(error);

    await page.goto('/find');
    const form = page.getByRole('search', { name: 'Find jobs' });
    await form.getByRole('searchbox', { name: 'Text' }).fill(error);
    await form.getByRole('combobox', { name: 'Look in' }).selectOption('error');
    await form.getByRole('button', { name: 'Find' }).click();
    expect(await foundStates(page)).toEqual({ [stillMatching]: 'failed', [failedAgain]: 'failed' });

    // Meanwhile a colleague retries one, and it fails again, for another reason: still failed, no longer a match.
    await queue.retryFailed([Number(failedAgain)]);
    expect(await failNext('Out of memory')).toBe(failedAgain);
    await page.getByRole('button', { name: 'Forget 2 failed…' }).click();
    await page.getByRole('dialog', { name: 'Forget 2 jobs found?' }).getByRole('button', { name: 'Forget 2 jobs' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Forgot 1 job, 1 no longer matched the search' })).toBeVisible();
    // The rows stay as found, each saying what the forget did to it, and the page says so, with the way to see where the jobs are now.
    const asFound = page.getByRole('note').filter({ hasText: 'listed as the search found them; After says what that action did to each' });
    await expect(asFound).toBeVisible();
    const rowOf = (id: string) =>
      page
        .getByRole('table', { name: 'Jobs found' })
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: id, exact: true }) });
    await expect(rowOf(stillMatching).getByRole('cell').nth(2)).toHaveText('forgotten');
    await expect(rowOf(failedAgain).getByRole('cell').nth(2)).toHaveText('no longer matched');
    // Counted still, but not offered again: what is left to act on is Search again's to say.
    await expect(page.getByText('2 matches: 2 failed')).toBeVisible();
    await expect(page.getByRole('button', { name: /^(Retry|Forget) 2 failed…$/ })).toHaveCount(0);
    await screenshots(page, testInfo, 'Find: a listed match that no longer matches, left alone');
    expect(await queue.redis.zscore(queue.keys.failed, stillMatching)).toBeNull();
    expect(await queue.redis.zscore(queue.keys.failed, failedAgain)).not.toBeNull();
    expect(await queue.redis.hget(queue.keys.job(failedAgain), 'error')).toBe('Out of memory');
    const audited = (await readAuditPage(queue.redis, dashboardKeys(e2eDashboardPrefix()), { limit: 50 })).entries.filter((entry) =>
      entry.target.includes(error),
    );
    expect(audited).toEqual([
      expect.objectContaining({ action: 'forget failed jobs', result: 'ok', detail: 'forgot 1, 0 no longer failed, 1 no longer matched the search' }),
    ]);

    // Searched again: one job was forgotten, the other fails with another error now.
    await asFound.getByRole('button', { name: 'Search again' }).click();
    await expect(asFound).toBeHidden();
    await expect(page.getByText(`No job matches “${error}”.`)).toBeVisible();
  });

  test.describe('in a browser an hour east of UTC', () => {
    test.use({ timezoneId: 'Europe/Berlin' });

    test('a time range finds only the jobs whose state’s time is in it, read in the browser’s time zone; the address keeps it in UTC', async ({
      page,
    }, testInfo) => {
      const ranged = keys.fixedQueueName(`${QUEUE}-range`);
      const text = `ranged-${Date.now()}`;
      const push = () => queue.push(ranged, 'App\\Jobs\\Ship', { order: text });
      const [early, late] = [String(await push()), String(await push())];
      for (let i = 0; i < 2; i++) await queue.fail((await queue.reserve([ranged], 'worker-find', 300))!, 'timeout');
      // Failed at 11:00 and 13:00 UTC on 10 March; a job pushed now is ready, long after.
      await queue.redis.zadd(queue.keys.failed, 'XX', Date.parse('2026-03-10T11:00:00Z') / 1000, early);
      await queue.redis.zadd(queue.keys.failed, 'XX', Date.parse('2026-03-10T13:00:00Z') / 1000, late);
      await push();

      await page.goto('/find');
      const form = page.getByRole('search', { name: 'Find jobs' });
      await form.getByRole('searchbox', { name: 'Text' }).fill(text);
      // 13:00 to 15:00 in Berlin (UTC+1 in March) is 12:00 to 14:00 UTC.
      await form.getByLabel('From').fill('2026-03-10T13:00');
      await form.getByLabel('Until (not included)').fill('2026-03-10T15:00');
      await expect(form).toContainText('In your browser’s time (Europe/Berlin)');
      await form.getByRole('button', { name: 'Find' }).click();
      await expect(page).toHaveURL(/[?&]from=2026-03-10T12%3A00Z&until=2026-03-10T14%3A00Z(&|$)/);
      expect(await foundStates(page)).toEqual({ [late]: 'failed' });
      await expect(
        page.getByText(
          'The time range applies to ready (when it joined the line), delayed (when it is due), reserved (when it joined the line), failed (when it failed).',
        ),
      ).toBeVisible();

      // Opened afresh, the address runs the same search and the form shows the range in the browser's time.
      await page.goto(page.url());
      expect(await foundStates(page)).toEqual({ [late]: 'failed' });
      await expect(form.getByLabel('From')).toHaveValue('2026-03-10T13:00');
      await expect(form.getByLabel('Until (not included)')).toHaveValue('2026-03-10T15:00');
      await screenshots(page, testInfo, 'Find with a time range');
      await expectNoAxeViolations(page, 'Find with a time range');

      // Open on one side: from 12:00 UTC on, the ready job pushed now is in too.
      await page.goto(`/find?text=${text}&from=2026-03-10T12:00Z`);
      expect(Object.values(await foundStates(page)).sort()).toEqual(['failed', 'ready']);
      // A time the address cannot read is refused in words.
      await page.goto(`/find?text=${text}&from=noon`);
      await expect(page.getByRole('alert').filter({ hasText: 'This address names no search' })).toContainText(
        'from and until are UTC times such as 2026-12-05T12:00Z',
      );
    });
  });

  test('acts on every match of a search past the 500 it lists: retries every failed one, each once, and says what it did', async ({ page }, testInfo) => {
    // Over 500 jobs failed one by one, and a page of 500 rows.
    test.slow();
    const every = keys.fixedQueueName(`${QUEUE}-every`);
    // Not MARKER itself: the marko test below counts the audit entries that name it.
    const marker = MARKER.replace('order-', 'every-');
    const failing = FIND_MATCH_CAP + 20;
    await queue.pushMany(
      Array.from({ length: failing + 3 }, (_, i) => ({ queue: every, name: 'App\\Jobs\\Ship', payload: { order: i < failing ? marker : 'other' } })),
    );
    const [failedIds, otherIds]: [string[], string[]] = [[], []];
    for (let i = 0; i < failing + 3; i++) {
      const job = (await queue.reserve([every], 'worker-find', 300))!;
      await queue.fail(job, 'boom');
      (i < failing ? failedIds : otherIds).push(String(job.id));
    }
    const ready = await queue.push(every, 'App\\Jobs\\Ship', { order: marker });

    await findInPayloads(page, marker);
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText(`stopped listing at ${FIND_MATCH_CAP} matches`);
    const everyMatch = page.getByRole('region', { name: 'Every match' });
    await expect(everyMatch.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    await screenshots(page, testInfo, 'Find: every match offered', { region: everyMatch });
    // axe over the new part alone: a page of 500 rows takes it longer than a test has (the small page is checked whole above).
    await expectNoAxeViolations(page, 'Find: every match offered', EVERY_MATCH);

    // Cancel, while the first step is under way, asks for no second: what it did stays done and is said.
    const steps: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/find',
      async (route) => {
        if (route.request().method() === 'POST' && (await route.request().headerValue('next-action')) !== null) {
          steps.push(route.request().url());
          if (steps.length === 1) await held;
        }
        await route.continue();
      },
    );
    const retryEvery = async () => {
      await everyMatch.getByRole('button', { name: 'Retry every failed match…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Retry every failed match?' });
      await expect(dialog).toContainText('over failed jobs only');
      await dialog.getByRole('button', { name: 'Retry every failed match' }).click();
    };
    await retryEvery();
    await expect.poll(() => steps.length).toBe(1);
    await expect(everyMatch.getByRole('status')).toContainText('Retrying every failed match: 0 retried · starting…');
    await screenshots(page, testInfo, 'Find: every match running', { region: everyMatch });
    await everyMatch.getByRole('button', { name: 'Cancel' }).click();
    release();
    const cancelled = everyMatch.getByRole('status').filter({ hasText: /^Cancelled: retried [\d,]+ jobs before that/ });
    await expect(cancelled).toBeVisible();
    await screenshots(page, testInfo, 'Find: every match cancelled', { region: everyMatch });
    await page.waitForTimeout(500);
    expect(steps).toHaveLength(1);
    const first = Number((await cancelled.textContent())!.match(/retried ([\d,]+) jobs/)![1]!.replace(/,/g, ''));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(failing);

    // Run again, to the end: it retries the rest, and the ones the cancelled run retried are failed no more, so not met again.
    await page.unroute((url) => url.pathname === '/find');
    await retryEvery();
    const result = everyMatch.getByRole('status').filter({ hasText: `Retried ${plural(failing - first, 'job')}: every failed match. Done` });
    await expect(result).toBeVisible();
    await screenshots(page, testInfo, 'Find: every match retried', { region: everyMatch });
    // The 500 rows listed are as the search found them, and the page says so.
    await expect(page.getByRole('note').filter({ hasText: 'listed as the search found them' })).toBeVisible();
    await expectNoAxeViolations(page, 'Find: every match retried', EVERY_MATCH);

    // Each matching failed job retried, the others still failed, the ready match (a retry's only in the failed set) not failed.
    const stillFailed = await queue.redis.zrange(queue.keys.failed, '0', '-1');
    expect(failedIds.filter((id) => stillFailed.includes(id))).toEqual([]);
    expect(otherIds.filter((id) => stillFailed.includes(id))).toEqual(otherIds);
    expect(await queue.redis.hget(queue.keys.job(failedIds[0]!), 'attempts')).toBe('0');
    expect(await queue.redis.zscore(queue.keys.failed, String(ready))).toBeNull();
    // One audit entry a step, each naming the search; together they count every job once.
    const audited = (await readAuditPage(queue.redis, dashboardKeys(e2eDashboardPrefix()), { limit: 100 })).entries.filter(
      (entry) => entry.action === 'retry every failed match of a search (one step)' && entry.target.includes(marker),
    );
    expect(audited.length).toBeGreaterThanOrEqual(2);
    expect(audited.every((entry) => entry.result === 'ok')).toBe(true);
    expect(audited.reduce((sum, entry) => sum + Number(/^retried (\d+) /.exec(entry.detail)?.[1]), 0)).toBe(failing);
  });

  test('forgetting every match pauses when the Trash is too full to keep a step in full, and drops its oldest only when told', async ({ page }, testInfo) => {
    test.slow();
    const full = keys.fixedQueueName(`${QUEUE}-trash-full`);
    const marker = MARKER.replace('order-', 'trash-full-');
    const failing = FIND_MATCH_CAP + 10;
    await queue.pushMany(Array.from({ length: failing }, () => ({ queue: full, name: 'App\\Jobs\\Ship', payload: { order: marker } })));
    for (let i = 0; i < failing; i++) await queue.fail((await queue.reserve([full], 'worker-find', 300))!, 'boom');
    // Somebody else's forgets from an hour ago fill the Trash of 10,000 (the e2e server's default) to leave less room than a step may take.
    const room = EVERY_MATCH_STEP_MAX - 100;
    const held = 10_000 - room;
    const index = queue.trashKeys(e2eDashboardPrefix()).index;
    const others = Array.from({ length: held - (await queue.redis.zcard(index)) }, (_, i) => `others-${i}`);
    await queue.redis.zadd(index, ...others.flatMap((member) => [Date.now() - 3_600_000, member]));
    try {
      await findInPayloads(page, marker);
      const everyMatch = page.getByRole('region', { name: 'Every match' });
      const forgetEvery = async () => {
        await everyMatch.getByRole('button', { name: 'Forget every failed match…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Forget every failed match?' });
        await expect(dialog).toContainText('If the Trash fills up, the run pauses and asks');
        await dialog.getByRole('button', { name: 'Forget every failed match' }).click();
      };
      const paused = everyMatch
        .getByRole('alert')
        .filter({ hasText: `Paused after 0 jobs: the Trash holds ${formatCount(held)} jobs and keeps at most 10,000` });

      // Stop here: nothing forgotten, nothing dropped.
      await forgetEvery();
      await expect(paused).toBeVisible();
      await screenshots(page, testInfo, 'Find: every match paused by a full Trash', { region: everyMatch });
      await expectNoAxeViolations(page, 'Find: every match paused by a full Trash', EVERY_MATCH);
      await paused.getByRole('button', { name: 'Stop here' }).click();
      await expect(everyMatch.getByRole('status').filter({ hasText: /^Cancelled: forgot 0 jobs before that/ })).toBeVisible();
      expect(await queue.redis.zcount(queue.keys.failed, '-inf', '+inf')).toBeGreaterThanOrEqual(failing);
      expect(await queue.redis.zcard(index)).toBe(held);

      // Go on: every match forgotten and kept, the Trash's oldest dropped to make room.
      await forgetEvery();
      await paused.getByRole('button', { name: 'Go on, dropping the oldest' }).click();
      await expect(everyMatch.getByRole('status').filter({ hasText: `Forgot ${plural(failing, 'job')}: every failed match. Done` })).toBeVisible();
      expect(await queue.redis.zcard(index)).toBeLessThanOrEqual(10_000);
      // The audit log names the step that did not start, and each step that dropped the Trash's oldest.
      const audited = (await readAuditPage(queue.redis, dashboardKeys(e2eDashboardPrefix()), { limit: 100 })).entries.filter(
        (entry) => entry.action === 'forget every failed match of a search (one step)' && entry.target.includes(marker),
      );
      expect(audited.filter((entry) => entry.detail.startsWith('not started: the Trash holds'))).toHaveLength(2);
      expect(audited.filter((entry) => entry.target.startsWith('the Trash’s oldest dropped to make room: ')).length).toBeGreaterThan(0);
      // The oldest were the others' (all at one score, so dropped in member order): those past the room left.
      expect((await queue.redis.zmscore(index, others)).filter((score) => score !== null)).toHaveLength(others.length - (failing - room));
    } finally {
      await queue.redis.zrem(index, ...others);
    }
  });

  test('Stop ends a search between two steps: no step is asked for after it', async ({ page }) => {
    const many = keys.fixedQueueName(`${QUEUE}-many`);
    await queue.pushMany(Array.from({ length: 900 }, (_, i) => ({ queue: many, name: 'App\\Jobs\\Noise', payload: { i } })));
    const steps: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The second step is held back, so Stop lands while the search is under way.
    await page.route(
      (url) => url.pathname === '/api/find',
      async (route) => {
        steps.push(route.request().url());
        if (steps.length === 2) await held;
        await route.continue();
      },
    );
    await findInPayloads(page, 'nothing-has-this');
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect.poll(() => steps.length).toBe(2);
    await stop.click();
    release();
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('Stopped.');
    await expect(page.getByRole('status', { name: 'Search progress' })).toContainText(/Looked at [\d,]+ of about [\d,]+ jobs/);
    await page.waitForTimeout(500);
    expect(steps).toHaveLength(2);
    await expect(stop).toHaveCount(0);
  });

  test('finds a yii2 job by a piece of its PHP-serialized payload in every state', async ({ page }) => {
    const channel = { connection: queue, driver: 'yii2' as const, keys: new Yii2Keys(YII2_CONNECTIONS.stock.channel()), ng: DEFAULT_YII2_NG_SETTINGS };
    const message = `300;O:8:"stdClass":1:{s:5:"order";s:${Buffer.byteLength(MARKER)}:"${MARKER}";}`;
    const reserved = await driverPush(channel, message);
    const ready = await driverPush(channel, message);
    await driverReserve(channel);
    // stock's push with a delay: the message, and its id in the delayed set
    const delayed = String(await queue.redis.incr(channel.keys.messageId));
    await queue.redis.hset(channel.keys.messages, delayed, message);
    await queue.redis.zadd(channel.keys.delayed, Math.floor(Date.now() / 1000) + 3600, delayed);

    await showConnection(page, YII2_CONNECTIONS.stock.name);
    await findInPayloads(page, MARKER);
    expect(await foundStates(page)).toEqual({ [ready]: 'ready', [reserved]: 'reserved', [delayed]: 'delayed' });
    await expect(page.getByRole('table', { name: 'Jobs found' }).getByRole('row').nth(1)).toContainText('stdClass');

    // yii2 records no time a job joined its line: the form says so, and a range over ready jobs alone finds nothing, in words.
    await page.goto(`/find?text=${encodeURIComponent(MARKER)}&field=payload&states=ready&from=2026-03-10T12:00Z`);
    await expect(page.getByRole('search', { name: 'Find jobs' })).toContainText('ready records no time on this layout and is left out of a ranged search.');
    await expect(page.getByRole('status').filter({ hasText: 'No state this search looks in records a time: it finds nothing.' })).toBeVisible();
  });

  test('finds a marko job by a piece of its signed payload, decoded, in every state', async ({ page }, testInfo) => {
    const worker = new MarkoTestWorker(queue.redis, MARKO_CONNECTION.prefix());
    const job = { className: 'App\\Jobs\\Ship', data: { order: MARKER } };
    const reserved = await worker.push('ship', job);
    const failed = await worker.push('ship', job);
    const ready = await worker.push('ship', job);
    const delayed = await worker.later(3600, 'ship', job);
    expect((await worker.pop('ship'))!.id).toBe(reserved);
    expect((await worker.pop('ship'))!.id).toBe(failed);
    await worker.fail('ship', failed, 'RuntimeException: refused');
    expect(await queue.redis.exists(new MarkoKeys(MARKO_CONNECTION.prefix()).job(ready))).toBe(1);

    await showConnection(page, MARKO_CONNECTION.name);
    await findInPayloads(page, MARKER);
    expect(await foundStates(page)).toEqual({ [ready]: 'ready', [reserved]: 'reserved', [delayed]: 'delayed', [failed]: 'failed' });
    await expect(page.getByRole('table', { name: 'Jobs found' }).locator('mark').first()).toHaveText(MARKER);

    // marko's failed jobs are retried by marko: Forget and Remove are offered, Retry is not.
    await expect(page.getByRole('button', { name: /^Retry / })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Forget 1 failed…' })).toBeVisible();
    await page.getByRole('button', { name: 'Remove 3 live…' }).click();
    await page.getByRole('dialog', { name: 'Remove 3 jobs found?' }).getByRole('button', { name: 'Remove 3 jobs' }).click();
    const removed = page.getByRole('status').filter({ hasText: 'Removed 3 jobs. Kept in the Trash.' });
    await expect(removed).toBeVisible();
    const keys = new MarkoKeys(MARKO_CONNECTION.prefix());
    expect(await queue.redis.exists(keys.job(ready), keys.job(reserved), keys.job(delayed))).toBe(0);
    // Each live row says it was removed (After, the third column, in view on a phone too); the failed one, not acted on, says nothing.
    const afterOf = (id: string) =>
      page
        .getByRole('table', { name: 'Jobs found' })
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: id, exact: true }) })
        .getByRole('cell')
        .nth(2);
    for (const id of [ready, reserved, delayed]) await expect(afterOf(id)).toHaveText('removed');
    await expect(afterOf(failed)).toHaveText('');
    await screenshots(page, testInfo, 'Find: each listed match says what Remove did to it');
    await expectNoAxeViolations(page, 'Find: each listed match says what Remove did to it');
    // One audit entry for the batch, naming the search and the counts.
    const audited = (await readAuditPage(queue.redis, dashboardKeys(e2eDashboardPrefix()), { limit: 50 })).entries.filter(
      (entry) => entry.connection === MARKO_CONNECTION.name && entry.target.includes(MARKER),
    );
    expect(audited).toEqual([expect.objectContaining({ action: 'remove jobs found by a search', result: 'ok', detail: '3 removed' })]);
    await removed.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Restored 3 jobs' })).toBeVisible();
    expect(await queue.redis.exists(keys.job(ready), keys.job(reserved), keys.job(delayed))).toBe(3);
  });
});
