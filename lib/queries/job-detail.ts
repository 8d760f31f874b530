import type { JobDetail } from '../inspect/job-detail';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { JobDetail };

/** GET /api/jobs/{id}: the job's fields and where it is now; null once the job is gone (completed or forgotten). */
export function jobDetailPath(id: number): string {
  return `/api/jobs/${id}`;
}

export function jobDetailQuery(id: number) {
  return liveQueryOptions<JobDetail | null>(queryKeys.jobs.detail(id), jobDetailPath(id));
}
