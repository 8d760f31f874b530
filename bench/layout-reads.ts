/**
 * Issue 26, point 3: yii2 channels and marko queues at the counts the
 * StaticPHP overview is measured at (bench/many-queues.ts). On a
 * redis-server of its own at real-time priority (so that SLOWLOG
 * measures the calls, not the moments the server waited for a CPU),
 * BENCH_QUEUES marko queues and as many yii2 channels (10,000 by default),
 * each with 8 waiting and 2 delayed jobs; then, READS times for each
 * layout, the read the overview's tick makes of every queue (its layout's
 * attention read, or its counts where it judges no marks), in this process:
 * Redis' commands and main-thread CPU for it, its wall time, and the calls
 * over 1 ms. Run by another user than root, redis-server keeps its normal
 * priority, and says so. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { DEFAULT_MARKS } from '../lib/dashboard/marks';
import { isAbsent, type QueueLayout } from '../lib/layouts/adapter';
import { openLayout } from '../lib/layouts/open-layout';
import type { LayoutSettings } from '../lib/layouts/settings';
import { readSettings } from '../lib/redis/config';
import { slowCommandsDuring } from './measure';
import { startPrivateRedis } from './private-redis';
import { atExit } from './processes';
import { describeMachine, formatCount, markdownTable } from './report';
import { tenantNames } from './tenant-queues';

const READS = 3;
const SLOW_MICROS = 1_000;
const SEED_BATCH = 500;
const MARKO_PREFIX = 'bench-marko:';

const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Each name a marko queue and a yii2 channel of 8 waiting and 2 delayed jobs (an hour away). */
async function seed(redis: Redis, names: readonly string[]): Promise<void> {
  const dueAt = Math.floor(Date.now() / 1000) + 3600;
  for (let start = 0; start < names.length; start += SEED_BATCH) {
    const pipeline = redis.pipeline();
    for (const name of names.slice(start, start + SEED_BATCH)) {
      pipeline.rpush(`${MARKO_PREFIX}queues:${name}`, ...Array.from({ length: 8 }, (_, n) => `${name}-${n}`));
      pipeline.zadd(`${MARKO_PREFIX}queues:${name}:delayed`, dueAt, `${name}-8`, dueAt, `${name}-9`);
      for (let id = 1; id <= 10; id++) pipeline.hset(`${name}.messages`, String(id), '300;O:8:"stdClass":0:{}');
      pipeline.rpush(`${name}.waiting`, ...Array.from({ length: 8 }, (_, n) => String(n + 1)));
      pipeline.zadd(`${name}.delayed`, dueAt, '9', dueAt, '10');
      pipeline.set(`${name}.message_id`, '10');
    }
    await pipeline.exec();
  }
}

/** The overview tick's read of every queue of `layout`. */
function readEveryQueue(layout: QueueLayout): Promise<{ queues: readonly unknown[] }> {
  return isAbsent(layout.attention) ? layout.counts({ everyQueue: true }) : layout.attention.read({ everyQueue: true }, DEFAULT_MARKS);
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_QUEUES ?? 10_000);
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-layout-reads-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  console.log(`\nLayout reads: ${formatCount(count)} marko queues and yii2 channels, ${describeMachine()}; load ${loads()}`);
  // chrt --fifo needs root.
  const realtime = process.getuid?.() === 0;
  const redis = await startPrivateRedis(workDir, { realtime });
  const admin = redis.connect(0, { connectionName: 'bench-admin' });
  try {
    const names = tenantNames(count);
    await seed(admin, names);
    const layouts: [string, LayoutSettings][] = [
      ['marko', { layout: 'marko', prefix: MARKO_PREFIX, retryAfter: null, queues: null }],
      ['yii2', { layout: 'yii2', channels: names }],
    ];
    const rows: string[][] = [];
    for (const [label, settings] of layouts) {
      const layout = await openLayout(readSettings({ hostname: '127.0.0.1', port: redis.port, database: 0, prefix: 'unused:', group: 'unused' }), settings);
      try {
        for (let read = 0; read < READS; read++) {
          let queues = 0;
          const phase = await slowCommandsDuring({ admin, pid: redis.pid }, SLOW_MICROS, async () => {
            queues = (await readEveryQueue(layout)).queues.length;
          });
          const longest = Math.max(0, ...phase.entries.map((entry) => entry.micros));
          rows.push([
            label,
            formatCount(queues),
            formatCount(phase.work.calls),
            (phase.work.cpuMicros / 1000).toFixed(0),
            (phase.seconds * 1000).toFixed(0),
            `${phase.entries.length} (longest ${(longest / 1000).toFixed(1)} ms)`,
            loads(),
          ]);
        }
      } finally {
        await layout.connection.close();
      }
    }
    console.log(`\n## The overview's read of every queue, marko and yii2, at ${formatCount(count)} queues\n`);
    console.log(
      `${describeMachine()}; redis-server at ${realtime ? 'real-time' : 'normal'} priority; ${READS} reads a layout, one after another, in this process.\n`,
    );
    console.log(
      markdownTable(['layout', 'queues', 'Redis commands', 'Redis CPU ms', 'wall ms', `calls over ${SLOW_MICROS / 1000} ms`, 'load'], 'lrrrrrl', rows),
    );
  } finally {
    await admin.quit();
    await redis.stop();
  }
}

await main();
