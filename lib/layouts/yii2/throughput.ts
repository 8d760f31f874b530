import { oneCounterSample, type QueueSample, type ThroughputSample } from '../../shapes/throughput';
import type { RedisConnection } from '../../redis/connection';
import type { LayoutCounts, ThroughputSource } from '../adapter';
import type { Yii2ChannelCounts, Yii2Driver } from './layout';

/** Why yii2's samples hold no failures and no wait, in the words a page shows. */
export const YII2_UNSAMPLED = {
  failed: 'yii2-queue keeps no failed jobs: a job that used its attempts is deleted and counts as done, so no failed figure is sampled',
  wait: 'yii2-queue stores no time a job joined its line, so the wait of the oldest job is not known',
} as const;

/**
 * A channel's counter: `message_id` went up by one per push, and the jobs
 * still indexed (waiting, delayed, reserved) are what it holds, so pushed
 * is `message_id`'s advance and processed is the advance of the driver's own
 * "done" (message_id − waiting − delayed − reserved, its StatisticsProvider's
 * arithmetic). A clear() deletes message_id; the counter going back reads as
 * a reset (throughputBetween, lib/shapes/throughput.ts).
 */
function channelSample(row: Yii2ChannelCounts): QueueSample {
  const { statistics } = row;
  const indexed = statistics.waiting + statistics.delayed + statistics.reserved;
  return oneCounterSample(row, row.error === undefined ? { added: statistics.done + indexed, length: indexed } : null, null);
}

/**
 * Throughput of a connection's yii2 channels from what Redis records: each
 * sample is the channels' counts (one atomic read per channel, as the
 * overview's) and the server's clock. Stock and ng count `waiting`
 * differently, so the driver is part of the history's scope.
 */
export function yii2Throughput(
  connection: RedisConnection,
  driver: Yii2Driver,
  channels: readonly string[],
  counts: () => Promise<LayoutCounts<Yii2ChannelCounts>>,
): ThroughputSource {
  const sorted = [...channels].sort();
  return {
    historyScope: `${driver}:${sorted.join(',')}`,
    connection,
    queueNames: async () => sorted,
    // A sample counts every channel.
    coveredAmong: async (names) => names,
    async sample(): Promise<ThroughputSample> {
      const [[seconds, micros], { queues }] = await Promise.all([connection.attempt(() => connection.nodeHoldingKeys().time()), counts()]);
      const at = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      return { at, queues: queues.map(channelSample), countersAvailable: true, failedUnattributed: 0, truncated: false };
    },
    meaning: {
      pushed: 'Jobs pushed: the advance of the channel’s message_id, one per push (a clear() starts it again).',
      processed:
        'Jobs done as the driver’s StatisticsProvider counts them, message_id less waiting, delayed and reserved: succeeded, exhausted, dropped, removed and lost jobs alike.',
    },
    failedJobs: { absent: YII2_UNSAMPLED.failed },
    waitUnsampled: YII2_UNSAMPLED.wait,
  };
}
