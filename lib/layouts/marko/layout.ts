import type { RedisQueue } from '../../queue/redis-queue';
import type { QueueLayout } from '../adapter';
import { readMarkoCounts, type MarkoCounts } from './counts';
import { markoDoctor } from './doctor';
import { MarkoFailedJobs } from './failed';
import { MarkoKeys } from './keys';

/** What a marko connection lacks, in the words a page shows. */
export const MARKO_ABSENT = {
  runner: 'marko jobs are signed PHP objects: QueueLens reads and repairs them but does not push or run them',
  holder: 'marko/queue-redis records no holder: a reservation says only when it expires',
} as const;

export interface MarkoLayoutSettings {
  prefix: string;
  /** `queue.retry_after` in seconds when known: only used to say when a reservation began */
  retryAfter: number | null;
  /** the queues to read; null: found by a bounded SCAN */
  queues: readonly string[] | null;
}

/**
 * marko/queue-redis's queues under one prefix, read over `connection` (a
 * RedisQueue only for its connection handling; its own prefix is not used).
 */
export function markoLayout(connection: RedisQueue, settings: MarkoLayoutSettings): Omit<QueueLayout, 'counts' | 'failedJobs'> & {
  counts(): Promise<MarkoCounts>;
  readonly failedJobs: MarkoFailedJobs;
  readonly keys: MarkoKeys;
  readonly settings: MarkoLayoutSettings;
} {
  const keys = new MarkoKeys(settings.prefix);
  const named = settings.queues === null ? '' : `, queue${settings.queues.length === 1 ? '' : 's'} ${settings.queues.join(', ')}`;
  return {
    name: 'marko',
    description: `marko/queue-redis, prefix ${settings.prefix}${named}`,
    keys,
    settings,
    counts: () => readMarkoCounts(connection, keys, settings.queues),
    failedJobs: new MarkoFailedJobs(connection, keys),
    runner: { absent: MARKO_ABSENT.runner },
    doctor: markoDoctor(connection, keys, settings.queues),
    close: () => connection.close(),
  };
}
