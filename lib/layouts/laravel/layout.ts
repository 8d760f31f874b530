import type { RedisConnection } from '../../redis/connection';
import { absentMembers, LAYOUT_TITLES, type QueueLayout } from '../adapter';
import { LARAVEL_ABSENT } from './absent';
import { laravelAttention } from './attention';
import { readLaravelCounts, type LaravelCounts } from './counts';
import { laravelFinder } from './finder';
import { laravelDoctor } from './doctor';
import { LaravelKeys } from './keys';
import { laravelKeyTable } from './key-table';
import { laravelDueTimeline, laravelExpiringReservations, laravelJobLine, laravelJobSnapshot, laravelQueues } from './pages';
import { laravelLineRepairs } from './repairs';
import { laravelTrash } from './trash';

export interface LaravelLayoutSettings {
  /** the Redis connection's key prefix, e.g. `laravel_database_` */
  prefix: string;
  /** the queues to read; null: found by a bounded SCAN of `{prefix}queues:*` */
  queues: readonly string[] | null;
}

/** Laravel's Redis queues under one prefix, read over `connection` (its own prefix is not used). */
export function laravelLayout(
  connection: RedisConnection,
  settings: LaravelLayoutSettings,
): Omit<QueueLayout, 'counts'> & {
  /** a queue with no jobs has no keys, so every queue the layout knows is listed whatever `everyQueue` says */
  counts(options?: { everyQueue?: boolean }): Promise<LaravelCounts>;
  readonly keys: LaravelKeys;
} {
  const keys = new LaravelKeys(settings.prefix);
  const queues = laravelQueues(connection, keys, settings.queues);
  const lineRepairs = laravelLineRepairs(connection, keys, queues);
  const named = settings.queues === null ? '' : `, queue${settings.queues.length === 1 ? '' : 's'} ${settings.queues.join(', ')}`;
  return {
    name: 'laravel',
    description: `${LAYOUT_TITLES.laravel}, prefix ${settings.prefix}${named}`,
    connection,
    keys,
    counts: () => readLaravelCounts(connection, keys, settings.queues),
    ...absentMembers(LARAVEL_ABSENT),
    jobLine: laravelJobLine(connection, keys, queues),
    expiringReservations: laravelExpiringReservations(connection, keys, queues),
    dueTimeline: laravelDueTimeline(connection, keys, queues),
    jobSnapshot: laravelJobSnapshot(connection, keys, queues),
    lineRepairs,
    doctor: laravelDoctor(connection, keys, settings.queues, lineRepairs),
    keyTable: laravelKeyTable(connection, keys, queues),
    trash: laravelTrash(connection, keys),
    finder: laravelFinder(connection, keys, queues, () => readLaravelCounts(connection, keys, settings.queues)),
    attention: laravelAttention(connection, keys),
    close: () => connection.close(),
  };
}
