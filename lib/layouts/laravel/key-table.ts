import type { RedisConnection } from '../../redis/connection';
import { keyContentsUnder, keyTableOf, readKeyRows, tableCensusStep, type KeyVerdict, type PlannedKey } from '../key-table';
import { QUEUE_KEY_SUFFIXES } from '../list-queues';
import type { KeyTableReader, KeyType } from '../pages';
import type { LaravelKeys } from './keys';
import type { LaravelQueues } from './pages';

/** Queues whose keys the table lists; more are listed in part and say so (the census counts them all). */
export const LARAVEL_TABLE_QUEUE_LIMIT = 50;

const QUEUE_KEYS = 'Queue keys';

/**
 * What a key under `{prefix}queues:` is to Laravel's layout: a ready list
 * (any name, `:delayed` at its end included: the type tells), a delayed or
 * reserved sorted set, or a notify list. Other keys under the prefix are the
 * application's (its cache, sessions, Horizon): not the census's business.
 */
export function judgeLaravelKey(keys: LaravelKeys, key: string, type: KeyType): KeyVerdict {
  if (!key.startsWith(keys.queuesPrefix) || key.length === keys.queuesPrefix.length) return null;
  if (type === 'list') return { tally: QUEUE_KEYS };
  const sorted = key.endsWith(QUEUE_KEY_SUFFIXES.delayed) || key.endsWith(QUEUE_KEY_SUFFIXES.reserved);
  return sorted && type === 'zset' ? { tally: QUEUE_KEYS } : { wrongType: true };
}

/** The keys page of a Laravel connection: per queue (the first LARAVEL_TABLE_QUEUE_LIMIT by name) its four keys; the census walks `{prefix}queues:*`. */
export function laravelKeyTable(connection: RedisConnection, keys: LaravelKeys, queues: LaravelQueues): KeyTableReader {
  return {
    async read() {
      const names = await queues.names();
      const shown = names.slice(0, LARAVEL_TABLE_QUEUE_LIMIT);
      const planned = shown.flatMap((queue): PlannedKey[] => [
        { key: keys.ready(queue), holds: 'the payloads ready to run: push appends, pop takes the head', queue, expectedType: 'list' },
        { key: keys.delayed(queue), holds: 'delayed and released payloads, scored by the unix second they may run', queue, expectedType: 'zset' },
        {
          key: keys.reserved(queue),
          holds: 'reserved payloads, attempts counted, scored by the unix second the reservation expires',
          queue,
          expectedType: 'zset',
        },
        { key: keys.notify(queue), holds: 'one token per job pushed or moved to the ready list, which a blocking pop waits on', queue, expectedType: 'list' },
      ]);
      return keyTableOf({
        scope: `prefix ${keys.prefix}`,
        description:
          'Each queue’s ready list, delayed and reserved sets and notify list, as Illuminate\\Queue\\RedisQueue writes them. A job has no key of its own: every element is its whole payload.',
        keys: await connection.attempt(() => readKeyRows(connection, planned)),
        cut: shown.length < names.length ? `Only the first ${shown.length} of ${names.length} queues, by name, are listed.` : null,
        censusScope: `${keys.queuesPrefix}*`,
      });
    },
    censusStep: (cursor) =>
      tableCensusStep(connection, [{ prefix: keys.queuesPrefix, judge: (key, type) => judgeLaravelKey(keys, key, type) }], cursor, [QUEUE_KEYS]),
    contents: (key, cursor) => keyContentsUnder(connection, [keys.queuesPrefix], key, cursor),
  };
}
