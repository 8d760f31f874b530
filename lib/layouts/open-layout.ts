import type { RedisSettings } from '../queue/config';
import { RedisQueue } from '../queue/redis-queue';
import type { QueueLayout } from './adapter';
import { markoLayout } from './marko/layout';
import type { LayoutSettings } from './settings';
import { staticphpLayout } from './staticphp/layout';
import { yii2Layout } from './yii2/layout';

/** Connects to `redis` and reads it as `layout` says; throws QueueError when the server cannot be reached. */
export async function openLayout(redis: RedisSettings, layout: LayoutSettings): Promise<QueueLayout> {
  const connection = await RedisQueue.connect(redis);
  switch (layout.layout) {
    case 'staticphp':
      return staticphpLayout(connection);
    case 'yii2':
    case 'yii2-ng':
      return yii2Layout(connection, layout.layout, layout.channels);
    case 'marko':
      return markoLayout(connection, layout);
  }
}
