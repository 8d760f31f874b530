import 'server-only';
import { readJobDetail, readJobFieldBytes, readJobGone } from '@/lib/inspect/job-detail';
import type { JobPage } from '@/lib/queries/job-detail';
import { readCapability, readLargeValues, type HeldRead, type ReadResult } from './queue';

/** One job's page, for GET /api/jobs/{id} and the page's prefetch; when the job is gone, whether it ever existed. */
export function readJobPage(id: number): Promise<ReadResult<JobPage>> {
  return readCapability('jobDetail', async (queue) => (await readJobDetail(queue, id)) ?? readJobGone(queue, id), ['job', id]);
}

/** The whole stored bytes of one field, for download, a large read held until released; null when the job or the field is gone. */
export function readJobField(id: number, field: string): Promise<ReadResult<HeldRead<Buffer | null>>> {
  return readLargeValues('jobDetail', (queue) => readJobFieldBytes(queue, id, field));
}
