import { QueueError, refusedCommand } from '../../redis/errors';
import { settlePipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import { absentMembers, LAYOUT_TITLES, type CountsOptions, type LayoutCounts, type QueueCounts, type QueueLayout } from '../adapter';
import { DEFAULT_YII2_NG_SETTINGS, type LayoutSettings } from '../settings';
import { YII2_ABSENT } from './absent';
import { yii2LayoutDoctor } from './doctor';
import { Yii2Keys } from './keys';
import { yii2Finder } from './finder';
import { yii2KeyTable } from './key-table';
import { readCounts } from './scripts';
import { yii2Trash } from './trash';
import { yii2Throughput } from './throughput';
import { channelKeysOf, yii2DueTimeline, yii2ExpiringReservations, yii2JobLine, yii2JobSnapshot, yii2JobCopies, yii2LineRepairs } from './pages';

/** Which of the two yii2 drivers writes the channels: the stock one, or redis-ng over the same keys. */
export type Yii2Driver = 'yii2' | 'yii2-ng';

/** A yii2 connection's layout settings: its driver, its channels and (ng) its queue component's settings. */
export type Yii2Settings = Extract<LayoutSettings, { layout: Yii2Driver }>;

/**
 * A channel's figures. `statistics` is what the driver's own
 * StatisticsProvider (and `php yii queue/info`) reports; the shared columns
 * split them by the Redis server's clock the way QueueLens counts every
 * layout.
 */
export interface Yii2ChannelCounts extends QueueCounts {
  statistics: {
    /** stock: the waiting list; ng: its line plus the stock list it will take over */
    waiting: number;
    /** every delayed job, due ones not moved yet included */
    delayed: number;
    /** every reservation, expired ones not reclaimed yet included */
    reserved: number;
    /** message_id minus the three above: finished, exhausted, dropped, removed and lost jobs alike */
    done: number;
  };
  /** delayed jobs due already that no push or reserve has moved into the line yet */
  dueDelayed: number;
  /** reservations whose time ran out: the next reserve (ng: or push) puts them back in line */
  expiredReserved: number;
  /** ng only: ids in the stock waiting list that the next ng reserve takes over */
  awaitingTakeover?: number;
  /** jobs with a message: every live job, orphans included */
  messages: number;
}

function countsOf(
  channel: string,
  driver: Yii2Driver,
  { waitingList, prioritized, delayed, dueDelayed, reserved, expiredReserved, messageId, messages }: ReturnType<typeof readCounts.reply>,
): Yii2ChannelCounts {
  // The drivers' own arithmetic, even where it goes wrong (after a clear(), or with dangling ids).
  const waiting = driver === 'yii2-ng' ? prioritized + waitingList : waitingList;
  const done = Number(messageId || 0) - waiting - delayed - reserved;
  return {
    queue: channel,
    pending: waiting + dueDelayed,
    delayed: delayed - dueDelayed,
    reserved,
    total: waiting + delayed + reserved,
    statistics: { waiting, delayed, reserved, done },
    dueDelayed,
    expiredReserved,
    ...(driver === 'yii2-ng' ? { awaitingTakeover: waitingList } : {}),
    messages,
  };
}

function unreadable(channel: string): Yii2ChannelCounts {
  const statistics = { waiting: 0, delayed: 0, reserved: 0, done: 0 };
  return { queue: channel, pending: 0, delayed: 0, reserved: 0, total: 0, statistics, dueDelayed: 0, expiredReserved: 0, messages: 0 };
}

/**
 * Channels of yii2-queue's stock Redis driver or of redis-ng, read over
 * `connection` (a RedisConnection only for its connection handling: its timeouts,
 * cluster and TLS support and error messages; its prefix is not used).
 * `ng` is redis-ng's settings (where its repairs place a job), unused by stock.
 */
export function yii2Layout(
  connection: RedisConnection,
  settings: Yii2Settings,
): QueueLayout & {
  counts(options?: CountsOptions): Promise<LayoutCounts<Yii2ChannelCounts>>;
} {
  const { layout: driver, channels } = settings;
  const keysOf = channels.map((channel) => new Yii2Keys(channel));
  const channelKeys = channelKeysOf(keysOf);
  const ng = settings.layout === 'yii2-ng' ? settings.ng : null;
  // The stock driver ignores ng's settings; its repairs take the defaults only to fill the scripts' arguments.
  const placing = ng ?? DEFAULT_YII2_NG_SETTINGS;
  const repairable = keysOf.map((keys) => ({ connection, driver, keys, ng: placing }));
  const counts = ({ only }: CountsOptions = {}): Promise<LayoutCounts<Yii2ChannelCounts>> =>
    connection.attempt(async () => {
      const wanted = only === undefined ? null : new Set(only);
      const read = wanted === null ? keysOf : keysOf.filter((keys) => wanted.has(keys.channel));
      const pipeline = connection.redis.pipeline();
      for (const keys of read) readCounts.queue(pipeline, keys.byName);
      const replies = await settlePipeline(pipeline);
      // A channel whose keys cannot be read (a key of the wrong type) gets zeros and an error, and does not stop the others.
      const queues = replies.map((reply, i) => {
        const channel = read[i]!.channel;
        try {
          if (reply instanceof Error) throw reply;
          return countsOf(channel, driver, readCounts.reply(reply));
        } catch (error) {
          return {
            ...unreadable(channel),
            error: error instanceof QueueError ? error.message : refusedCommand(error instanceof Error ? error.message : String(error)),
          };
        }
      });
      return { queues, failed: null };
    });
  return {
    name: driver,
    description: `${LAYOUT_TITLES[driver]}, channel${channels.length === 1 ? '' : 's'} ${channels.join(', ')}`,
    connection,
    counts,
    ...absentMembers(YII2_ABSENT),
    throughput: yii2Throughput(connection, driver, channels, counts),
    doctor: yii2LayoutDoctor(repairable),
    trash: yii2Trash(connection, repairable),
    jobLine: yii2JobLine(connection, channelKeys, driver, ng),
    expiringReservations: yii2ExpiringReservations(connection, channels, channelKeys, driver, ng),
    dueTimeline: yii2DueTimeline(connection, channelKeys, driver, ng),
    jobSnapshot: yii2JobSnapshot(connection, channels, channelKeys, driver, ng),
    lineRepairs: yii2LineRepairs(connection, channelKeys, driver, placing),
    jobCopies: yii2JobCopies(connection, channelKeys, driver, placing),
    keyTable: yii2KeyTable(connection, keysOf, driver),
    finder: yii2Finder(connection, keysOf, counts),
    close: () => connection.close(),
  };
}
