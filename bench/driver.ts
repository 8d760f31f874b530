/**
 * The driver against BullMQ and against the round-trip floor, in one
 * process, on one local Redis, best of three runs of N jobs. Prints jobs/s
 * and ratios; asserts nothing (npm run bench).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { isLocalHost, readSettings, settingsFromEnv } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { deleteKeysUnder } from '../lib/redis/scan-keys';
import { inFlight } from '../lib/redis/in-flight';
import { describeMachine, formatCount, markdownTable } from './report';

const N = Number(process.env.BENCH_JOBS ?? 20_000);
const RUNS = 3;
const QUEUE = 'bench';

const settings = settingsFromEnv();
if (!isLocalHost(settings.hostname)) throw new Error(`The benchmark writes to Redis; it only runs against a local server, not ${settings.hostname}`);
const connection = { host: settings.hostname, port: settings.port, db: settings.database };

/** Runs `body` RUNS times (after `setup`, before `teardown`) and returns the best rate in jobs/s. */
async function bestOf(setup: () => Promise<void>, body: () => Promise<void>, teardown: () => Promise<void>): Promise<number> {
  let best = 0;
  for (let run = 0; run < RUNS; run++) {
    await setup();
    const started = process.hrtime.bigint();
    await body();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await teardown();
    best = Math.max(best, N / seconds);
  }
  return best;
}

async function main(): Promise<void> {
  const prefix = `bench:${randomBytes(4).toString('hex')}:`;
  const bullPrefix = `bench-bull-${randomBytes(4).toString('hex')}`;
  const queue = await RedisQueue.connect(readSettings({ ...settings, prefix }));
  const plain = new Redis(connection);
  const clean = async () => {
    await deleteKeysUnder(queue.redis, prefix);
    await deleteKeysUnder(queue.redis, `${bullPrefix}:`);
  };
  const nothing = async () => undefined;
  const fill = async () => {
    await clean();
    for (let start = 0; start < N; start += 5000) {
      await queue.pushMany(Array.from({ length: Math.min(5000, N - start) }, (_, n) => ({ queue: QUEUE, name: 'noop', payload: { n } })));
    }
  };
  const drain = (workers: number) => async () => {
    await inFlight(workers, workers, async (slot) => {
      for (let job = await queue.reserve([QUEUE], `bench:${slot}`, 60); job; job = await queue.reserve([QUEUE], `bench:${slot}`, 60)) {
        await queue.complete(job);
      }
    });
  };

  // The worker's loop: each complete and the next reserve in one script, one round trip a job.
  const drainSettling = (workers: number) => async () => {
    await inFlight(workers, workers, async (slot) => {
      let job = await queue.reserve([QUEUE], `bench:${slot}`, 60);
      while (job) job = (await queue.settleAndReserve(job, { outcome: 'complete' }, [QUEUE], `bench:${slot}`, 60)).next;
    });
  };

  const bull = new Queue(QUEUE, { connection, prefix: bullPrefix });
  const bullAdd = (n: number) => bull.add('noop', { n }, { removeOnComplete: true });
  const bullFill = async () => {
    await clean();
    for (let start = 0; start < N; start += 5000) {
      await bull.addBulk(Array.from({ length: Math.min(5000, N - start) }, (_, n) => ({ name: 'noop', data: { n }, opts: { removeOnComplete: true } })));
    }
  };
  const bullDrain = (concurrency: number) => async () => {
    let done = 0;
    await new Promise<void>((resolve, reject) => {
      const worker = new Worker(QUEUE, async () => undefined, { connection: { ...connection, maxRetriesPerRequest: null }, prefix: bullPrefix, concurrency });
      worker.on('completed', () => {
        if (++done === N) void worker.close().then(resolve, reject);
      });
      worker.on('error', reject);
    });
  };

  try {
    const ping = await bestOf(
      nothing,
      async () => {
        for (let n = 0; n < N; n++) await plain.ping();
      },
      nothing,
    );
    const bullOneWorker = await bestOf(bullFill, bullDrain(1), clean);
    const rows: [string, number, number | null, string][] = [
      [
        'push, sequential',
        await bestOf(
          clean,
          async () => {
            for (let n = 0; n < N; n++) await queue.push(QUEUE, 'noop', { n });
          },
          clean,
        ),
        await bestOf(
          clean,
          async () => {
            for (let n = 0; n < N; n++) await bullAdd(n);
          },
          clean,
        ),
        '≥ 80 % of PING, ≥ 2× BullMQ',
      ],
      [
        'push, 100 in flight',
        await bestOf(clean, async () => void (await inFlight(N, 100, (n) => queue.push(QUEUE, 'noop', { n }))), clean),
        await bestOf(clean, async () => void (await inFlight(N, 100, bullAdd)), clean),
        '≥ 1.15× BullMQ',
      ],
      ['reserve + complete, 1 worker', await bestOf(fill, drain(1), clean), bullOneWorker, '≥ 80 % of PING / 2'],
      ['settleAndReserve, 1 worker', await bestOf(fill, drainSettling(1), clean), bullOneWorker, '≥ 1.2× BullMQ'],
      ['settleAndReserve, 50 in flight', await bestOf(fill, drainSettling(50), clean), await bestOf(bullFill, bullDrain(50), clean), '≥ 1.0× BullMQ'],
    ];
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(', ');

    console.log(
      `\nDriver benchmark: ${formatCount(N)} jobs, best of ${RUNS}, Redis at ${settings.hostname}:${settings.port}, ${describeMachine()}, load average ${load} at the end\n`,
    );
    console.log(`Sequential PING round trips: ${formatCount(ping)}/s (the floor for one round trip per operation)\n`);
    const table = rows.map(([name, ours, theirs, target]) => {
      // Two round trips a job for reserve + complete, one for everything else.
      const floor = name === 'reserve + complete, 1 worker' ? ping / 2 : ping;
      const ratio = theirs ? (ours / theirs).toFixed(2) : '—';
      return [
        name,
        formatCount(ours),
        theirs ? formatCount(theirs) : '—',
        `${ratio}×`,
        `${Math.round((100 * ours) / floor)} %${floor === ping ? '' : ' of PING/2'}`,
        target,
      ];
    });
    console.log(markdownTable(['operation', 'QueueLens jobs/s', 'BullMQ jobs/s', 'QueueLens ÷ BullMQ', 'QueueLens ÷ PING floor', 'target'], 'lrrrrl', table));
  } finally {
    await clean();
    await bull.close();
    await queue.close();
    plain.disconnect();
  }
}

await main();
