import { describe, expect, it } from 'vitest';
import { formatMetrics } from '../../dashboard/metrics';
import { throughputBetween, type ThroughputSample } from '../../shapes/throughput';
import { isAbsent, type ThroughputSource } from '../adapter';
import { absentCapabilityOf } from '../capabilities';
import { HorizonKeys } from './horizon';
import { LaravelHarness } from './php-harness';
import { horizonCountsFinished, horizonFails, horizonResetsCount, horizonSnapshots, horizonStoresSnapshot } from './test-horizon';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory({ horizon: true });
const openStock = testLaravelFactory();

async function openSampled() {
  const open = await openLaravel();
  const keys = new HorizonKeys(open.horizonPrefix!);
  const source = present(open.layout.throughput);
  let previous: ThroughputSample | undefined;
  /** One sample, as the sampler takes it: what each queue did since the previous one. */
  const step = async () => {
    const sample = await source.sample(previous);
    const between = previous === undefined ? null : throughputBetween(previous, sample, { countsPushes: false });
    previous = sample;
    return { sample, between, of: (queue: string) => between?.queues.find((row) => row.queue === queue) };
  };
  /** Real Laravel jobs of `queue` run by the real pop, each counted as Horizon's listener counts a job that finished. */
  const finish = async (count: number, queue = 'default') => {
    const laravel = queue === 'default' ? open.laravel : new LaravelHarness(open.prefix, queue);
    for (let i = 0; i < count; i++) await laravel.push(`job ${i}`);
    const ran = await laravel.drain();
    for (let i = 0; i < ran.length; i++) await horizonCountsFinished(open.redis, keys, queue, 12.5);
    return ran.length;
  };
  return { ...open, keys, source, step, finish };
}

describe('Laravel throughput from Horizon’s metrics', () => {
  it('counts every finished job once across Horizon’s snapshots, however many fall between two samples', async () => {
    const { redis, keys, step, finish } = await openSampled();
    expect(await finish(2)).toBe(2);
    // The first sample counts from where Horizon's count stands.
    expect((await step()).between).toBeNull();
    await finish(3);
    expect((await step()).of('default')).toMatchObject({ processed: 3, pushed: null });

    await finish(2);
    await horizonSnapshots(redis, keys, 'default', 1_800_000_000);
    await finish(4);
    expect((await step()).of('default')).toMatchObject({ processed: 6 });

    await finish(2);
    await horizonSnapshots(redis, keys, 'default', 1_800_000_060);
    await finish(1);
    await horizonSnapshots(redis, keys, 'default', 1_800_000_120);
    // A snapshot of no jobs: Horizon's HMGET found no hash and it stored false.
    await horizonSnapshots(redis, keys, 'default', 1_800_000_180);
    expect((await step()).of('default')).toMatchObject({ processed: 3 });
    expect((await step()).of('default')).toMatchObject({ processed: 0 });
  });

  it('never counts back while Horizon has reset its count and not yet stored the snapshot, and counts it all once it has', async () => {
    const { redis, keys, step, finish } = await openSampled();
    await finish(1);
    await step();
    await finish(2);
    const reset = await horizonResetsCount(redis, keys, 'default');
    expect(reset.throughput).toBe('3');
    await finish(1);
    expect((await step()).of('default')).toMatchObject({ processed: 0 });
    await horizonStoresSnapshot(redis, keys, 'default', reset, 1_800_000_000);
    expect((await step()).of('default')).toMatchObject({ processed: 3 });
  });

  it('counts the failures Horizon recorded between two samples per queue, and no pushes', async () => {
    const { redis, keys, layout, laravel, step, finish, source } = await openSampled();
    await finish(1);
    await step();
    const id = await laravel.push('to fail');
    expect(await laravel.pop(60)).toMatchObject({ id, attempts: 1 });
    const [payload] = await redis.zrangeBuffer(layout.keys.reserved('default'), 0, '0');
    await redis.del(layout.keys.reserved('default'));
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) + Number(micros) / 1e6;
    await horizonFails(redis, keys, payload!, { exception: 'RuntimeException: no', at: now });
    await horizonFails(redis, keys, Buffer.from(JSON.stringify({ uuid: 'of-another-queue', displayName: 'Other' })), {
      exception: 'RuntimeException: elsewhere',
      at: now,
      queue: 'reports',
    });
    // Horizon's microtime is the PHP host's clock, the sample's the Redis server's: a moment later, both are before it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { of, sample } = await step();
    expect(of('default')).toMatchObject({ failed: 1, processed: 0 });
    expect(sample.failedUnattributed).toBe(1);
    expect(isAbsent(source.meaning.pushed)).toBe(true);
    expect((await step()).of('default')).toMatchObject({ failed: 0 });
  });

  it('keeps the other queues counting when one queue’s metrics key has another type, and exports no pushed counter', async () => {
    const { redis, keys, step, finish, source } = await openSampled();
    await finish(1);
    await finish(1, 'mail');
    await redis.set(keys.queueMetrics('mail'), 'not a hash');
    await step();
    await finish(2);
    const { sample, of } = await step();
    expect(of('default')).toMatchObject({ processed: 2 });
    // Its backlog is still sampled; its counter is not, rather than read as zero jobs finished.
    expect(sample.queues.find((row) => row.queue === 'mail')).toMatchObject({ pending: 0, streams: [] });
    const text = formatMetrics({ connection: 'shop', sample, failures: null, meaning: source.meaning, waitSampled: false, alerts: new Map(), marks: null });
    expect(text).toContain('queuelens_queue_processed_total{connection="shop",queue="default"}');
    expect(text).not.toContain('queuelens_queue_pushed_total');
  });

  it('is absent without Horizon, saying where the figures would come from', async () => {
    const { layout } = await openStock();
    const throughput: ThroughputSource | { absent: string } = layout.throughput;
    expect(isAbsent(throughput) && throughput.absent).toMatch(/Stock Laravel records no finished jobs.*horizonPrefix/);
    expect(absentCapabilityOf({ layout: 'laravel', prefix: 'x', queues: null, horizonPrefix: null }, 'throughput')).toMatch(/horizonPrefix/);
    expect(absentCapabilityOf({ layout: 'laravel', prefix: 'x', queues: null, horizonPrefix: 'h:' }, 'throughput')).toBeNull();
  });
});
