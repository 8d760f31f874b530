import type { ListQueueKeys } from '../list-queues';

/**
 * Every key marko/queue-redis writes under its prefix (`queue-redis.prefix`,
 * default `marko:`), as its README's Data Layout names them. See
 * shared/spec/marko-queue-redis-layout.md §1.
 */
export class MarkoKeys implements ListQueueKeys {
  constructor(readonly prefix: string) {}

  /** what every per-queue key starts with, for the SCAN that finds the queues */
  get queuesPrefix(): string {
    return `${this.prefix}queues:`;
  }
  /** list: ids of the jobs ready to run, in order */
  ready(queue: string): string {
    return `${this.queuesPrefix}${queue}`;
  }
  /** sorted set: delayed and backed-off ids, scored by the unix second they become available */
  delayed(queue: string): string {
    return `${this.ready(queue)}:delayed`;
  }
  /** sorted set: reserved ids, scored by the unix second the reservation expires */
  reserved(queue: string): string {
    return `${this.ready(queue)}:reserved`;
  }
  /** list: one token per ready job, which a blocking pop waits on */
  notify(queue: string): string {
    return `${this.ready(queue)}:notify`;
  }
  /** what every job hash's key starts with */
  get jobsPrefix(): string {
    return `${this.prefix}jobs:`;
  }
  /** hash: the job's queue, signed payload and attempts (field names undocumented) */
  job(id: string): string {
    return `${this.jobsPrefix}${id}`;
  }
  /** hash: failed job id → JSON of the failed job */
  get failedJobs(): string {
    return `${this.prefix}failed_jobs`;
  }
  /** sorted set: failed job ids scored by the unix second they failed */
  get failedIndex(): string {
    return `${this.prefix}failed_jobs:index`;
  }
}
