import type { RedisConnection } from '@/lib/redis/connection';
import { DEFAULT_YII2_NG_SETTINGS } from '@/lib/layouts/settings';
import { Yii2Keys } from '@/lib/layouts/yii2/keys';
import type { Yii2Channel } from '@/lib/layouts/yii2/repairs';
import type { YII2_CONNECTIONS } from './support';

/** The channel of an e2e yii2 connection, on the spec's connection once it is open (`queue` is asked at each use: cases are listed before it opens). */
export function e2eYii2Channel(connection: (typeof YII2_CONNECTIONS)['stock' | 'ng'], queue: () => RedisConnection): Yii2Channel {
  return {
    get connection() {
      return queue();
    },
    driver: connection.layout,
    keys: new Yii2Keys(connection.channel()),
    ng: DEFAULT_YII2_NG_SETTINGS,
  };
}
