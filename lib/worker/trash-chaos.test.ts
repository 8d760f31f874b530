import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { readSettings } from '../redis/config';
import { RedisQueue } from '../layouts/staticphp/redis-queue';
import { readTrashPage, restoreFromTrash } from '../layouts/staticphp/trash';
import { sleep, waitFor } from '../layouts/staticphp/test-redis';
import { privateServers } from '../redis/test-servers';
import type { TrashWrite } from '../shapes/trash';
import { childProcesses, pushAsPhpWould, startWorker, stopChild, type WorkerProcess } from './test-fleet';

/**
 * Issue 28's chaos test: 5,000 jobs that fail at once (demo.fail, one
 * attempt), run by 3 `queuelens work` processes of which one is SIGKILLed
 * and replaced every second, while the test forgets every failed job into
 * the trash and restores the whole trash again, round after round. Once the
 * workers are gone, one last forget-all and restore-all. Every job must be
 * in exactly one place at each end: the trash alone after the forget, the
 * failed set alone after the restore, its hash whole.
 */
const JOBS = 5_000;
const WORKERS = 3;
const SLOTS = 4;
const TIMEOUT_SECONDS = 2;
const KILL_EVERY_MS = 1_000;
const DRAIN_MS = 120_000;
const QUEUE = 'trash-chaos';

const servers = privateServers();
const processes = childProcesses();

afterAll(() => processes.stopAll());

/** Forgets every failed job into the trash, a bounded step at a time; how many. */
async function forgetAll(queue: RedisQueue, trash: TrashWrite): Promise<number> {
  let forgotten = 0;
  for (;;) {
    const step = await queue.forgetOldestFailed(null, trash);
    forgotten += step.forgotten;
    if (step.remaining === 0 || step.forgotten === 0) return forgotten;
  }
}

/** Restores the whole trash, a page at a time as the Trash page's Restore all would; the refusals. */
async function restoreAll(queue: RedisQueue, trash: TrashWrite): Promise<string[]> {
  const refused: string[] = [];
  for (;;) {
    const page = await readTrashPage(queue, trash, refused.length, 200);
    if (page.rows.length === 0) return refused;
    const outcomes = await restoreFromTrash(
      queue,
      trash,
      page.rows.map((row) => row.id),
    );
    refused.push(...outcomes.filter(({ outcome }) => outcome !== 'restored').map(({ id, outcome }) => `${id} ${outcome}`));
  }
}

/** Where each job is: its hash under the driver's keys or in the trash (or both, or neither), and whether the failed set or the trash's index lists it. */
async function whereabouts(queue: RedisQueue, trash: TrashWrite) {
  const keys = queue.trashKeys(trash.dashboardPrefix);
  const reads = queue.redis.pipeline();
  for (let id = 1; id <= JOBS; id++) {
    reads
      .exists(queue.keys.job(id))
      .zscore(queue.keys.failed, String(id))
      .exists(keys.job(String(id)))
      .zscore(keys.index, String(id))
      .hget(queue.keys.job(id), 'attempts');
  }
  const replies = ((await reads.exec()) ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  });
  const places = new Map<string, number[]>();
  for (let id = 1; id <= JOBS; id++) {
    const [hash, failed, kept, listed, attempts] = replies.slice((id - 1) * 5, id * 5);
    const place =
      `${hash ? 'hash' : '-'} ${failed !== null ? 'failed' : '-'} ${kept ? 'kept' : '-'} ${listed !== null ? 'listed' : '-'} ${hash ? `attempts ${String(attempts)}` : ''}`.trim();
    places.set(place, [...(places.get(place) ?? []), id]);
  }
  return Object.fromEntries([...places].map(([place, ids]) => [place, ids.length]));
}

describe('forget-all and restore-all of 5,000 failed jobs while queuelens work processes run and are SIGKILLed', () => {
  it(
    'leaves every job in exactly one place, whole, at the end of each',
    async () => {
      const server = await servers.redis();
      const redisUrl = `redis://127.0.0.1:${server.port}`;
      const queue = await RedisQueue.connect(readSettings({ port: server.port, prefix: `trash-chaos:${randomUUID()}:` }));
      const trash: TrashWrite = {
        dashboardPrefix: `${queue.keys.prefix}ql:`,
        keepSeconds: 3600,
        maxEntries: JOBS,
        maxBytes: 1 << 30,
        who: 'chaos',
        via: 'cli',
      };
      const startedAt = Date.now();
      const loadBefore = loadavg()[0]!;
      const workers: WorkerProcess[] = [];
      const start = () =>
        workers.push(startWorker(processes, { redisUrl, prefix: queue.keys.prefix, queue: QUEUE, slots: SLOTS, timeoutSeconds: TIMEOUT_SECONDS }));
      let rounds = 0;
      let refusedMeanwhile = 0;
      try {
        await pushAsPhpWould(queue, QUEUE, JOBS, (id) => ({ name: 'demo.fail', payload: { error: `job ${id} fails` }, maxAttempts: 1 }));
        for (let n = 0; n < WORKERS; n++) start();
        await waitFor(async () => ((await queue.failedCount()) > 0 ? true : undefined), 60_000);

        // While the workers fail jobs (and one is killed a second): forget all, restore all, again.
        const drainUntil = Date.now() + DRAIN_MS;
        let lastKill = Date.now();
        for (;;) {
          await forgetAll(queue, trash);
          refusedMeanwhile += (await restoreAll(queue, trash)).length;
          rounds += 1;
          if (Date.now() - lastKill >= KILL_EVERY_MS) {
            const victim = workers.find((worker) => !worker.killed && worker.working) ?? workers.find((worker) => !worker.killed)!;
            victim.killed = true;
            await stopChild(victim.child);
            start();
            lastKill = Date.now();
          }
          // A killed worker's claims run out after the timeout and fail on their next reservation: drained when every job has failed.
          if ((await queue.failedCount()) === JOBS || Date.now() > drainUntil) break;
          await sleep(50);
        }
        await Promise.all(workers.map((worker) => stopChild(worker.child)));
        expect(await queue.failedCount(), `failed jobs once the workers were stopped, ${DRAIN_MS / 1000} s at most`).toBe(JOBS);

        expect(await forgetAll(queue, trash)).toBe(JOBS);
        const forgotten = await whereabouts(queue, trash);
        expect(await restoreAll(queue, trash)).toEqual([]);
        const restored = await whereabouts(queue, trash);
        console.log(
          `trash chaos: ${rounds} rounds of forget-all and restore-all (${refusedMeanwhile} refusals meanwhile), ${workers.filter((worker) => worker.killed).length} kills, ` +
            `restored: ${JSON.stringify(restored)}, ${((Date.now() - startedAt) / 1000).toFixed(1)} s, load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
        );
        expect(refusedMeanwhile).toBe(0);
        expect(forgotten).toEqual({ '- - kept listed': JOBS });
        // One attempt each, and one more for each killed worker whose claim on it ran out before the next reservation failed it
        // (a job two killed workers held in turn has three): never more than the kills explain.
        const kills = workers.filter((worker) => worker.killed).length;
        const attempts = Object.entries(restored).filter(([place]) => {
          const counted = /^hash failed - - attempts (\d+)$/.exec(place);
          return counted === null || Number(counted[1]) < 1 || Number(counted[1]) > 1 + kills;
        });
        expect(attempts).toEqual([]);
        expect(Object.values(restored).reduce((sum, count) => sum + count, 0)).toBe(JOBS);
      } finally {
        await Promise.all(workers.map((worker) => stopChild(worker.child)));
        await queue.close();
        await server.kill();
      }
    },
    DRAIN_MS + 120_000,
  );
});
