import type { RedisSettings } from '../redis/config';
import { RedisConnection, type ConnectOptions } from '../redis/connection';
import { RedisQueue } from './staticphp/redis-queue';
import type { QueueLayout } from './adapter';
import { laravelLayout } from './laravel/layout';
import { markoLayout } from './marko/layout';
import type { LayoutSettings } from './settings';
import { staticphpLayout } from './staticphp/layout';
import { yii2Layout } from './yii2/layout';

/** The queues `connection` holds, read as `layout` says; closing the layout closes the connection. */
export function layoutOver(connection: RedisConnection, layout: LayoutSettings): QueueLayout {
  switch (layout.layout) {
    case 'staticphp':
      return staticphpLayout(RedisQueue.over(connection));
    case 'yii2':
    case 'yii2-ng':
      return yii2Layout(connection, layout);
    case 'marko':
      return markoLayout(connection, layout);
    case 'laravel':
      return laravelLayout(connection, layout);
  }
}

/** Connects to `redis` and reads it as `layout` says; throws QueueError when the server cannot be reached. */
export async function openLayout(redis: RedisSettings, layout: LayoutSettings, options?: ConnectOptions): Promise<QueueLayout> {
  return layoutOver(await RedisConnection.connect(redis, options), layout);
}
