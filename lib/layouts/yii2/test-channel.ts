import { randomUUID } from 'node:crypto';
import { deleteKeysUnder } from '../../redis/scan-keys';
import { testQueueFactory } from '../staticphp/test-redis';
import { Yii2Keys } from './keys';

/**
 * Returns an opener of yii2 channels, each with a random name of its own;
 * `cleanup` deletes only that channel's keys (the queue factory deletes
 * only its own prefix, which a channel's keys are not under).
 */
export function testChannelFactory() {
  const openQueue = testQueueFactory();
  return async () => {
    const queue = await openQueue();
    const keys = new Yii2Keys(`test-${randomUUID()}`);
    return { queue, keys, channel: keys.channel, cleanup: () => deleteKeysUnder(queue.redis, `${keys.channel}.`) };
  };
}

/** A 20 MB message as the PHP serializer would store it: `300;` and an App\Big object whose one string property is `fill` bytes. */
export function hugeMessage(fill: number): { message: Buffer; blobLength: number } {
  const blob = Buffer.alloc(20 * 1024 * 1024, fill);
  return { message: Buffer.concat([Buffer.from(`300;O:7:"App\\Big":1:{s:4:"blob";s:${blob.length}:"`), blob, Buffer.from('";}')]), blobLength: blob.length };
}
