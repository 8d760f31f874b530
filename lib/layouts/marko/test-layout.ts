import { testQueueFactory } from '../staticphp/test-redis';
import { isAbsent } from '../adapter';
import { markoLayout, type MarkoLayoutSettings } from './layout';
import { readMarkoDelayedTimeline, readMarkoJob, readMarkoReservations, readReadyJobs } from './reads';
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
    const { keys } = layout;
    // reads.ts's readers over this layout, as its pages (pages.ts) call them.
    const reads = {
      readyJobs: (name: string, offset: number, limit: number) => readReadyJobs(queue, keys, name, offset, limit),
      delayedTimeline: (name: string) => readMarkoDelayedTimeline(queue, keys, name),
      reservations: (name: string, offset: number, limit: number) => readMarkoReservations(queue, keys, name, layout.settings.retryAfter, offset, limit),
      job: (id: string) => readMarkoJob(queue, keys, id),
    };
    return { queue, prefix, layout, reads, redis: queue.redis, keys, worker: new MarkoTestWorker(queue.redis, prefix) };
  };
}

export const MAIL_JOB = { className: 'App\\Jobs\\SendMail', data: { to: 'a@example.com' } };

/** A capability the test expects the layout to have; its absence fails the test with the layout's sentence. */
export function present<T extends object>(capability: T | { absent: string }): T {
  if (isAbsent(capability)) throw new Error(`absent: ${capability.absent}`);
  return capability;
}
