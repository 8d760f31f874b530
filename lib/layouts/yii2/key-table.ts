import type { RedisConnection } from '../../redis/connection';
import { keyContentsUnder, keyTableOf, readKeyRows, tableCensusStep, type CensusScope, type PlannedKey } from '../key-table';
import type { KeyTableReader, KeyType } from '../pages';
import { YII2_KEYS, YII2_STOCK_KEYS, type Yii2KeyName, type Yii2KeyRole, type Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';

const CHANNEL_KEYS = 'Channel keys';

function keysOfDriver(driver: Yii2Driver): [Yii2KeyName, Yii2KeyRole][] {
  return Object.entries(driver === 'yii2-ng' ? YII2_KEYS : YII2_STOCK_KEYS) as [Yii2KeyName, Yii2KeyRole][];
}

/**
 * The keys page of a yii2 connection: every key of each channel, as the
 * driver writes it (redis-ng adds its five to the stock seven), and a
 * census of `<channel>.*` that counts the channel's keys and lists the
 * rest. The messages are fields of one hash, so a channel has no per-job
 * keys: a stranger under the channel's name is nobody's key.
 */
export function yii2KeyTable(connection: RedisConnection, channels: readonly Yii2Keys[], driver: Yii2Driver): KeyTableReader {
  const known = keysOfDriver(driver);
  const expected = new Map<string, KeyType>(channels.flatMap((keys) => known.map(([name, { type }]) => [keys[name], type] as const)));
  const scopes: CensusScope[] = channels.map((keys) => ({
    prefix: `${keys.channel}.`,
    judge(key, type) {
      // A key of another channel of the connection (channel "a" and "a.b") is that channel's.
      const wanted = expected.get(key);
      if (wanted === undefined) return null;
      return wanted === type ? { tally: CHANNEL_KEYS } : { wrongType: true };
    },
  }));
  const names = channels.map((keys) => keys.channel).join(', ');
  return {
    async read() {
      const planned: PlannedKey[] = channels.flatMap((keys) =>
        known.map(([name, { type, holds }]) => ({
          key: keys[name],
          holds,
          queue: keys.channel,
          expectedType: type,
          ...(name === 'movingLock' ? { expires: true } : {}),
        })),
      );
      return keyTableOf({
        scope: `${channels.length === 1 ? 'channel' : 'channels'} ${names}`,
        description:
          driver === 'yii2-ng'
            ? 'Every key of the channel as yii2-queue-redis-ng keeps it: the stock driver’s seven (ng reads and repairs them too) and ng’s five. A job’s message is a field of the messages hash, so there are no per-job keys.'
            : 'Every key of the channel as the stock yii2-queue Redis driver keeps it. A job’s message is a field of the messages hash, so there are no per-job keys.',
        keys: await connection.attempt(() => readKeyRows(connection, planned)),
        cut: null,
        censusScope: channels.map((keys) => `${keys.channel}.*`).join(', '),
      });
    },
    censusStep: (cursor, ownPrefix) => tableCensusStep(connection, scopes, cursor, [CHANNEL_KEYS], undefined, ownPrefix),
    contents: (key, cursor) =>
      keyContentsUnder(
        connection,
        scopes.map(({ prefix }) => prefix),
        key,
        cursor,
      ),
  };
}
