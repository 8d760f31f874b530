import { describe, expect, it } from 'vitest';
import { formatMetrics } from '../../dashboard/metrics';
import { NO_ALERTS } from '../../dashboard/alerts';
import { readHistory, ThroughputSampler } from '../../dashboard/history';
import { dashboardKeys, throughputKeys } from '../../dashboard/keys';
import { throughputBetween } from '../../shapes/throughput';
import { isAbsent, type ThroughputSource } from '../adapter';
import { DEFAULT_YII2_NG_SETTINGS } from '../settings';
import { yii2Layout, type Yii2Driver } from './layout';
import { testChannelFactory } from './test-channel';
import { driverAcknowledge, driverPush, driverReserve } from './test-drivers';
import { yii2Settings } from './test-fixtures';
import { readYii2Messages } from './test-messages';

const openChannel = testChannelFactory();
const [message] = readYii2Messages('stock').values();

async function openSampled(driver: Yii2Driver) {
  const opened = await openChannel();
  const layout = yii2Layout(opened.queue, yii2Settings(driver, [opened.channel]));
  const source = layout.throughput;
  if (isAbsent(source)) throw new Error(`the ${driver} layout has no throughput: ${source.absent}`);
  // Under the queue's random prefix, so the factory's cleanup deletes the history too.
  const keys = throughputKeys(dashboardKeys(`${opened.queue.keys.prefix}ql:`), source.historyScope);
  const channel = { connection: opened.queue, driver, keys: opened.keys, ng: DEFAULT_YII2_NG_SETTINGS };
  return { ...opened, source: source as ThroughputSource, keys, channel };
}

function metricValue(text: string, name: string, channel: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name}{`) && row.includes(`queue="${channel}"`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('yii2 throughput, from message_id and the driver’s done', () => {
  for (const driver of ['yii2', 'yii2-ng'] as const) {
    it(`${driver}: the sampler records the jobs the driver pushed and finished between two samples, and no failures`, async () => {
      const { source, keys, channel, cleanup, queue } = await openSampled(driver);
      try {
        for (let i = 0; i < 3; i++) await driverPush(channel, message!);
        const sampler = new ThroughputSampler(source, keys, { lockMs: 5_000 });
        expect(await sampler.tick()).toBe('first-sample');

        await driverPush(channel, message!);
        await driverPush(channel, message!);
        const reserved = [await driverReserve(channel), await driverReserve(channel), await driverReserve(channel)];
        await driverAcknowledge(channel, reserved[0]!);
        await driverAcknowledge(channel, reserved[1]!);
        expect(await sampler.tick()).toBe('recorded');

        const [point] = await readHistory(queue.redis, keys, channel.keys.channel, '15m');
        expect(point).toMatchObject({ pushed: 2, processed: 2, failed: 0, pending: 2, delayed: 0, reserved: 1, waitSeconds: null });
        const [total] = await readHistory(queue.redis, keys, null, '15m');
        expect(total).toMatchObject({ pushed: 2, processed: 2 });
      } finally {
        await cleanup();
      }
    });
  }

  it('a clear() (message_id deleted) counts from zero again instead of going negative', async () => {
    const { source, channel, cleanup, queue } = await openSampled('yii2');
    try {
      for (let i = 0; i < 4; i++) await driverPush(channel, message!);
      const before = await source.sample();
      await queue.redis.del(channel.keys.messageId, channel.keys.messages, channel.keys.waiting);
      await driverPush(channel, message!);
      const [row] = throughputBetween(before, await source.sample()).queues;
      expect(row).toMatchObject({ pushed: 1, processed: 0, pending: 1 });
    } finally {
      await cleanup();
    }
  });

  it('/api/metrics’ text: message_id as pushed, done as processed, and neither a failed nor a wait series', async () => {
    const { source, channel, cleanup } = await openSampled('yii2-ng');
    try {
      for (let i = 0; i < 3; i++) await driverPush(channel, message!);
      await driverAcknowledge(channel, (await driverReserve(channel))!);
      const text = formatMetrics({
        connection: 'yii',
        sample: await source.sample(),
        meaning: source.meaning,
        failures: null,
        waitSampled: source.waitUnsampled === null,
        alerts: NO_ALERTS,
        marks: null,
      });
      const name = channel.keys.channel;
      expect(metricValue(text, 'queuelens_queue_pushed_total', name)).toBe(3);
      expect(metricValue(text, 'queuelens_queue_processed_total', name)).toBe(1);
      expect(metricValue(text, 'queuelens_queue_pending', name)).toBe(2);
      expect(text).toContain(`# HELP queuelens_queue_processed_total ${source.meaning.processed}`);
      expect(text).not.toMatch(/queuelens_queue_failed_total|queuelens_failed_jobs|queuelens_queue_wait_seconds|queuelens_queue_mark/);
      expect(isAbsent(source.failedJobs)).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
