import { testQueueFactory } from '../../queue/test-redis';
import { markoLayout, type MarkoLayoutSettings } from './layout';
import { MarkoTestWorker } from './test-worker';

/**
 * An opener of marko layouts under fresh prefixes for one test file: each
 * prefix sits under the test queue's own, which the factory deletes after
 * every test.
 */
export function testMarkoFactory() {
  const openQueue = testQueueFactory();
  return async (settings: Partial<MarkoLayoutSettings> = {}) => {
    const queue = await openQueue();
    const prefix = `${queue.keys.prefix}marko:`;
    const layout = markoLayout(queue, { prefix, retryAfter: null, queues: null, ...settings });
    return { queue, prefix, layout, redis: queue.redis, keys: layout.keys, worker: new MarkoTestWorker(queue.redis, prefix) };
  };
}

export const MAIL_JOB = { className: 'App\\Jobs\\SendMail', data: { to: 'a@example.com' } };
