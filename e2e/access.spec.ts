import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { scanKeysUnder } from '@/lib/redis/scan-keys';
import { readAuditPage } from '@/lib/dashboard/audit-log';
import { dashboardKeys } from '@/lib/dashboard/keys';
import { delayedOfQueueHref, jobHref } from '@/lib/routes';
import { APP_PORT, UNREACHABLE_APP_PORT, e2eDashboardPrefix, e2eSecrets, overviewAddress } from './support';
import { ORIGIN, postAction, serverActions } from './server-actions';
import { SpecKeys, withSpecKeys } from './spec-keys';
const SESSION_COOKIE = 'queuelens-session';

// These tests bring their own credentials, or none.
test.use({ storageState: { cookies: [], origins: [] } });

/** What changes Redis if it is allowed, for each action that changes queue state; built from the seeded jobs. */
interface Seeded {
  queue: string;
  failedId: number;
  delayedId: number;
  held: { queue: string; level: string; entry: string; jobId: number; reservedBy: string; reservedUntil: string; attempts: string };
}

const MUTATIONS: Record<string, (seeded: Seeded) => unknown> = {
  retryJobs: ({ failedId }) => ({ ids: [String(failedId)] }),
  // `seen` is not the stored payload: the refusal comes before the script would compare it.
  editAndRetryJob: ({ failedId }) => ({ id: String(failedId), seen: '{"forged":1}', edited: '{"forged":2}' }),
  pushJob: ({ queue }) => ({ queue, name: 'forged', payload: '{}', delaySeconds: 0, priority: '0', maxAttempts: 1, uniqueKey: '' }),
  // Run a copy of a layout QueueLens does not push for (yii2): refused before the layout is asked.
  copyJob: ({ queue, delayedId }) => ({ queue, id: String(delayedId), delaySeconds: 0 }),
  forgetJobs: ({ failedId }) => ({ ids: [String(failedId)] }),
  restoreJobs: ({ failedId }) => ({ ids: [String(failedId)] }),
  retryOldestStep: () => ({}),
  forgetOldestStep: () => ({ before: null }),
  releaseNow: ({ held }) => held,
  failWithReason: ({ held }) => ({ ...held, reason: 'forged' }),
  cleanUpTombstone: ({ held }) => ({ queue: held.queue, level: held.level, entry: held.entry, jobId: null }),
  // The line repairs of a layout QueueLens does not run (yii2); named here with jobs of the seeded queue all the same: a refusal comes first.
  removeLineJob: ({ queue, delayedId }) => ({ queue, id: String(delayedId) }),
  removeFoundJobs: ({ queue, delayedId }) => ({ text: 'forged', field: 'any', jobs: [{ queue, id: String(delayedId) }] }),
  // Acting on every match of a search: the search would find the seeded jobs; the refusal comes before it runs.
  retryEveryMatchStep: ({ queue }) => ({ text: 'will.fail', field: 'any', queue, cursor: null }),
  forgetEveryMatchStep: ({ queue }) => ({ text: 'will.fail', field: 'any', queue, cursor: null }),
  removeEveryMatchStep: ({ queue }) => ({ text: 'later', field: 'any', queue, cursor: null }),
  releaseExpiredJob: ({ held }) => ({ queue: held.queue, id: String(held.jobId) }),
  reclaimLiveJob: ({ held }) => ({ queue: held.queue, id: String(held.jobId) }),
  runDueJobNow: ({ queue, delayedId }) => ({ queue, id: String(delayedId) }),
  moveDueJobsNow: ({ queue }) => ({ queue }),
  // A layout doctor's repair names a check and its findings by id; the refusal comes before either is looked up.
  repairLayoutCheckFindings: () => ({ run: 'A'.repeat(24), findings: ['B'.repeat(22)] }),
  // Changes QueueLens's own keys, not the queue's; a viewer is refused before it is looked at.
  silenceAlert: ({ queue }) => ({ queue, kind: 'failing', minutes: 60 }),
};
/** Actions that change nothing but are an operator's all the same (a detection walk shows every key name), each with an input it would run. */
const OPERATOR_READS: Record<string, unknown> = {
  runDetectStep: { cursor: '0', match: '*' },
};
/** Actions anyone signed in may call: they read, or they are about the session itself. */
const NOT_MUTATIONS = new Set(['runLayoutCheckStep', 'previewForget', 'signIn', 'signInWithLink', 'signOut', 'switchConnection', 'endOpenSession']);

/**
 * Every queue key under the run's prefix with its serialized value: equal
 * snapshots mean no queue changed. QueueLens's own keys (the audit log, which
 * records refusals too) are left out.
 */
async function snapshot(queue: RedisQueue): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for await (const batch of scanKeysUnder(queue.redis, queue.keys.prefix)) {
    for (const key of batch.filter((name) => !name.startsWith(e2eDashboardPrefix())))
      values.set(key, (await queue.redis.dumpBuffer(key))?.toString('hex') ?? 'gone');
  }
  return values;
}

function auditEntries(queue: RedisQueue, limit: number) {
  return readAuditPage(queue.redis, dashboardKeys(e2eDashboardPrefix()), { limit }).then((page) => page.entries);
}

async function signedInCookie(browser: Browser, secret: string, { port = APP_PORT, name = '' } = {}): Promise<string> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/login`);
  await page.getByLabel('Secret').fill(secret);
  if (name !== '') await page.getByLabel(/Your name/).fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(overviewAddress(`http://127.0.0.1:${port}`));
  const cookie = (await context.cookies()).find((candidate) => candidate.name === SESSION_COOKIE);
  await context.close();
  if (!cookie) throw new Error('no session cookie after signing in');
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe('Strict');
  return `${SESSION_COOKIE}=${cookie.value}`;
}

/** POSTs `body` chunked, without a Content-Length, as a client streaming it does; resolves with the answer's status. */
function postChunked(path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${ORIGIN}${path}`, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    for (let start = 0; start < body.length; start += 64 * 1024) request.write(body.slice(start, start + 64 * 1024));
    request.end();
  });
}

/** Sends `head` (a request line and headers, CRLF-separated) over a bare socket, as no HTTP client would normalize it; resolves with the status and the raw answer. */
function sendRaw(head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(APP_PORT, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve({ status: Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

test.describe('access', () => {
  test.describe.configure({ mode: 'serial' });
  let queue: RedisQueue;
  let keys: SpecKeys;
  let seeded: Seeded;

  withSpecKeys((opened) => ({ queue, keys } = opened));

  test.beforeAll(async () => {
    const name = keys.queueName('guarded');
    await queue.push(name, 'will.fail', {});
    const failing = (await queue.reserve([name], 'e2e-host:1', 60))!;
    await queue.fail(failing, 'boom');
    const delayedId = await queue.push(name, 'later', {}, { delaySeconds: 3600 });
    await queue.push(name, 'held', {});
    const held = (await queue.reserve([name], 'e2e-host:2', 1))!;
    const fields = await queue.redis.hgetall(queue.keys.job(held.id));
    seeded = {
      queue: name,
      failedId: failing.id,
      delayedId,
      held: {
        queue: name,
        level: '0',
        entry: held.entry,
        jobId: held.id,
        reservedBy: fields.reserved_by!,
        reservedUntil: fields.reserved_until!,
        attempts: fields.attempts!,
      },
    };
  });

  test('every action that changes queues is listed here with an input that would change them', () => {
    const names = serverActions().map((action) => action.name);
    expect(names.filter((name) => !NOT_MUTATIONS.has(name) && !(name in MUTATIONS) && !(name in OPERATOR_READS))).toEqual([]);
    expect(Object.keys(OPERATOR_READS).filter((name) => !names.includes(name))).toEqual([]);
    expect(Object.keys(MUTATIONS).filter((name) => !names.includes(name))).toEqual([]);
  });

  test('a viewer’s pages leave out the controls that would be refused, and say why; an operator’s have them', async ({ browser }) => {
    const VIEWER_NOTE = 'Only an operator can change queues, and you are signed in as a viewer.';
    // Each page, what shows it has read the seeded job, and a control on it that changes queues.
    const jobLink = (page: Page, id: number) => page.locator(`a[href="${jobHref(id)}"]`);
    const pages = [
      {
        path: '/failed',
        loaded: (page: Page) => jobLink(page, seeded.failedId),
        control: { role: 'checkbox' as const, name: `Select job ${seeded.failedId}` },
      },
      {
        path: jobHref(seeded.failedId),
        loaded: (page: Page) => page.getByRole('region', { name: 'Where it is now' }).getByText('Failed'),
        control: { role: 'button' as const, name: 'Forget…' },
      },
      {
        path: '/reservations',
        loaded: (page: Page) => jobLink(page, seeded.held.jobId),
        control: { role: 'button' as const, name: `Release now job ${seeded.held.jobId}` },
      },
      {
        path: delayedOfQueueHref(seeded.queue),
        loaded: (page: Page) => jobLink(page, seeded.delayedId),
        control: { role: 'button' as const, name: `Run now job ${seeded.delayedId}` },
      },
    ];
    for (const [secret, allowed] of [
      [e2eSecrets().operator, true],
      [e2eSecrets().viewer, false],
    ] as const) {
      const cookie = await signedInCookie(browser, secret);
      const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie.split('=')[1]!, domain: '127.0.0.1', path: '/' }]);
      const page = await context.newPage();
      for (const { path, loaded, control } of pages) {
        await page.goto(`${ORIGIN}${path}`);
        await expect(loaded(page).first(), path).toBeVisible();
        await expect(page.getByRole(control.role, { name: control.name }), `${path} as ${allowed ? 'operator' : 'viewer'}`).toHaveCount(allowed ? 1 : 0);
        await expect(page.getByRole('note').filter({ hasText: VIEWER_NOTE }), path).toHaveCount(allowed ? 0 : 1);
      }
      await context.close();
    }
  });

  test('pages send a signed-out browser to sign in, and back to the page after', async ({ page }) => {
    await page.goto('/reservations?x=1');
    await expect(page).toHaveURL(/\/login\?next=%2Freservations%3Fx%3D1$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await page.getByLabel('Secret').fill('not the secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That secret is not right.')).toBeVisible();
    await page.getByLabel('Secret').fill(e2eSecrets().viewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/reservations\?x=1&connection=default$/);
    // Signed in without a name, the header names the role once.
    await expect(page.getByRole('banner').getByText('viewer', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login/);
  });

  test('a next= that leaves the site lands on the overview instead', async ({ page }) => {
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/.//evil.example', '/..//evil.example', '/./\\evil.example']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Secret').fill(e2eSecrets().viewer);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(overviewAddress(ORIGIN));
      await page.context().clearCookies();
    }
  });

  test('every API route wants credentials; bearer secrets of either role read', async ({ request }) => {
    const { operator, viewer } = e2eSecrets();
    const routes = [
      '/api/overview',
      '/api/failed',
      '/api/failed/search',
      `/api/queues/${seeded.queue}`,
      `/api/queues/${seeded.queue}/delayed`,
      `/api/queues/${seeded.queue}/history?range=1h`,
      '/api/reservations',
      '/api/layout',
      `/api/layout/key?name=${encodeURIComponent(queue.keys.failed)}`,
      '/api/layout/census',
      `/api/jobs/${seeded.failedId}`,
      `/api/jobs/${seeded.failedId}/fields/payload`,
      '/api/health',
      '/api/metrics',
      '/api/stats',
    ];
    for (const route of routes) {
      const anonymous = await request.get(`${ORIGIN}${route}`);
      expect(anonymous.status(), route).toBe(401);
      expect(anonymous.headers()['www-authenticate']).toContain('Bearer');
      expect((await request.get(`${ORIGIN}${route}`, { headers: { authorization: `Bearer ${viewer}` } })).status(), route).toBe(200);
      expect((await request.get(`${ORIGIN}${route}`, { headers: { authorization: `Bearer ${operator}` } })).status(), route).toBe(200);
    }
    // One wrong secret only: each counts against the sign-in throttle this server's other tests still need.
    expect((await request.get(`${ORIGIN}/api/overview`, { headers: { authorization: 'Bearer wrong' } })).status()).toBe(401);
  });

  test('a Host name that is not the dashboard’s is refused (DNS rebinding)', async ({ request }) => {
    const response = await request.get(`${ORIGIN}/api/overview`, {
      headers: { host: `rebound.example:${APP_PORT}`, authorization: `Bearer ${e2eSecrets().operator}` },
    });
    expect(response.status()).toBe(421);
  });

  test('unauthenticated and viewer POSTs to every action leave Redis unchanged; an operator’s does change it', async ({ request, browser }) => {
    const viewerCookie = await signedInCookie(browser, e2eSecrets().viewer);
    const actions = serverActions().filter((action) => action.name in MUTATIONS);
    const before = await snapshot(queue);
    for (const action of actions) {
      const args = [MUTATIONS[action.name]!(seeded)];
      const anonymous = await postAction(request, action, args, { origin: ORIGIN });
      expect(anonymous.status(), action.name).toBe(401);
      const asViewer = await postAction(request, action, args, { origin: ORIGIN, cookie: viewerCookie });
      expect(asViewer.status(), action.name).toBe(200);
      expect(await asViewer.text(), action.name).toContain('Only an operator can change queues');
    }
    expect(await snapshot(queue)).toEqual(before);
    // Each viewer's attempt is in the audit log as refused; anonymous ones never reached an action.
    const refused = (await auditEntries(queue, actions.length)).map(({ role, result, who }) => ({ role, result, who }));
    expect(refused).toEqual(actions.map(() => ({ role: 'viewer', result: 'refused', who: 'viewer' })));

    // The same request with an operator's session does what it says: the harness can fail.
    const operatorCookie = await signedInCookie(browser, e2eSecrets().operator);
    const retry = actions.find((action) => action.name === 'retryJobs')!;
    const done = await postAction(request, retry, [MUTATIONS.retryJobs!(seeded)], { origin: ORIGIN, cookie: operatorCookie });
    expect(done.status()).toBe(200);
    expect(await queue.redis.zscore(queue.keys.failed, String(seeded.failedId))).toBeNull();
    const [recorded] = await auditEntries(queue, 1);
    expect(recorded).toMatchObject({
      who: 'operator',
      role: 'operator',
      connection: 'default',
      action: 'retry failed jobs',
      target: `job ${seeded.failedId}`,
      result: 'ok',
      detail: 'requeued 1, 0 no longer failed, 0 gone',
    });
  });

  test('an operator’s reads refuse the signed-out and viewers, and run for an operator', async ({ request, browser }) => {
    const [viewerCookie, operatorCookie] = [await signedInCookie(browser, e2eSecrets().viewer), await signedInCookie(browser, e2eSecrets().operator)];
    for (const action of serverActions().filter((candidate) => candidate.name in OPERATOR_READS)) {
      const args = [OPERATOR_READS[action.name]];
      expect((await postAction(request, action, args, { origin: ORIGIN })).status(), action.name).toBe(401);
      const asViewer = await postAction(request, action, args, { origin: ORIGIN, cookie: viewerCookie });
      expect(await asViewer.text(), action.name).toContain('Only an operator can change queues, and you are signed in as a viewer.');
      const asOperator = await postAction(request, action, args, { origin: ORIGIN, cookie: operatorCookie });
      expect(await asOperator.text(), action.name).toContain('"ok":true');
      // A cursor that is not a decimal number is refused by the schema, before Redis is asked.
      const forged = await postAction(request, action, [{ cursor: '0; FLUSHALL', match: '*' }], { origin: ORIGIN, cookie: operatorCookie });
      expect(await forged.text(), action.name).toContain('Invalid input, cursor: a SCAN cursor is a decimal number');
    }
  });

  test('a forged, null or missing Origin and an oversize body are refused before any action runs', async ({ request, browser }) => {
    const operatorCookie = await signedInCookie(browser, e2eSecrets().operator);
    const forget = serverActions().find((action) => action.name === 'forgetOldestStep')!;
    const args = [MUTATIONS.forgetOldestStep!(seeded)];
    const before = await snapshot(queue);
    const host = `127.0.0.1:${APP_PORT}`;
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${APP_PORT + 50}`,
      `https://${host}`,
      `ws://${host}`,
      `ftp://${host}`,
      `javascript://${host}`,
      `http://user@${host}`,
    ]) {
      expect((await postAction(request, forget, args, { origin, cookie: operatorCookie })).status(), origin).toBe(403);
    }
    expect((await postAction(request, forget, args, { cookie: operatorCookie })).status(), 'no Origin').toBe(403);
    const huge = await request.post(`${ORIGIN}${forget.page}`, {
      headers: { 'next-action': forget.id, 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, cookie: operatorCookie },
      data: JSON.stringify([{ before: 'x'.repeat(2 * 1024 * 1024) }]),
    });
    expect(huge.status()).toBe(413);
    // The same body chunked, without a Content-Length: refused alike, not left to fail inside Next.
    expect(
      await postChunked(
        forget.page,
        { 'next-action': forget.id, 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, cookie: operatorCookie },
        JSON.stringify([{ before: 'x'.repeat(2 * 1024 * 1024) }]),
      ),
    ).toBe(413);
    expect(await snapshot(queue)).toEqual(before);
  });

  test('a signed-out session’s cookie, replayed, is refused on pages, API routes and server actions; an operator can end another session', async ({
    browser,
    request,
  }) => {
    // Signed in and out through the header's button, as a person does it; the cookie is copied before.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/login`);
    await page.getByLabel('Secret').fill(e2eSecrets().operator);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(overviewAddress(ORIGIN));
    const copied = (await context.cookies()).find((candidate) => candidate.name === SESSION_COOKIE)!;
    const cookie = `${SESSION_COOKIE}=${copied.value}`;
    expect((await request.get(`${ORIGIN}/api/overview`, { headers: { cookie } })).status()).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${ORIGIN}/login`);
    await context.close();

    const replayedPage = await request.get(`${ORIGIN}/failed`, { headers: { cookie }, maxRedirects: 0 });
    expect(replayedPage.status()).toBe(303);
    expect(replayedPage.headers().location).toContain('/login?next=%2Ffailed');
    const replayedApi = await request.get(`${ORIGIN}/api/overview`, { headers: { cookie } });
    expect(replayedApi.status()).toBe(401);
    expect(((await replayedApi.json()) as { error: string }).error).toMatch(/session has ended/);
    const retry = serverActions().find((action) => action.name === 'retryJobs')!;
    expect((await postAction(request, retry, [MUTATIONS.retryJobs!(seeded)], { origin: ORIGIN, cookie })).status()).toBe(401);

    // A viewer's session, ended by an operator from the sessions page.
    const viewerCookie = await signedInCookie(browser, e2eSecrets().viewer, { name: 'ended by an operator' });
    expect((await request.get(`${ORIGIN}/api/overview`, { headers: { cookie: viewerCookie } })).status()).toBe(200);
    const operator = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const operatorCookie = await signedInCookie(browser, e2eSecrets().operator);
    await operator.addCookies([{ name: SESSION_COOKIE, value: operatorCookie.split('=')[1]!, domain: '127.0.0.1', path: '/' }]);
    const sessions = await operator.newPage();
    await sessions.goto(`${ORIGIN}/`);
    // A click while the page is still hydrating can be lost on a busy machine: click again until the header's link has taken the browser there.
    await expect(async () => {
      await sessions.getByRole('link', { name: 'Sessions' }).click();
      await sessions.waitForURL(`${ORIGIN}/sessions`, { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await expect(sessions.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
    const ended = sessions.getByRole('table', { name: 'Open sessions' }).getByRole('row').filter({ hasText: 'ended by an operator' });
    await expect(ended).toHaveCount(1);
    await ended.getByRole('button', { name: /^End ended by an operator’s session/ }).click();
    await expect(ended).toHaveCount(0);
    expect((await request.get(`${ORIGIN}/api/overview`, { headers: { cookie: viewerCookie } })).status()).toBe(401);
    expect((await request.get(`${ORIGIN}/api/overview`, { headers: { cookie: operatorCookie } })).status()).toBe(200);
    await operator.close();
  });

  test('client errors answer 400 with what was wrong, not 500', async ({ request }) => {
    const headers = { authorization: `Bearer ${e2eSecrets().viewer}` };
    for (const route of [
      `/api/layout/key?name=${encodeURIComponent(`elsewhere:${queue.keys.failed}`)}`,
      // A sorted set that still holds the seeded delayed job: its cursor is an offset, and `5-` is not one.
      `/api/layout/key?name=${encodeURIComponent(queue.keys.delayed(seeded.queue))}&cursor=5-`,
      `/api/layout/key?name=${encodeURIComponent(queue.keys.queues)}&cursor=${'9'.repeat(20)}`,
      `/api/layout/key?name=${encodeURIComponent(queue.keys.failed)}&raw=AAAA`,
      '/api/layout/census?cursor=99999999999999999999',
      '/api/audit?before=0-0',
      '/api/audit?before=99999999999999999999-0',
      '/api/failed?limit=0',
      '/api/jobs/0',
      `/api/queues/${seeded.queue}/history?range=forever`,
    ]) {
      const response = await request.get(`${ORIGIN}${route}`, { headers });
      expect(response.status(), route).toBe(400);
      expect(((await response.json()) as { ok: boolean; error: string }).error, route).toEqual(expect.any(String));
    }
  });

  test('redirects, static files and the connection cookie carry their protections', async ({ request, browser }) => {
    const cookie = await signedInCookie(browser, e2eSecrets().operator);
    const trailing = await request.get(`${ORIGIN}/failed/`, { headers: { cookie }, maxRedirects: 0 });
    expect(trailing.status()).toBe(308);
    const html = await (await request.get(`${ORIGIN}/login`)).text();
    const script = html.match(/\/_next\/static\/[^"]+\.js/)?.[0];
    expect(script).toBeTruthy();
    const asset = await request.get(`${ORIGIN}${script}`);
    expect(asset.status()).toBe(200);
    for (const response of [trailing, asset]) {
      expect(response.headers()['x-content-type-options'], response.url()).toBe('nosniff');
      expect(response.headers()['x-frame-options'], response.url()).toBe('DENY');
      expect(response.headers()['referrer-policy'], response.url()).toBe('same-origin');
    }
    // Behind a TLS-terminating proxy (X-Forwarded-Proto: https) the connection choice is a Secure cookie, like the session.
    const switchConnection = serverActions().find((action) => action.name === 'switchConnection')!;
    const switched = await postAction(request, switchConnection, ['default'], { origin: ORIGIN, cookie, 'x-forwarded-proto': 'https' });
    expect(switched.status()).toBe(200);
    const setCookie = switched
      .headersArray()
      .find(({ name, value }) => name.toLowerCase() === 'set-cookie' && value.startsWith('queuelens-connection='))?.value;
    expect(setCookie).toMatch(/;\s*Secure/i);
  });

  test('pages carry a nonce CSP, and every script on them has that nonce', async ({ page, browser }) => {
    const cookie = await signedInCookie(browser, e2eSecrets().viewer);
    await page.context().addCookies([{ name: SESSION_COOKIE, value: cookie.split('=')[1]!, domain: '127.0.0.1', path: '/' }]);
    const response = (await page.goto('/'))!;
    const headers = response.headers();
    const policy = headers['content-security-policy']!;
    const nonce = policy.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toMatch(/script-src [^;]*'strict-dynamic'/);
    expect(policy).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    // Every script the server wrote carries the nonce; a chunk Next's loader adds later (the throughput chart's uPlot) is trusted by 'strict-dynamic' instead, and is the app's own.
    const scripts = await page
      .locator('script')
      .evaluateAll((elements) => elements.map((element) => ({ nonce: (element as HTMLScriptElement).nonce, src: (element as HTMLScriptElement).src })));
    expect(scripts.length).toBeGreaterThan(0);
    const unnonced = scripts.filter((script) => script.nonce !== nonce);
    expect(unnonced.map((script) => new URL(script.src || 'inline:').pathname).filter((path) => !path.startsWith('/_next/static/chunks/'))).toEqual([]);
    const html = await response.text();
    const written = html.match(/<script\b[^>]*>/g) ?? [];
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
    // The page is alive under that policy: the live data arrived and hydrated.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const second = (await page.reload())!.headers()['content-security-policy'];
    expect(second).not.toBe(policy);
  });

  test('the client bundle holds no server code, secret or Redis address', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith('.js')) files.push(join(dir, entry.name));
      }
    };
    walk('.next/static');
    expect(files.length).toBeGreaterThan(5);
    const bundle = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    const { operator, viewer } = e2eSecrets();
    for (const forbidden of [operator, viewer, 'QUEUELENS_SECRET', 'REDIS_URL', 'redis://', 'ioredis', 'redis.call(', 'server-reference-manifest']) {
      expect(bundle.includes(forbidden), forbidden).toBe(false);
    }
  });

  test('a page with a trailing slash is sent once to the path without it', async ({ browser }) => {
    // The session in a cookie jar: a redirect Playwright follows takes its cookies from the jar, not from the first request's Cookie header.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    await context.addCookies([
      { name: SESSION_COOKIE, value: (await signedInCookie(browser, e2eSecrets().viewer)).split('=')[1]!, domain: '127.0.0.1', path: '/' },
    ]);
    const { request } = context;
    for (const [path, canonical] of [
      ['/failed/', '/failed'],
      ['/failed//?queue=a', '/failed?queue=a'],
      [`${delayedOfQueueHref(seeded.queue)}/`, delayedOfQueueHref(seeded.queue)],
      ['//failed/', '/failed'],
    ]) {
      // maxRedirects: 1 throws on a second redirect, as a redirect loop would need.
      const followed = await request.get(`${ORIGIN}${path}`, { maxRedirects: 1 });
      expect(followed.status(), path).toBe(200);
      expect(followed.url(), path).toBe(`${ORIGIN}${canonical}`);
      const first = await request.get(`${ORIGIN}${path}`, { maxRedirects: 0 });
      expect(first.status(), path).toBe(308);
      expect(first.headers().location, path).toBe(canonical);
    }
    await context.close();
  });

  test('a request target in absolute form is refused with 400 and the security headers, before Next answers', async () => {
    for (const target of ['http://other.example/failed', `http://127.0.0.1:${APP_PORT}/failed`, 'http://other.example/api/overview']) {
      const answer = await sendRaw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${APP_PORT}`);
      expect(answer.status, target).toBe(400);
      expect(answer.text, target).not.toMatch(/^location:/im);
      expect(answer.text, target).toMatch(/^x-content-type-options: nosniff/im);
      expect(answer.text, target).toMatch(/^x-frame-options: DENY/im);
      expect(answer.text, target).toContain('"error":"The request target must be a path');
    }
  });

  test('a malformed percent-escape in a path, a body an action cannot decode and a mixed-case Host on an action answer 400, not 500', async ({
    request,
    browser,
  }) => {
    const headers = { authorization: `Bearer ${e2eSecrets().viewer}` };
    for (const path of ['/jobs/%ZZ', '/api/queues/%E0%A4%A', '/queues/%FF']) {
      const response = await request.get(`${ORIGIN}${path}`, { headers });
      expect(response.status(), path).toBe(400);
      expect(((await response.json()) as { error: string }).error, path).toMatch(/^The path has a malformed percent-escape/);
    }
    const operatorCookie = await signedInCookie(browser, e2eSecrets().operator);
    const retry = serverActions().find((action) => action.name === 'retryJobs')!;
    for (const body of ['not json', '{"ids":["1"]}', '']) {
      const response = await request.post(`${ORIGIN}${retry.page}`, {
        headers: { 'next-action': retry.id, 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, cookie: operatorCookie },
        data: body,
        maxRedirects: 0,
      });
      expect(response.status(), body).toBe(400);
      expect(((await response.json()) as { error: string }).error, body).toMatch(/^The arguments of the action are not/);
    }
    // Arguments that decode but are not what a form's action takes: its own refusal, not a thrown TypeError.
    const signIn = serverActions().find((action) => action.name === 'signIn')!;
    const numbers = await postAction(request, { ...signIn, page: '/login' }, [1, 2], { origin: ORIGIN });
    expect(numbers.status()).toBe(200);
    expect(await numbers.text()).toContain('The form was not understood.');
    const mixedCase = await postAction(request, retry, [MUTATIONS.retryJobs!(seeded)], {
      origin: `http://localhost:${APP_PORT}`,
      host: `LocalHost:${APP_PORT}`,
      cookie: operatorCookie,
    });
    expect(mixedCase.status()).toBe(400);
    expect(((await mixedCase.json()) as { error: string }).error).toMatch(/Host header/);
  });

  test('the sign-in pages take only their own actions, and a forwarded-action header from a client is refused', async ({ request, browser }) => {
    // On the second server, so that a wrong secret charged to the server's own address could only lock out the throttle test below, and would show here.
    const origin = `http://127.0.0.1:${UNREACHABLE_APP_PORT}`;
    const retry = serverActions().find((action) => action.name === 'retryJobs')!;
    for (let attempt = 0; attempt < 11; attempt++) {
      for (const path of ['/login', '/login/link']) {
        const foreign = await request.post(`${origin}${path}`, {
          headers: { 'next-action': retry.id, 'content-type': 'text/plain;charset=UTF-8', origin, authorization: 'Bearer wrong secret' },
          data: JSON.stringify([MUTATIONS.retryJobs!(seeded)]),
          maxRedirects: 0,
        });
        expect(foreign.status(), path).toBe(400);
        expect(((await foreign.json()) as { error: string }).error, path).toContain('not one of this page');
      }
      const forwarded = await request.post(`${origin}/failed`, {
        headers: {
          'next-action': retry.id,
          'x-action-forwarded': '1',
          'content-type': 'text/plain;charset=UTF-8',
          origin,
          authorization: 'Bearer wrong secret',
        },
        data: JSON.stringify([MUTATIONS.retryJobs!(seeded)]),
        maxRedirects: 0,
      });
      expect(forwarded.status()).toBe(400);
    }
    // No wrong secret above was charged to anyone (the server's own address included): signing in there works.
    await signedInCookie(browser, e2eSecrets().operator, { port: UNREACHABLE_APP_PORT });
  });

  test('a viewer’s sessions page carries no session id; an operator’s carries them for its buttons', async ({ request, browser }) => {
    const viewerCookie = await signedInCookie(browser, e2eSecrets().viewer, { name: 'looking' });
    const operatorCookie = await signedInCookie(browser, e2eSecrets().operator);
    const ids = Object.keys(await queue.redis.hgetall(dashboardKeys(e2eDashboardPrefix()).sessions));
    expect(ids.length).toBeGreaterThan(1);
    const payloads = async (cookie: string) => {
      const html = await (await request.get(`${ORIGIN}/sessions`, { headers: { cookie } })).text();
      // What a client-side navigation fetches: Next answers an RSC request without its cache-busting `_rsc` with a redirect to it.
      const flightResponse = await request.get(`${ORIGIN}/sessions?_rsc`, { headers: { cookie, rsc: '1' }, maxRedirects: 0 });
      expect(flightResponse.status()).toBe(200);
      const flight = await flightResponse.text();
      expect(html).toContain('Signed-in browsers');
      expect(flight).toContain('Signed-in browsers');
      return `${html}\n${flight}`;
    };
    const seenByViewer = await payloads(viewerCookie);
    expect(ids.filter((id) => seenByViewer.includes(id))).toEqual([]);
    const seenByOperator = await payloads(operatorCookie);
    expect(ids.filter((id) => !seenByOperator.includes(id))).toEqual([]);
  });

  test('wrong secrets are throttled: the eleventh within a minute is refused even when right', async ({ page }) => {
    // On the second server, so that the throttle it trips does not lock out the other specs.
    // Eleven sign-ins one after another: slow on a busy machine, and nothing here waits on a clock.
    test.setTimeout(120_000);
    const login = `http://127.0.0.1:${UNREACHABLE_APP_PORT}/login`;
    await page.goto(login);
    // Hydrated, so that each attempt is one server action and not a form post that reloads the page.
    await page.waitForLoadState('networkidle');
    const submit = async (secret: string) => {
      await page.getByLabel('Secret').fill(secret);
      // Each attempt waits for its own answer (the message of the one before is still on screen), then for
      // React to reset the form after the action: a secret typed before that reset would be wiped, and the
      // browser would not submit a form whose required field is empty.
      await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
      await expect(page.getByLabel('Secret')).toHaveValue('');
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    };
    for (let attempt = 0; attempt < 10; attempt++) await submit(`wrong ${attempt}`);
    await expect(page.getByText('That secret is not right.')).toBeVisible();
    await submit(e2eSecrets().operator);
    await expect(page.getByText(/Too many wrong secrets\. Try again in \d+ s\./)).toBeVisible();
    await expect(page).toHaveURL(login);
  });
});
