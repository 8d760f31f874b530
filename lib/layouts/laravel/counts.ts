import type { RedisConnection } from '../../redis/connection';
import type { LayoutCounts } from '../adapter';
import {
  findQueues,
  listQueueCounts,
  readListQueuesCounts,
  unreadableListQueue,
  type FoundQueues,
  type ListQueueCounts,
  type ListQueueCountsReply,
} from '../list-queues';
import type { HorizonFailedJobs } from './horizon';
import type { LaravelKeys } from './keys';

/** A Laravel queue's figures: QueueLens's columns (pending can run now, due delayed jobs included), and Laravel's own terms. */
export interface LaravelQueueCounts extends ListQueueCounts {
  statistics: {
    /** the ready list */
    ready: number;
    /** what RedisQueue::size() reports (8.x): ready + every delayed + every reserved job */
    size: number;
    /** every delayed job, due ones no pop has moved yet included */
    delayed: number;
    /** every reservation, expired ones no pop has put back yet included */
    reserved: number;
  };
}

export interface LaravelCounts extends LayoutCounts<LaravelQueueCounts> {
  /** Horizon's failed list, where Horizon is read; null otherwise: stock Laravel keeps failed jobs outside Redis */
  failed: number | null;
  /** how the queue names were found: null when the connection names them */
  discovery: FoundQueues | null;
}

function countsOf(name: string, reply: ListQueueCountsReply): LaravelQueueCounts {
  const { ready, delayed, reserved } = reply;
  return { ...listQueueCounts(name, reply), statistics: { ready, size: ready + delayed + reserved, delayed, reserved } };
}

function unreadable(name: string, error: string): LaravelQueueCounts {
  return { ...unreadableListQueue(name, error), statistics: { ready: 0, size: 0, delayed: 0, reserved: 0 } };
}

/**
 * Every queue's counts: the named ones, or those a bounded SCAN of
 * `{prefix}queues:*` finds. One read-only script per queue, in one
 * pipeline; a queue whose keys cannot be read gets zeros and its error.
 * The failed figure is the size of Horizon's failed list, where it is read.
 */
export function readLaravelCounts(
  connection: RedisConnection,
  keys: LaravelKeys,
  names: readonly string[] | null,
  horizon: HorizonFailedJobs | null,
): Promise<LaravelCounts> {
  return connection.attempt(async () => {
    const discovery = names === null ? await findQueues(connection.redis, keys) : null;
    const queues = (await readListQueuesCounts(connection.redis, keys, names ?? discovery!.names)).map((read) =>
      'counts' in read ? countsOf(read.name, read.counts) : unreadable(read.name, read.error),
    );
    return { queues, failed: horizon === null ? null : await horizon.failedCount(), discovery };
  });
}
