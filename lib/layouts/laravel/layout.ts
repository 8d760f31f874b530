import type { RedisConnection } from '../../redis/connection';
import { absentMembers, LAYOUT_TITLES, type CountsOptions, type QueueLayout } from '../adapter';
import { LARAVEL_ABSENT, LARAVEL_WITHOUT_HORIZON_ABSENT } from './absent';
import { laravelAttention } from './attention';
import { readLaravelCounts, type LaravelCounts } from './counts';
import { laravelDoctor } from './doctor';
import { laravelFinder } from './finder';
import { textIdFailedPages } from '../text-id-failed';
import { HorizonFailedJobs, HorizonKeys } from './horizon';
import { LaravelKeys } from './keys';
import { laravelKeyTable } from './key-table';
import { laravelDueTimeline, laravelExpiringReservations, laravelJobLine, laravelJobSnapshot, laravelQueues } from './pages';
import { laravelJobCopies, laravelLineRepairs } from './repairs';
import { laravelThroughput } from './throughput';
import { laravelTrash } from './trash';

export interface LaravelLayoutSettings {
  /** the Redis connection's key prefix, e.g. `laravel_database_` */
  prefix: string;
  /** the queues to read; null: found by a bounded SCAN of `{prefix}queues:*` */
  queues: readonly string[] | null;
  /** the prefix of Horizon's keys (config/horizon.php `prefix`, e.g. `laravel_horizon:`), where Horizon runs: its failed jobs are read; null: none */
  horizonPrefix: string | null;
}

/** Laravel's Redis queues under one prefix, read over `connection` (its own prefix is not used). */
export function laravelLayout(
  connection: RedisConnection,
  settings: LaravelLayoutSettings,
): Omit<QueueLayout, 'counts'> & {
  /** a queue with no jobs has no keys, so every queue the layout knows is listed whatever `everyQueue` says */
  counts(options?: CountsOptions): Promise<LaravelCounts>;
  readonly keys: LaravelKeys;
} {
  const keys = new LaravelKeys(settings.prefix);
  const queues = laravelQueues(connection, keys, settings.queues);
  const lineRepairs = laravelLineRepairs(connection, keys, queues);
  const horizon = settings.horizonPrefix === null ? null : new HorizonFailedJobs(connection, new HorizonKeys(settings.horizonPrefix), keys);
  const counts = ({ only }: CountsOptions = {}) => readLaravelCounts(connection, keys, only ?? settings.queues, horizon);
  const named = settings.queues === null ? '' : `, queue${settings.queues.length === 1 ? '' : 's'} ${settings.queues.join(', ')}`;
  return {
    name: 'laravel',
    description: `${LAYOUT_TITLES.laravel}, prefix ${settings.prefix}${named}${horizon === null ? '' : `, Horizon prefix ${horizon.keys.prefix}`}`,
    connection,
    keys,
    counts,
    ...absentMembers(LARAVEL_ABSENT),
    ...(horizon === null
      ? absentMembers(LARAVEL_WITHOUT_HORIZON_ABSENT)
      : {
          failedJobs: horizon,
          failedPages: textIdFailedPages(horizon, () => queues.names()),
          throughput: laravelThroughput(connection, settings.prefix, horizon, queues.names, (only) => counts({ only })),
        }),
    jobLine: laravelJobLine(connection, keys, queues),
    expiringReservations: laravelExpiringReservations(connection, keys, queues),
    dueTimeline: laravelDueTimeline(connection, keys, queues),
    jobSnapshot: laravelJobSnapshot(connection, keys, queues, horizon),
    lineRepairs,
    jobCopies: laravelJobCopies(connection, keys, queues),
    doctor: laravelDoctor(connection, keys, horizon?.keys ?? null, settings.queues, lineRepairs),
    keyTable: laravelKeyTable(connection, keys, queues),
    trash: laravelTrash(connection, keys, horizon),
    finder: laravelFinder(connection, keys, queues, counts, horizon?.keys ?? null),
    attention: laravelAttention(connection, keys, horizon, counts),
    close: () => connection.close(),
  };
}
