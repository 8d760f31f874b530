import type { RedisConnection } from '../../redis/connection';
import { keyContentsUnder, keyTableOf, readKeyRows, tableCensusStep, type KeyVerdict, type PlannedKey } from '../key-table';
import type { KeyTableReader, KeyType } from '../pages';
import { QUEUE_KEY_SUFFIXES } from '../list-queues';
import type { MarkoKeys } from './keys';
import type { MarkoQueueNames } from './pages';

/** Queues whose keys the table lists; more are listed in part and say so (the census counts them all). */
export const MARKO_TABLE_QUEUE_LIMIT = 50;

const TALLY = { jobs: 'Job hashes', queues: 'Queue keys', failed: 'Failed-job keys' } as const;

/**
 * What a key under the prefix is to marko's layout (shared/spec/marko-queue-redis-layout.md §1):
 * `jobs:{id}` hashes, a queue's ready and notify lists and its delayed and
 * reserved sorted sets under `queues:`, the failed records and their index.
 */
export function judgeMarkoKey(keys: MarkoKeys, key: string, type: KeyType): KeyVerdict {
  const expect = (wanted: KeyType, tally: string): KeyVerdict => (type === wanted ? { tally } : { wrongType: true });
  if (key === keys.failedJobs) return expect('hash', TALLY.failed);
  if (key === keys.failedIndex) return expect('zset', TALLY.failed);
  if (key.startsWith(keys.jobsPrefix) && key.length > keys.jobsPrefix.length) return expect('hash', TALLY.jobs);
  if (key.startsWith(keys.queuesPrefix) && key.length > keys.queuesPrefix.length) {
    // A ready list may have any name, ":delayed" at its end included: only a sorted set is a delayed or reserved set.
    if (type === 'list') return { tally: TALLY.queues };
    const sorted = key.endsWith(QUEUE_KEY_SUFFIXES.delayed) || key.endsWith(QUEUE_KEY_SUFFIXES.reserved);
    return sorted && type === 'zset' ? { tally: TALLY.queues } : { wrongType: true };
  }
  return null;
}

/**
 * The keys page of a marko connection: the failed records and their index,
 * and per queue (the first MARKO_TABLE_QUEUE_LIMIT by name) its ready list,
 * delayed and reserved sets and notify list; the census walks the whole
 * prefix, counting job hashes and queue keys and listing strangers.
 */
export function markoKeyTable(connection: RedisConnection, keys: MarkoKeys, queueNames: MarkoQueueNames): KeyTableReader {
  return {
    async read() {
      const names = await queueNames();
      const shown = names.slice(0, MARKO_TABLE_QUEUE_LIMIT);
      const planned: PlannedKey[] = [
        { key: keys.failedJobs, holds: 'failed job id → the failed job as JSON', queue: null, expectedType: 'hash' },
        { key: keys.failedIndex, holds: 'failed job ids, scored by the unix second they failed', queue: null, expectedType: 'zset' },
        ...shown.flatMap((queue): PlannedKey[] => [
          { key: keys.ready(queue), holds: 'ids of the jobs ready to run, in order', queue, expectedType: 'list' },
          { key: keys.delayed(queue), holds: 'delayed and backed-off ids, scored by the unix second they become available', queue, expectedType: 'zset' },
          { key: keys.reserved(queue), holds: 'reserved ids, scored by the unix second the reservation expires', queue, expectedType: 'zset' },
          { key: keys.notify(queue), holds: 'one token per ready job, which a blocking pop waits on', queue, expectedType: 'list' },
        ]),
      ];
      return keyTableOf({
        scope: `prefix ${keys.prefix}`,
        description:
          'The failed records and their index, and each queue’s ready list, delayed and reserved sets and notify list, as marko/queue-redis’s documentation lays them out. Job hashes (jobs:{id}) are counted by the census.',
        keys: await connection.attempt(() => readKeyRows(connection, planned)),
        cut: shown.length < names.length ? `Only the first ${shown.length} of ${names.length} queues, by name, are listed.` : null,
        censusScope: `${keys.prefix}*`,
      });
    },
    censusStep: (cursor, ownPrefix) =>
      tableCensusStep(
        connection,
        [{ prefix: keys.prefix, judge: (key, type) => judgeMarkoKey(keys, key, type) }],
        cursor,
        Object.values(TALLY),
        undefined,
        ownPrefix,
      ),
    contents: (key, cursor) => keyContentsUnder(connection, [keys.prefix], key, cursor),
  };
}
