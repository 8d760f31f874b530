import type { LayoutCounts } from '../adapter';
import { aboutFromCounts, PLAIN_READING, readJobsChunk } from '../find-in-jobs';
import { findStep, type FindPlan } from '../find-steps';
import type { JobFinder } from '../pages';
import type { RedisQueue } from './redis-queue';

/**
 * Find on StaticPHP: each queue's level streams (an entry is ready, or held
 * while its hash's reserved_until is set) and its delayed set, then the
 * failed set; each job read from its hash. Errors are `error` (failed) and
 * `last_error` (why the previous attempt did not stick).
 */
export function staticphpFinder(queue: RedisQueue, counts: () => Promise<LayoutCounts>): JobFinder {
  const options = {
    jobPrefix: queue.keys.job(''),
    fields: { queue: 'queue', name: 'name', payload: 'payload', errors: ['error', 'last_error'], reserved: 'reserved_until' },
    reading: PLAIN_READING,
  };
  const plan: FindPlan = {
    states: ['ready', 'delayed', 'reserved', 'failed'],
    queues: () => queue.attempt(() => queue.queueNames()),
    partsOf: async (name) => {
      const levels = await queue.attempt(() => queue.redis.zrange(queue.keys.levels(name), '0', '-1'));
      return [
        ...levels.map((level) => ({ states: ['ready', 'reserved'] as const, key: queue.keys.stream(name, level), kind: 'stream' })),
        { states: ['delayed'], key: queue.keys.delayed(name), kind: 'zset' },
      ];
    },
    sharedParts: [{ states: ['failed'], key: queue.keys.failed, kind: 'zset' }],
    about: async (query, states) => aboutFromCounts(await counts(), query, states),
    readChunk: (part, position, query, states) => readJobsChunk(queue, options, part, position, query, states),
  };
  return { states: plan.states, step: (query, cursor, taken) => findStep(plan, query, cursor, taken) };
}
