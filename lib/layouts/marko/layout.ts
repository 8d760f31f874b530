import type { RedisConnection } from '../../redis/connection';
import { absentMembers, LAYOUT_TITLES, type CountsOptions, type QueueLayout, type TrashBin } from '../adapter';
import { MARKO_ABSENT } from './absent';
import { readMarkoCounts, type MarkoCounts } from './counts';
import { markoDoctor } from './doctor';
import { MarkoFailedJobs } from './failed';
import { textIdFailedPages } from '../text-id-failed';
import { MarkoKeys } from './keys';
import { markoKeyTable } from './key-table';
import { markoDueTimeline, markoExpiringReservations, markoJobLine, markoJobSnapshot, markoQueueNames } from './pages';
import { markoLineRepairs } from './repairs';
import { markoFinder } from './finder';
import { markoTrash } from './trash';

export interface MarkoLayoutSettings {
  prefix: string;
  /** `queue.retry_after` in seconds when known: only used to say when a reservation began */
  retryAfter: number | null;
  /** the queues to read; null: found by a bounded SCAN */
  queues: readonly string[] | null;
}

/**
 * marko/queue-redis's queues under one prefix, read over `connection` (a
 * RedisConnection only for its connection handling; its own prefix is not used).
 */
export function markoLayout(
  connection: RedisConnection,
  settings: MarkoLayoutSettings,
): Omit<QueueLayout, 'counts' | 'failedJobs' | 'trash'> & {
  /** marko's queues, found or named; a queue with no jobs has no keys, so every queue the layout knows is listed whatever `everyQueue` says */
  counts(options?: CountsOptions): Promise<MarkoCounts>;
  readonly failedJobs: MarkoFailedJobs;
  readonly trash: TrashBin;
  readonly keys: MarkoKeys;
  readonly settings: MarkoLayoutSettings;
} {
  const keys = new MarkoKeys(settings.prefix);
  const failedJobs = new MarkoFailedJobs(connection, keys);
  const queueNames = markoQueueNames(connection, keys, settings.queues);
  const named = settings.queues === null ? '' : `, queue${settings.queues.length === 1 ? '' : 's'} ${settings.queues.join(', ')}`;
  return {
    name: 'marko',
    description: `${LAYOUT_TITLES.marko}, prefix ${settings.prefix}${named}`,
    connection,
    keys,
    settings,
    counts: ({ only } = {}) => readMarkoCounts(connection, keys, only ?? settings.queues),
    failedJobs,
    trash: markoTrash(connection, keys, failedJobs),
    ...absentMembers(MARKO_ABSENT),
    doctor: markoDoctor(connection, keys, settings.queues),
    jobLine: markoJobLine(connection, keys, settings.queues),
    expiringReservations: markoExpiringReservations(connection, keys, queueNames, settings.retryAfter),
    dueTimeline: markoDueTimeline(connection, keys),
    jobSnapshot: markoJobSnapshot(connection, keys, failedJobs),
    lineRepairs: markoLineRepairs(connection, keys, settings.queues),
    failedPages: textIdFailedPages(failedJobs, async () => (await readMarkoCounts(connection, keys, settings.queues)).queues.map((counts) => counts.queue)),
    keyTable: markoKeyTable(connection, keys, queueNames),
    finder: markoFinder(connection, keys, queueNames, () => readMarkoCounts(connection, keys, settings.queues)),
    close: () => connection.close(),
  };
}
