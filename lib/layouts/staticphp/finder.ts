import { settlePipeline } from '../../redis/pipeline';
import type { LayoutCounts } from '../adapter';
import { jobsPartsTogether, PLAIN_READING, readJobsChunk, stillMatchingJobs } from '../find-in-jobs';
import { findStep, type FindPart, type FindPlan } from '../find-steps';
import type { JobFinder } from '../pages';
import type { RedisQueue } from './redis-queue';

/** A held job is still its stream entry, whose id is the ms Redis added it: a push, or a promotion, release or requeue into the line. */
const IN_LINE = 'when it joined the line';

/**
 * Find on StaticPHP: each queue's level streams (an entry is ready, or held
 * while its hash's reserved_until is set) and its delayed set, then the
 * failed set; each job read from its hash. Errors are `error` (failed) and
 * `last_error` (why the previous attempt did not stick). Every state records
 * a time: a stream entry's id, the delayed set's score (the second it is
 * due), the failed set's (the second it failed).
 */
export function staticphpFinder(queue: RedisQueue, counts: () => Promise<LayoutCounts>): JobFinder {
  const options = {
    jobPrefix: queue.keys.job(''),
    fields: { queue: 'queue', name: 'name', payload: 'payload', errors: ['error', 'last_error'], reserved: 'reserved_until' },
    reading: PLAIN_READING,
  };
  const levelsOf = (name: string) => queue.attempt(() => queue.redis.zrange(queue.keys.levels(name), '0', '-1'));
  // Several queues' levels in one round trip; a queue whose levels cannot be read is left out, read alone when the walk comes to it.
  const levelsAhead = async (names: readonly string[]) => {
    const pipeline = queue.redis.pipeline();
    for (const name of names) pipeline.zrange(queue.keys.levels(name), '0', '-1');
    const replies = await queue.attempt(() => settlePipeline(pipeline));
    return new Map(names.flatMap((name, index) => (Array.isArray(replies[index]) ? [[name, replies[index] as string[]] as const] : [])));
  };
  const partsOf = (name: string, levels: readonly string[]): FindPart[] => [
    ...levels.map((level) => ({ states: ['ready', 'reserved'] as const, key: queue.keys.stream(name, level), kind: 'stream', timeScale: 1 })),
    { states: ['delayed'], key: queue.keys.delayed(name), kind: 'zset', timeScale: 1000 },
  ];
  const plan: FindPlan = {
    states: ['ready', 'delayed', 'reserved', 'failed'],
    times: { ready: IN_LINE, reserved: IN_LINE, delayed: 'when it is due', failed: 'when it failed' },
    queues: () => queue.attempt(() => queue.queueNames()),
    partsOf: async (name) => partsOf(name, await levelsOf(name)),
    // A queue's levels are asked once, when the walk comes to it, not with each step.
    remembered: { read: levelsOf, readAhead: levelsAhead, partsOf },
    sharedParts: [{ states: ['failed'], key: queue.keys.failed, kind: 'zset', timeScale: 1000 }],
    counts,
    readChunk: (part, position, query, states, _options, size) => readJobsChunk(queue, options, part, position, query, states, size),
    together: jobsPartsTogether(queue, options),
  };
  return {
    states: plan.states,
    times: plan.times,
    step: (query, cursor, taken, options) => findStep(plan, query, cursor, taken, options),
    // Every state's job is its hash, a failed one's error included.
    stillMatching: (query, _of, ids) => stillMatchingJobs(queue, options, ids, query),
  };
}
