import type { RedisConnection } from '../../redis/connection';
import type { LayoutCounts } from '../adapter';
import type { MarkoKeys } from './keys';
import {
  findQueues,
  listQueueCounts,
  readListQueuesCounts,
  unreadableListQueue,
  type FoundQueues,
  type ListQueueCounts,
  type ListQueueCountsReply,
} from '../list-queues';
import { readFailedQueues } from './scripts';

/**
 * A marko queue's figures. The shared columns are QueueLens's (pending can
 * run now, due delayed jobs included); `statistics` is marko's own terms.
 */
export interface MarkoQueueCounts extends ListQueueCounts {
  statistics: {
    /** the ready list */
    ready: number;
    /** what the driver's size() and queue:status report: ready plus due delayed jobs */
    size: number;
    /** every delayed job, due ones no pop has moved yet included */
    delayed: number;
    /** every reservation, expired ones no pop has reclaimed yet included */
    reserved: number;
    /** failed jobs whose record names this queue, among the failed jobs looked at (see MarkoCounts.failedByQueue) */
    failed: number;
  };
}

export interface MarkoCounts extends LayoutCounts<MarkoQueueCounts> {
  /** every failed job, from the failed index */
  failed: number;
  /**
   * Per-queue failed counts decode each record's queue, so they come from the
   * newest `looked` failed jobs of `total` at most (FAILED_COUNT_WINDOW);
   * `complete` when that was all of them.
   */
  failedByQueue: { looked: number; total: number; complete: boolean };
  /** how the queue names were found: null when the connection names them */
  discovery: FoundQueues | null;
}

/**
 * What one counting script call reads at most: ids, and record bytes (each
 * record is copied into the script, about 1.5 ms a MiB here). So a call
 * stays under about a millisecond whatever the records' size, and small
 * records take few calls: each call a viewer makes waits behind whatever
 * Redis runs meanwhile (a search's step).
 */
const FAILED_COUNT_PER_CALL = 250;
const FAILED_COUNT_BYTES_PER_CALL = 512 * 1024;
/** Failed jobs whose queue is counted, newest first; older ones count only in the total. */
export const FAILED_COUNT_WINDOW = 1_000;

/** How many of the newest `window` failed jobs each queue has, in bounded script calls. */
async function failedPerQueue(queue: RedisConnection, keys: MarkoKeys, window: number) {
  const byQueue = new Map<string, number>();
  const total = await queue.redis.zcard(keys.failedIndex);
  let looked = 0;
  while (looked < Math.min(total, window)) {
    const count = Math.min(FAILED_COUNT_PER_CALL, window - looked);
    const read = await readFailedQueues.run(queue.redis, {
      failedJobs: keys.failedJobs,
      failedIndex: keys.failedIndex,
      start: looked,
      count,
      byteBudget: FAILED_COUNT_BYTES_PER_CALL,
    });
    for (const { queue: name, count: failed } of read.byQueue) byQueue.set(name, (byQueue.get(name) ?? 0) + failed);
    looked += read.looked;
    // None looked at: the index ended (shrank since it was counted). A call always reads one record, however large.
    if (read.looked === 0) break;
  }
  return { byQueue, looked, total };
}

function countsOf(name: string, reply: ListQueueCountsReply, failed: number): MarkoQueueCounts {
  const { ready, dueDelayed, delayed, reserved } = reply;
  return { ...listQueueCounts(name, reply), statistics: { ready, size: ready + dueDelayed, delayed, reserved, failed } };
}

function unreadable(name: string, failed: number, error: string): MarkoQueueCounts {
  return { ...unreadableListQueue(name, error), statistics: { ready: 0, size: 0, delayed: 0, reserved: 0, failed } };
}

/**
 * Every queue's counts: the given names, or those a bounded SCAN finds plus
 * any that only failed records name. One read-only script per queue, in one
 * pipeline; a queue whose keys cannot be read gets zeros and its error.
 */
export function readMarkoCounts(
  queue: RedisConnection,
  keys: MarkoKeys,
  names: readonly string[] | null,
  failedWindow = FAILED_COUNT_WINDOW,
): Promise<MarkoCounts> {
  return queue.attempt(async () => {
    const discovery = names === null ? await findQueues(queue.redis, keys) : null;
    const failed = await failedPerQueue(queue, keys, failedWindow);
    const queueNames = names ?? [...new Set([...discovery!.names, ...[...failed.byQueue.keys()].filter((name) => name !== '')])].sort();
    const queues = (await readListQueuesCounts(queue.redis, keys, queueNames)).map((read) => {
      const failedOfQueue = failed.byQueue.get(read.name) ?? 0;
      return 'counts' in read ? countsOf(read.name, read.counts, failedOfQueue) : unreadable(read.name, failedOfQueue, read.error);
    });
    return {
      queues,
      failed: failed.total,
      failedByQueue: { looked: failed.looked, total: failed.total, complete: failed.looked >= failed.total },
      discovery,
    };
  });
}
