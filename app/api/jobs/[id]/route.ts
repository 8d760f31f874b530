import { parseJobId } from '@/lib/routes';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { readJobPage } from '@/lib/server/job-detail';

// Every request reads Redis: a cached answer would show a stale job.
export const dynamic = 'force-dynamic';

/** The job, or `data: { gone: true, lastId }` once it is gone: a job that completed is an answer, not an error. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id: segment } = await params;
  const id = parseJobId(segment);
  if (id === null) return apiBadRequest('A job id is a whole number above 0.');
  return apiResponse(await readJobPage(id));
}
