import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from './test';
import { MarkoKeys } from '@/lib/layouts/marko/keys';
import { MarkoTestWorker } from '@/lib/layouts/marko/test-worker';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { layoutTrashKeys } from '@/lib/layouts/trash';
import { yii2TrashKeys } from '@/lib/layouts/yii2/repairs';
import { driverAcknowledge, driverPush, driverReserve } from '@/lib/layouts/yii2/test-drivers';
import { settingsFromEnv } from '@/lib/redis/config';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { findInPayloads, foundStates } from './find-page';
import { showConnection } from './layout-pages';
import { SpecKeys, withSpecKeys } from './spec-keys';
import { e2eYii2Channel } from './yii2-channel';
import { MARKO_CONNECTION, YII2_CONNECTIONS, e2eDashboardPrefix, e2ePrefix } from './support';

/*
 * Issue 27's "done means": the jobs a search found, acted on in bulk from
 * the Find page while a worker of the layout runs, each job accounted for
 * once. StaticPHP: its failed matches retried while a real `queuelens work`
 * runs the queue; yii2 and marko: their live matches removed while a test
 * worker that follows the driver's pop takes and finishes jobs one by one.
 */

let queue: RedisQueue;
let keys: SpecKeys;

const JOBS = 40;
/**
 * The test worker's pause between two jobs: the removal meets it part-way
 * through the line (40 jobs take it 8 s at least). On a stock yii2 channel
 * the removal gets in only when a moving_lock the worker took expires, once
 * a second, and must ask before the worker's next reserve retakes it: a
 * longer pause gives it a wider window each time and more of them, so a
 * loaded machine's late timer does not leave the whole line to the worker.
 */
const WORKER_PAUSE_MS = 200;

/** The ids that occur more than once. */
const repeated = (ids: readonly string[]) => ids.filter((id, at) => ids.indexOf(id) !== at);

/**
 * A worker in this process: `take` reserves one job and finishes it (its id;
 * null when it got none), again and again with a pause between, until `stop`
 * is asked and `left` says no job is left (a poll can come back empty while
 * one is: the stock driver's, when a removal deleted the message of the id it
 * had just popped): the ids it ran, in order.
 */
function startWorker(take: () => Promise<string | null>, left: () => Promise<number>): { ran: string[]; stop: () => Promise<void> } {
  const ran: string[] = [];
  let stopping = false;
  const done = (async () => {
    for (;;) {
      const id = await take();
      if (id !== null) ran.push(id);
      else if (stopping && (await left()) === 0) return;
      await sleep(WORKER_PAUSE_MS);
    }
  })();
  return {
    ran,
    stop: async () => {
      stopping = true;
      await done;
    },
  };
}

/** A layout whose live matches are removed from the Find page while its worker runs. */
interface RemovalCase {
  title: string;
  connection: string;
  /** pushes JOBS jobs whose payload holds `marker`, as the driver does: their ids */
  push(marker: string): Promise<string[]>;
  /** reserves one job and finishes it as the driver's worker does: its id, null when it got none */
  take(): Promise<string | null>;
  /** how many of `ids` are still jobs of the connection */
  left(ids: readonly string[]): Promise<number>;
  /** the ids the connection's trash keeps */
  trashed(): Promise<string[]>;
  cleanUp(): Promise<void>;
}

/**
 * yii2, stock and redis-ng. A stock worker takes the moving_lock for a
 * second at every reserve that finds it free, and each removal waits the lock
 * out as the driver's own remove does: it tries again as the lock expires,
 * before the worker's next reserve takes it again.
 */
function yii2Removal(connection: (typeof YII2_CONNECTIONS)['stock' | 'ng']): RemovalCase {
  const channel = e2eYii2Channel(connection, () => queue);
  const trash = yii2TrashKeys(channel.keys, e2eDashboardPrefix());
  return {
    title: `${connection.label}: live matches removed while a worker reserves and acknowledges`,
    connection: connection.name,
    async push(marker) {
      const ids: string[] = [];
      for (let n = 0; n < JOBS; n++) ids.push(await driverPush(channel, `300;O:8:"stdClass":2:{s:1:"n";i:${n};s:5:"order";s:${marker.length}:"${marker}";}`));
      return ids;
    },
    async take() {
      const id = await driverReserve(channel);
      if (id !== null) await driverAcknowledge(channel, id);
      return id;
    },
    left: async (ids) => (await queue.redis.hmget(channel.keys.messages, ...ids)).filter((message) => message !== null).length,
    trashed: () => queue.redis.zrange(trash.index, '0', '-1'),
    cleanUp: async () => {
      await deleteKeysUnder(queue.redis, `${channel.keys.channel}.`);
      await deleteKeysUnder(queue.redis, trash.prefix);
    },
  };
}

function markoRemoval(): RemovalCase {
  const prefix = MARKO_CONNECTION.prefix();
  // Opened when the test runs: the spec's connection is not open while the cases are listed.
  let opened: MarkoTestWorker | undefined;
  const worker = () => (opened ??= new MarkoTestWorker(queue.redis, prefix));
  const name = 'find-work';
  return {
    title: 'marko/queue-redis: live matches removed while a worker pops and completes',
    connection: MARKO_CONNECTION.name,
    async push(marker) {
      const ids: string[] = [];
      for (let n = 0; n < JOBS; n++) ids.push(await worker().push(name, { className: 'App\\Jobs\\Ship', data: { order: marker, n } }));
      return ids;
    },
    async take() {
      const popped = await worker().pop(name);
      // A job removed while this worker held it is gone: marko's delete() then answers false, as the driver's does.
      if (popped !== null) await worker().complete(name, popped.id);
      return popped?.id ?? null;
    },
    left: (ids) => queue.redis.exists(...ids.map((id) => new MarkoKeys(prefix).job(id))),
    trashed: () => queue.redis.zrange(layoutTrashKeys(prefix, e2eDashboardPrefix()).index, '0', '-1'),
    cleanUp: async () => {
      await deleteKeysUnder(queue.redis, prefix);
      await deleteKeysUnder(queue.redis, layoutTrashKeys(prefix, e2eDashboardPrefix()).prefix);
    },
  };
}

test.describe('Find: acting on the matches while a worker runs, each job accounted for once', () => {
  withSpecKeys((opened) => ({ queue, keys } = opened));

  test('StaticPHP QueueRedis: the failed matches retried while `queuelens work` runs the queue: each runs once', async ({ page }) => {
    test.setTimeout(90_000);
    const name = keys.queueName('find-work');
    const marker = `work-${Date.now()}`;
    const job = (n: number) => ({ queue: name, name: 'demo.record', payload: { order: marker, n } });
    const failed: string[] = [];
    await queue.pushMany(Array.from({ length: JOBS / 2 }, (_, n) => job(n)));
    for (let n = 0; n < JOBS / 2; n++) {
      const reserved = (await queue.reserve([name], 'e2e:find-work', 300))!;
      await queue.fail(reserved, 'upstream answered 503');
      failed.push(String(reserved.id));
    }
    const live = (await queue.pushMany(Array.from({ length: JOBS / 2 }, (_, n) => job(JOBS / 2 + n)))).map(String);

    const { hostname, port } = settingsFromEnv();
    const worker = spawn(
      process.execPath,
      ['bin/queuelens.js', 'work', name, '--timeout', '30', '--redis-url', `redis://${hostname}:${port}`, '--prefix', e2ePrefix()],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    let ran: string[] = [];
    try {
      await findInPayloads(page, marker);
      await foundStates(page);
      await page.getByRole('button', { name: `Retry ${JOBS / 2} failed…` }).click();
      await page
        .getByRole('dialog', { name: `Retry ${JOBS / 2} jobs found?` })
        .getByRole('button', { name: `Retry ${JOBS / 2} jobs` })
        .click();
      await expect(page.getByRole('status').filter({ hasText: `Retried ${JOBS / 2} jobs` })).toBeVisible();
      // Until every job has run and nothing is left in the queue (a job run twice would show as a second line).
      await expect
        .poll(async () => [await queue.redis.llen(queue.keys.demoRuns), (await queue.countsOf([name]))[0]?.total], { timeout: 30_000 })
        .toEqual([JOBS, 0]);
      ran = (await queue.redis.lrange(queue.keys.demoRuns, '0', '-1')).map((line) => line.split(' ')[0]!);
    } finally {
      worker.kill('SIGTERM');
      await exited;
      // The demo handler's record is shared: a later spec counts its own runs there.
      await queue.redis.del(queue.keys.demoRuns);
    }
    expect(repeated(ran)).toEqual([]);
    expect([...ran].sort()).toEqual([...failed, ...live].sort());
    expect(await queue.redis.zmscore(queue.keys.failed, ...failed)).toEqual(failed.map(() => null));
  });

  for (const layout of [yii2Removal(YII2_CONNECTIONS.stock), yii2Removal(YII2_CONNECTIONS.ng), markoRemoval()]) {
    test(layout.title, async ({ page }) => {
      try {
        const marker = `work-${Date.now()}`;
        const pushed = await layout.push(marker);
        await showConnection(page, layout.connection);
        await findInPayloads(page, marker);
        expect(Object.keys(await foundStates(page)).sort()).toEqual([...pushed].sort());

        // The worker starts as the operator confirms: it takes jobs from the head of the line while the removal goes through them.
        await page.getByRole('button', { name: `Remove ${JOBS} live…` }).click();
        const worker = startWorker(
          () => layout.take(),
          () => layout.left(pushed),
        );
        await page
          .getByRole('dialog', { name: `Remove ${JOBS} jobs found?` })
          .getByRole('button', { name: `Remove ${JOBS} jobs` })
          .click();
        const outcome = page.getByRole('status').filter({ hasText: /^Removed \d+ jobs?/ });
        await expect(outcome).toBeVisible();
        await worker.stop();

        const removed = Number(/^Removed (\d+)/.exec((await outcome.textContent()) ?? '')?.[1]);
        const trashed = (await layout.trashed()).filter((id) => pushed.includes(id));
        expect(trashed).toHaveLength(removed);
        // Both took part: the worker ran the jobs at the head of the line, the removal took the rest.
        expect(worker.ran.length).toBeGreaterThan(0);
        expect(removed).toBeGreaterThan(0);
        expect(repeated(worker.ran)).toEqual([]);
        expect(new Set([...worker.ran, ...trashed])).toEqual(new Set(pushed));
        // A job the worker held when the removal reached it is removed and still run (removing a reservation does not stop its
        // worker, and its acknowledgement then changes nothing): at most the one or two the worker held meanwhile.
        expect(worker.ran.filter((id) => trashed.includes(id)).length).toBeLessThanOrEqual(2);
      } finally {
        await layout.cleanUp();
      }
    });
  }
});
