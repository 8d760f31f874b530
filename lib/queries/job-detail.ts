import type { JobDetail, JobGone } from '../inspect/job-detail';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { JobDetail, JobGone };

/** A job's page: the job, or what is known of it once its hash is gone. */
export type JobPage = JobDetail | JobGone;

/** GET /api/jobs/{id}: the job's fields and where it is now; once the job is gone, `{ gone: true, lastId }` (queue:seq, to tell a job finished or forgotten from an id never handed out). */
export function jobDetailPath(id: number): string {
  return `/api/jobs/${id}`;
}

export function jobDetailQuery(id: number) {
  return liveQueryOptions<JobPage>(queryKeys.jobs.detail(id), jobDetailPath(id));
}
