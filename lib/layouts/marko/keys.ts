import { ListQueueKeys } from '../list-queues';

/**
 * Every key marko/queue-redis writes under its prefix (`queue-redis.prefix`,
 * default `marko:`), as its README's Data Layout names them: Laravel's four
 * per-queue keys, holding job ids, and a hash per job. See
 * shared/spec/marko-queue-redis-layout.md §1.
 */
export class MarkoKeys extends ListQueueKeys {
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
