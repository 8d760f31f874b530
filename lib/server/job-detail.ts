import 'server-only';
import { readJobDetail, readJobFieldBytes } from '@/lib/inspect/job-detail';
import type { JobDetail } from '@/lib/queries/job-detail';
import { readQueue, type ReadResult } from './queue';

/** One job's page, for GET /api/jobs/{id} and the page's prefetch; null data when the job is gone. */
export function readJobPage(id: number): Promise<ReadResult<JobDetail | null>> {
  return readQueue((queue) => readJobDetail(queue, id), ['job', id]);
}

/** The whole stored bytes of one field, for download; null data when the job or the field is gone. */
export function readJobField(id: number, field: string): Promise<ReadResult<Buffer | null>> {
  return readQueue((queue) => readJobFieldBytes(queue, id, field));
}
