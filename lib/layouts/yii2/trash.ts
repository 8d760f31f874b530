import type { RedisConnection } from '../../redis/connection';
import type { RestoredJob, TrashSettings } from '../../shapes/trash';
import type { TrashBin } from '../adapter';
import { keptBytesColumns, readTrashPage, type TrashedJobColumns, type TrashShelf } from '../trash';
import { ROW_HEAD_BYTES } from './line';
import { summarizeMessage } from './message';
import { restoreYii2Jobs, yii2TrashKeys, type Yii2Channel } from './repairs';

/** A removed yii2 job is kept as a hash of one field, its id, holding the message: a row reads its first bytes, as a queue's rows do, for its class. */
function trashedMessageColumns(connection: RedisConnection): TrashedJobColumns {
  return keptBytesColumns(connection, ROW_HEAD_BYTES, (head, length) => summarizeMessage(head, length, true).className ?? '');
}

/**
 * yii2's trash: the jobs its remove kept, one trash per channel (each in its
 * channel's hash slot, as the remove script writes it in the same call).
 * Ids are per channel, so with several channels a job is listed, and
 * restored, as `<channel>:<id>` (an id is digits, so the last colon splits
 * them); with one channel as its id.
 */
export function yii2Trash(connection: RedisConnection, channels: readonly Yii2Channel[]): TrashBin {
  const qualified = channels.length > 1;
  const listedId = (channel: string, id: string) => (qualified ? `${channel}:${id}` : id);
  const shelves = (settings: TrashSettings): TrashShelf[] =>
    channels.map((channel) => ({
      keys: yii2TrashKeys(channel.keys, settings.dashboardPrefix),
      columns: trashedMessageColumns(connection),
      listedId: (id) => listedId(channel.keys.channel, id),
    }));
  const channelAndId = (listed: string) => {
    if (!qualified) return { channel: channels[0]!, id: listed };
    const split = listed.lastIndexOf(':');
    const name = listed.slice(0, Math.max(split, 0));
    return { channel: channels.find((channel) => channel.keys.channel === name), id: listed.slice(split + 1) };
  };
  return {
    list: (settings, offset, limit, filter) => readTrashPage(connection, shelves(settings), settings, offset, limit, filter),
    async restore(settings, listed) {
      const outcomes = new Map<string, RestoredJob>();
      for (const channel of channels) {
        const mine = listed.filter((entry) => channelAndId(entry).channel === channel);
        if (mine.length === 0) continue;
        const restored = await restoreYii2Jobs(
          channel,
          settings,
          mine.map((entry) => channelAndId(entry).id),
        );
        restored.forEach((done, index) => outcomes.set(mine[index]!, { ...done, id: mine[index]! }));
      }
      return listed.map((id) => outcomes.get(id) ?? { id, outcome: 'gone', queue: '' });
    },
    listedId,
  };
}
