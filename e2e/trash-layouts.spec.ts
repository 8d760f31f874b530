import { spawn } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { HorizonKeys } from '@/lib/layouts/laravel/horizon';
import { LaravelKeys } from '@/lib/layouts/laravel/keys';
import { LaravelHarness, requireRealLaravel } from '@/lib/layouts/laravel/php-harness';
import { horizonFails } from '@/lib/layouts/laravel/test-horizon';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { layoutTrashKeys } from '@/lib/layouts/trash';
import { yii2TrashKeys } from '@/lib/layouts/yii2/repairs';
import { driverAcknowledge, driverPush, driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { settingsFromEnv } from '@/lib/redis/config';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { jobHref, trashHref } from '@/lib/routes';
import { showConnection } from './layout-pages';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eYii2Channel } from './yii2-channel';
import { LARAVEL_CONNECTION, MARKO_CONNECTION, YII2_CONNECTIONS, e2eDashboardPrefix, e2ePrefix } from './support';

/*
 * Issue 28's "done means", on every layout the e2e server has a connection
 * of: a live job removed and a failed one forgotten in the browser, both
 * restored from the Trash page in the browser, and then the layout's own
 * worker (StaticPHP: `queuelens work`; yii2 and marko: the test workers that
 * follow the drivers' documented pop; Laravel: its real RedisQueue pop
 * through the PHP harness) runs every job that can run exactly once, the
 * restored one among them. A restored failed job is back on its failed list
 * byte for byte; where QueueLens retries failed jobs (StaticPHP) it is
 * retried from its page and run once too.
 */

/** What one layout's case wrote, in the ids its pages name jobs by. */
interface Seeded {
  /** the queue (a yii2 channel) the jobs are on */
  queue: string;
  /** every job that can run, each expected to run exactly once */
  runnable: string[];
  /** the live job removed in the browser; none where the layout has no remove (StaticPHP) */
  removed?: string;
  /** the failed job forgotten in the browser; none where the layout keeps no failed jobs (yii2) */
  forgotten?: string;
}

interface LayoutCase {
  title: string;
  connection: string;
  /** writes the jobs, as the layout's driver writes them */
  seed(): Promise<Seeded>;
  /** a failed job's record as kept (bytes, score, expiry): a forget and restore must leave it identical */
  failedRecord?(id: string): Promise<unknown>;
  /** QueueLens retries this layout's failed jobs: the restored one is retried from its page and must run once too */
  retries?: true;
  /** the layout's worker, run until nothing is left to run (`runs` runs, where it cannot tell by itself): the ids it ran, once per run */
  work(seeded: Seeded, runs: number): Promise<string[]>;
  cleanUp(): Promise<void>;
}

let queue: RedisQueue;
let keys: SpecKeys;

/** StaticPHP: jobs of the demo handler that records each run, a failed one among them, and real `queuelens work` processes. */
function staticphpCase(): LayoutCase {
  let name = '';
  const failedRecord = async (id: string) => ({
    fields: Object.fromEntries(Object.entries(await queue.redis.hgetallBuffer(queue.keys.job(id))).map(([field, value]) => [field, value.toString('hex')])),
    score: await queue.redis.zscore(queue.keys.failed, id),
  });
  return {
    title: 'StaticPHP QueueRedis',
    connection: 'default',
    async seed() {
      name = keys.queueName('trash-run');
      const ids = await queue.pushMany(Array.from({ length: 3 }, (_, n) => ({ queue: name, name: 'demo.record', payload: { n } })));
      const job = (await queue.reserve([name], 'e2e:trash', 300))!;
      await queue.fail(job, 'row 159 has 7 columns');
      return { queue: name, runnable: ids.filter((id) => id !== job.id).map(String), forgotten: String(job.id) };
    },
    failedRecord,
    retries: true,
    async work(seeded, runs) {
      const { hostname, port } = settingsFromEnv();
      const worker = spawn(
        process.execPath,
        ['bin/queuelens.js', 'work', seeded.queue, '--timeout', '30', '--redis-url', `redis://${hostname}:${port}`, '--prefix', e2ePrefix()],
        { stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      try {
        // Until every job has run and nothing is left in the queue's streams or delayed set (a second run would show as a second line).
        await expect
          .poll(async () => [await queue.redis.llen(queue.keys.demoRuns), (await queue.countsOf([seeded.queue]))[0]?.total], { timeout: 30_000 })
          .toEqual([runs, 0]);
      } finally {
        worker.kill('SIGTERM');
        await exited;
      }
      return (await queue.redis.lrange(queue.keys.demoRuns, 0, -1)).map((line) => line.split(' ')[0]!);
    },
    cleanUp: async () => {
      await queue.redis.del(queue.keys.demoRuns);
    },
  };
}

/** A yii2 channel (stock or redis-ng): messages pushed, reserved and acknowledged as the driver does (lib/layouts/yii2/test-drivers.ts). */
function yii2Case(connection: (typeof YII2_CONNECTIONS)['stock' | 'ng']): LayoutCase {
  const channel = e2eYii2Channel(connection, () => queue);
  return {
    title: connection.layout === 'yii2' ? 'yii2-queue' : 'yii2-queue-redis-ng',
    connection: connection.name,
    async seed() {
      // PHP-serialized messages, one with markup; the trash must keep and give back their exact bytes.
      const ids: string[] = [];
      for (const n of [1, 2, 3]) ids.push(await driverPush(channel, `300;O:8:"stdClass":2:{s:1:"n";i:${n};s:4:"html";s:8:"<b>x</b>";}`));
      return { queue: channel.keys.channel, runnable: ids, removed: ids[1] };
    },
    async work() {
      const ran: string[] = [];
      for (let id = await driverReserve(channel); id !== null; id = await driverReserve(channel)) {
        ran.push(id);
        await driverAcknowledge(channel, id);
      }
      return ran;
    },
    cleanUp: async () => {
      await deleteKeysUnder(queue.redis, `${channel.keys.channel}.`);
      await deleteKeysUnder(queue.redis, yii2TrashKeys(channel.keys, e2eDashboardPrefix()).prefix);
    },
  };
}

/** marko: jobs pushed, popped, completed and failed as its README describes (lib/layouts/marko/test-worker.ts). */
function markoCase(): LayoutCase {
  const prefix = MARKO_CONNECTION.prefix();
  const markoKeys = new MarkoKeys(prefix);
  const name = 'trash-run';
  const job = { className: 'App\\Jobs\\SendMail', data: { to: '<b>a@example.test</b>' } };
  return {
    title: 'marko/queue-redis',
    connection: MARKO_CONNECTION.name,
    async seed() {
      const worker = new MarkoTestWorker(queue.redis, prefix);
      const failed = await worker.push(name, job);
      expect((await worker.pop(name))?.id).toBe(failed);
      await worker.fail(name, failed, 'RuntimeException: SMTP refused\n#0 /app/src/Mailer.php(40)');
      const ids = [await worker.push(name, job), await worker.push(name, job), await worker.push(name, job)];
      return { queue: name, runnable: ids, removed: ids[1], forgotten: failed };
    },
    failedRecord: async (id) => ({
      record: (await queue.redis.hgetBuffer(markoKeys.failedJobs, id))?.toString('hex'),
      score: await queue.redis.zscore(markoKeys.failedIndex, id),
    }),
    async work() {
      const worker = new MarkoTestWorker(queue.redis, prefix);
      const ran: string[] = [];
      for (let popped = await worker.pop(name); popped; popped = await worker.pop(name)) {
        ran.push(popped.id);
        expect(await worker.complete(name, popped.id)).toBe(true);
      }
      return ran;
    },
    cleanUp: async () => {
      await deleteKeysUnder(queue.redis, prefix);
      await deleteKeysUnder(queue.redis, layoutTrashKeys(prefix, e2eDashboardPrefix()).prefix);
    },
  };
}

/** Laravel: jobs pushed and popped by the real Illuminate\Queue\RedisQueue, and one failed under Horizon, written as Horizon's failed() writes it. */
function laravelCase(): LayoutCase {
  const prefix = LARAVEL_CONNECTION.prefix();
  const horizon = new HorizonKeys(LARAVEL_CONNECTION.horizonPrefix());
  const name = 'trash-run';
  const laravel = new LaravelHarness(prefix, name);
  return {
    title: 'Laravel RedisQueue, with Horizon’s failed jobs',
    connection: LARAVEL_CONNECTION.name,
    async seed() {
      requireRealLaravel();
      await laravel.push('failing');
      await laravel.pop(600);
      const reserved = new LaravelKeys(prefix).reserved(name);
      const [payload] = await queue.redis.zrangeBuffer(reserved, 0, '0');
      await queue.redis.del(reserved);
      const [now] = await queue.redis.time();
      const failed = await horizonFails(queue.redis, horizon, payload!, { exception: 'RuntimeException: SMTP refused', at: Number(now) - 60, queue: name });
      const ids = [await laravel.push('first'), await laravel.push('<b>second</b>'), await laravel.push('third')];
      return { queue: name, runnable: ids, removed: ids[1], forgotten: failed };
    },
    failedRecord: async (id) => ({
      fields: Object.fromEntries(Object.entries(await queue.redis.hgetallBuffer(horizon.job(id))).map(([field, value]) => [field, value.toString('hex')])),
      score: await queue.redis.zscore(horizon.failedIndex, id),
      expiresAt: await queue.redis.call('EXPIRETIME', horizon.job(id)),
    }),
    work: async () => (await laravel.drain()).map((job) => job.id),
    cleanUp: async () => {
      for (const under of [prefix, horizon.prefix]) {
        await deleteKeysUnder(queue.redis, under);
        await deleteKeysUnder(queue.redis, layoutTrashKeys(under, e2eDashboardPrefix()).prefix);
      }
    },
  };
}

function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

test.describe('forget and remove, restore from the Trash page, and the layout’s worker runs the job once', () => {
  withSpecKeys((opened) => ({ queue, keys } = opened));

  for (const layout of [staticphpCase(), yii2Case(YII2_CONNECTIONS.stock), yii2Case(YII2_CONNECTIONS.ng), markoCase(), laravelCase()]) {
    test(layout.title, async ({ page }) => {
      // A worker process starting on a busy machine, or PHP run once per call.
      test.setTimeout(90_000);
      try {
        const seeded = await layout.seed();
        const failedBefore = seeded.forgotten === undefined ? undefined : await layout.failedRecord!(seeded.forgotten);
        await showConnection(page, layout.connection);
        const jobPage = (id: string) => `${jobHref(id)}?queue=${encodeURIComponent(seeded.queue)}`;

        if (seeded.removed !== undefined) {
          const id = seeded.removed;
          await page.goto(jobPage(id));
          await page.getByRole('button', { name: `Remove job… ${id} on ${seeded.queue}` }).click();
          await page
            .getByRole('dialog', { name: `Remove job ${id}?` })
            .getByRole('button', { name: `Remove job ${id}` })
            .click();
          await expect(toast(page, `Job ${id} was removed from ${seeded.queue}. Kept in the Trash.`)).toBeVisible();
        }
        if (seeded.forgotten !== undefined) {
          const id = seeded.forgotten;
          // A failed job is looked up on the connection's failed list, not in a queue's line.
          await page.goto(jobHref(id));
          await page.getByRole('button', { name: 'Forget…' }).click();
          await page
            .getByRole('dialog', { name: `Forget job ${id}?` })
            .getByRole('button', { name: `Forget job ${id}` })
            .click();
          await expect(toast(page, `Forgot job ${id}. Kept in the Trash.`)).toBeVisible();
          await expect(page).toHaveURL(new RegExp(`/failed\\?connection=${layout.connection}$`));
          expect(await layout.failedRecord!(id)).not.toEqual(failedBefore);
        }

        await page.goto(trashHref);
        const trashed = [seeded.removed, seeded.forgotten].filter((id) => id !== undefined);
        await expect(page.getByRole('table', { name: 'Trashed jobs' }).getByRole('rowheader')).toHaveText([...trashed].reverse());
        for (const id of trashed) {
          await page.getByRole('button', { name: `Restore job ${id}` }).click();
          await expect(page.getByRole('button', { name: `Restore job ${id}` })).toHaveCount(0);
        }
        await expect(page.getByText('The trash is empty')).toBeVisible();

        if (seeded.forgotten !== undefined) {
          expect(await layout.failedRecord!(seeded.forgotten)).toEqual(failedBefore);
          if (layout.retries) {
            await page.goto(jobHref(seeded.forgotten));
            await page.getByRole('button', { name: 'Retry', exact: true }).click();
            await expect(toast(page, `Retried job ${seeded.forgotten}`)).toBeVisible();
          }
        }

        const expected = [...seeded.runnable, ...(layout.retries && seeded.forgotten !== undefined ? [seeded.forgotten] : [])];
        const ran = await layout.work(seeded, expected.length);
        expect([...ran].sort()).toEqual([...expected].sort());
        // A failed job QueueLens does not retry stays on its failed list, as it was, unrun.
        if (seeded.forgotten !== undefined && !layout.retries) expect(await layout.failedRecord!(seeded.forgotten)).toEqual(failedBefore);
      } finally {
        await layout.cleanUp();
      }
    });
  }
});
