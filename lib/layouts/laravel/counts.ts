import type { RedisConnection } from '../../redis/connection';
import type { LayoutCounts, QueueCounts } from '../adapter';
import { findQueues, readListQueuesCounts, type FoundQueues, type ListQueueCountsReply } from '../list-queues';
import type { HorizonFailedJobs } from './horizon';
import type { LaravelKeys } from './keys';

/** A Laravel queue's figures: QueueLens's columns (pending can run now, due delayed jobs included), and Laravel's own terms. */
export interface LaravelQueueCounts extends QueueCounts {
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
  /** delayed jobs already due: the next pop of this queue moves them to the ready list */
  dueDelayed: number;
  /** reservations whose time ran out: the next pop of this queue puts them back (when the connection has a retry_after) */
  expiredReserved: number;
  /** tokens in the notify list a blocking pop waits on */
  notifyTokens: number;
}

export interface LaravelCounts extends LayoutCounts<LaravelQueueCounts> {
  /** Horizon's failed list, where Horizon is read; null otherwise: stock Laravel keeps failed jobs outside Redis */
  failed: number | null;
  /** how the queue names were found: null when the connection names them */
  discovery: FoundQueues | null;
}

function countsOf(name: string, { ready, delayed, dueDelayed, reserved, expiredReserved, notifyTokens }: ListQueueCountsReply): LaravelQueueCounts {
  return {
    queue: name,
    pending: ready + dueDelayed,
    delayed: delayed - dueDelayed,
    reserved,
    total: ready + delayed + reserved,
    statistics: { ready, size: ready + delayed + reserved, delayed, reserved },
    dueDelayed,
    expiredReserved,
    notifyTokens,
  };
}

function unreadable(name: string, error: string): LaravelQueueCounts {
  const statistics = { ready: 0, size: 0, delayed: 0, reserved: 0 };
  return { queue: name, pending: 0, delayed: 0, reserved: 0, total: 0, statistics, dueDelayed: 0, expiredReserved: 0, notifyTokens: 0, error };
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
