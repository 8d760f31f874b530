import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import type { QueueHistory } from '@/lib/queries/throughput';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { queueHref } from '@/lib/routes';
import { Worker } from '@/lib/worker/worker';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eSecrets } from './support';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** uPlot's legend under a chart: the figures of each series at the hovered moment. */
function legendValue(chart: Locator, series: string): Locator {
  return chart.locator('.u-legend tr.u-series').filter({ hasText: series }).locator('td.u-value');
}

/**
 * Moves the mouse across the chart's plot (scrolled into view), a pixel at a time from the newest
 * end, until the legend shows a processed rate above zero; returns it. Every
 * pixel: the worker's few busy seconds may be a handful of points among the
 * hundreds the chart holds once the server has sampled for minutes.
 */
async function hoverUntilProcessed(page: Page, chart: Locator): Promise<string> {
  const plot = chart.locator('.u-over');
  // The mouse hovers only what is on screen: below the fold, a move would hover nothing.
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  for (let x = Math.floor(box.width) - 1; x > 0; x--) {
    await page.mouse.move(box.x + x, box.y + box.height / 2);
    const text = (await legendValue(chart, 'Processed').textContent()) ?? '';
    if (/^[\d.]+\/s$/.test(text) && Number.parseFloat(text) > 0) return text;
  }
  throw new Error('no moment of the chart shows jobs processed');
}

test.describe('throughput', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  let name: string;
  let worker: Worker;
  let running: Promise<void>;
  const bearer = { authorization: `Bearer ${e2eSecrets().viewer}` };
  // A browser far from UTC, so a chart that wrote its times in the browser's zone would show it.
  test.use({ timezoneId: 'America/Los_Angeles', locale: 'en-US' });

  withSpecKeys(
    (opened) => ({ queue, keys } = opened),
    async () => {
      worker.stop();
      await running;
    },
  );

  test.beforeAll(async () => {
    name = keys.queueName('throughput');
    await queue.pushMany(Array.from({ length: 400 }, (_, n) => ({ queue: name, name: 'e2e.tick', payload: { n } })));
    // Keeps the queue on the overview (it lists queues that hold jobs) once the worker has run the others.
    await queue.push(name, 'e2e.later', {}, { delaySeconds: 3600 });
    // A real worker at a steady pace, so several samples see jobs processed.
    worker = new Worker(queue, { queues: [name], handlers: { 'e2e.tick': () => sleep(10) }, idleMs: 50, workerId: 'e2e-throughput:1' });
    running = worker.run();
  });

  /** Waits until the dashboard's sampler has recorded a few points with jobs processed. */
  async function samplesRecorded(request: APIRequestContext): Promise<void> {
    await expect
      .poll(
        async () => {
          const response = await request.get(`/api/queues/${encodeURIComponent(name)}/history?range=15m`, { headers: bearer });
          const body = (await response.json()) as { ok: boolean; data: QueueHistory };
          return body.data.points.filter((point) => (point.processed ?? 0) > 0).length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(3);
  }

  test('the queue page charts processed, pushed and failed per second, with the figures at the hovered moment', async ({ page, request }, testInfo) => {
    await samplesRecorded(request);
    await page.goto(queueHref(name));
    const region = page.getByRole('region', { name: 'Throughput', exact: true });
    const chart = region.getByRole('figure', { name: `Throughput of queue ${name}, last 1 hour` });
    await expect(chart.locator('canvas')).toBeVisible();
    expect(await hoverUntilProcessed(page, chart)).toMatch(/\/s$/);
    await expect(legendValue(chart, 'Pending')).toHaveText(/^[\d,]+$/);
    // The hovered moment in the dashboard's one clock, UTC and 24-hour, not the browser's 12-hour local time.
    const hovered = (await legendValue(chart, 'Time').textContent()) ?? '';
    expect(hovered).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(Math.abs(Date.parse(`${hovered.slice(0, 10)}T${hovered.slice(11, 19)}Z`) - Date.now())).toBeLessThan(3_600_000);
    await testInfo.attach('queue throughput chart', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await region.getByRole('button', { name: '15 min' }).click();
    await expect(region.getByRole('button', { name: '15 min' })).toHaveAttribute('aria-pressed', 'true');
    await expect(region.getByRole('figure', { name: `Throughput of queue ${name}, last 15 min` }).locator('canvas')).toBeVisible();
    // The range is in the address: the page reloaded, or the link opened elsewhere, shows the same range.
    await expect(page).toHaveURL(/[?&]range=15m(&|$)/);
    await page.reload();
    const reloaded = page.getByRole('region', { name: 'Throughput', exact: true });
    await expect(reloaded.getByRole('button', { name: '15 min' })).toHaveAttribute('aria-pressed', 'true');
    await expect(reloaded.getByRole('figure', { name: `Throughput of queue ${name}, last 15 min` }).locator('canvas')).toBeVisible();
  });

  test('the overview charts every queue together and gives each queue row a sparkline and its wait', async ({ page, request }) => {
    await samplesRecorded(request);
    await page.goto('/');
    const region = page.getByRole('region', { name: 'Throughput', exact: true });
    const chart = region.getByRole('figure', { name: 'Throughput of every queue, last 15 minutes' });
    await expect(chart.locator('canvas')).toBeVisible();
    expect(await hoverUntilProcessed(page, chart)).toMatch(/\/s$/);
    const table = page.getByRole('table', { name: 'Jobs per queue' });
    const cells = table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
      .getByRole('cell');
    // Pending, delayed, reserved, total, failed, then the sparkline (named by its latest rate) and the wait.
    await expect(cells.nth(5).getByRole('img', { name: /^Processed per second over the last 15 minutes: \d+\.\d\d per second now$/ })).toBeVisible();
    await expect(cells.nth(6)).toHaveText(/^(\d+ (d|h|min|s)( \d+ (h|min|s))?|none waiting)$/);
    const everyQueue = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'All queues' }) });
    await expect(everyQueue.getByRole('img', { name: /^Processed per second over the last 15 minutes/ })).toBeVisible();
  });

  test('GET /api/metrics answers Prometheus text with the queue’s gauges and counters, to a bearer secret', async ({ request }) => {
    await samplesRecorded(request);
    const response = await request.get('/api/metrics', { headers: bearer });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain; version=0.0.4');
    const lines = (await response.text()).split('\n');
    const series = (metric: string) => lines.find((line) => line.startsWith(`${metric}{connection="default",queue="${name}"} `));
    expect(lines).toContain('# TYPE queuelens_queue_processed_total counter');
    expect(Number(series('queuelens_queue_processed_total')?.split(' ')[1])).toBeGreaterThan(0);
    expect(series('queuelens_queue_pending')).toBeDefined();
    expect(series('queuelens_queue_wait_seconds')).toBeDefined();
    expect((await request.get('/api/stats', { headers: bearer })).status()).toBe(200);
  });
});
