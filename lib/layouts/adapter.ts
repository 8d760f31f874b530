import type { QueueStats, RedisQueue } from '../queue/redis-queue';
import type { LayoutDoctor } from './layout-doctor';

/** The queue layouts QueueLens reads: the PHP driver whose keys a connection holds. */
export const LAYOUT_NAMES = ['staticphp', 'yii2', 'yii2-ng'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/**
 * What a layout cannot do, in the words a page or the CLI shows instead of
 * the feature. A capability is either there or one of these, so that every
 * caller has to handle its absence (bull-board's adapters throw at run time
 * instead).
 */
export interface Absent {
  readonly absent: string;
}

export function isAbsent(capability: object): capability is Absent {
  return 'absent' in capability;
}

/**
 * One queue's figures (a yii2 channel is one queue), in the StaticPHP
 * driver's columns, which every layout fills the same way: pending can run
 * now (due delayed jobs included), delayed waits for its time, reserved was
 * handed to a worker and not settled (expired claims included, as the
 * StaticPHP driver counts them). A layout adds the columns its own driver
 * reports.
 */
export type QueueCounts = QueueStats;

export interface LayoutCounts<Row extends QueueCounts = QueueCounts> {
  queues: Row[];
  /** failed jobs over every queue; null where the layout keeps none */
  failed: number | null;
}

/** Failed jobs kept in Redis, to list, retry and forget. */
export type FailedJobs = Pick<RedisQueue, 'failedCount' | 'failedRows' | 'retryFailed' | 'forgetFailed'>;

/**
 * One connection's queues as one layout lays them out: what it can tell and
 * what it can do. Callers ask it what it has; none asks which layout it is.
 */
export interface QueueLayout {
  readonly name: LayoutName;
  /** the driver and what of the database it covers, for a header or a log line */
  readonly description: string;
  counts(): Promise<LayoutCounts>;
  readonly failedJobs: FailedJobs | Absent;
  /** QueueLens's own driver and worker for this layout: pushing and running jobs */
  readonly runner: RedisQueue | Absent;
  /** the layout's checks and repairs */
  readonly doctor: LayoutDoctor | Absent;
  close(): Promise<void>;
}
