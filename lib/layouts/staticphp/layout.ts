import { FINDING_KINDS } from '../../shapes/doctor-kinds';
import { readQueueAttention } from './attention';
import type { RedisQueue } from './redis-queue';
import { describeProgress, doctorStep, startDoctor } from './doctor';
import { readFailedPage, searchFailed } from './failed';
import { staticphpFailedJobs } from './failed-jobs';
import { staticphpClaimRepairs, staticphpReservations } from './reservations';
import { MAX_QUEUES, sampledQueueNames, sampleThroughput } from './throughput';
import { applyRepairs } from './doctor-repairs';
import type { QueueLayout, ThroughputSource } from '../adapter';
import { absentMembers, LAYOUT_TITLES } from '../adapter';
import { STATICPHP_ABSENT } from './absent';
import { readJobFieldBytes } from './job-detail';
import { layoutDoctor } from '../layout-doctor';
import { staticphpKeyTable } from './key-table';
import { staticphpJobSnapshot } from './job-snapshot';
import { staticphpDueTimeline } from './due-timeline';
import { staticphpJobLine } from './job-line';
import { staticphpLineRepairs } from './line-repairs';
import { staticphpFinder } from './finder';
import { staticphpTrash } from './trash';

/** StaticPHP's throughput: its level streams' counters, its failed set, the wait of each stream's first entry not handed out. */
export function staticphpThroughput(queue: RedisQueue): ThroughputSource {
  return {
    historyScope: queue.keys.prefix,
    connection: queue,
    queueNames: async () => (await sampledQueueNames(queue)).names,
    async coveredAmong(names) {
      // Up to MAX_QUEUES, a sample covers every queue without a read.
      if (names.length <= MAX_QUEUES) return names;
      const covered = new Set((await sampledQueueNames(queue)).names);
      return names.filter((name) => covered.has(name));
    },
    sample: (previous) => sampleThroughput(queue, previous),
    meaning: {
      pushed: 'Entries added to the ready streams (Redis 7 and later).',
      processed: 'Entries gone from the ready streams: completed, failed, released or parked (Redis 7 and later).',
    },
    failedJobs: queue,
    waitUnsampled: null,
  };
}

/**
 * StaticPHP's QueueRedis: QueueLens's own wire-compatible driver does all of
 * it, so every capability is the driver itself.
 */
export function staticphpLayout(queue: RedisQueue): QueueLayout {
  const counts: QueueLayout['counts'] = async ({ everyQueue = false, only } = {}) => {
    const [queues, failed] = await Promise.all([
      only ? queue.countsOf(only) : everyQueue ? queue.attempt(async () => queue.countsOf(await queue.queueNames())) : queue.stats(),
      queue.failedCount(),
    ]);
    return { queues, failed };
  };
  return {
    name: 'staticphp',
    description: `${LAYOUT_TITLES.staticphp}, prefix ${queue.keys.prefix}`,
    connection: queue,
    counts,
    finder: staticphpFinder(queue, () => counts({ everyQueue: true })),
    attention: { read: (options, rules) => readQueueAttention(queue, options, rules) },
    throughput: staticphpThroughput(queue),
    failedJobs: staticphpFailedJobs(queue),
    trash: staticphpTrash(queue),
    runner: queue,
    ...absentMembers(STATICPHP_ABSENT),
    doctor: layoutDoctor({
      kinds: FINDING_KINDS,
      namesJobs: true,
      start: startDoctor,
      step: async (state) => {
        const step = await doctorStep(queue, state);
        return { ...step, progress: describeProgress(step.state) };
      },
      apply: (repairs) => applyRepairs(queue, repairs),
    }),
    claimRepairs: staticphpClaimRepairs(queue),
    jobHashFields: { fieldBytes: (id, field) => readJobFieldBytes(queue, id, field) },
    keyTable: staticphpKeyTable(queue),
    jobSnapshot: staticphpJobSnapshot(queue),
    expiringReservations: staticphpReservations(queue),
    jobLine: staticphpJobLine(queue),
    dueTimeline: staticphpDueTimeline(queue),
    lineRepairs: staticphpLineRepairs(queue),
    failedPages: {
      page: (offset, limit) => readFailedPage(queue, offset, limit),
      search: (filter, chunk) => searchFailed(queue, filter, chunk),
      queueNames: async (limit) => (await queue.registeredQueueNames(limit)).names,
    },
    close: () => queue.close(),
  };
}
