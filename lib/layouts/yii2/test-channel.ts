import { randomUUID } from 'node:crypto';
import { deleteKeysUnder } from '../../queue/scan-keys';
import { testQueueFactory } from '../../queue/test-redis';
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
