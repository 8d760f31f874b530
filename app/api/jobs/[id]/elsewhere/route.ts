import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { readJobElsewhere } from '@/lib/server/job-elsewhere';
import { parseJobIdText } from '@/lib/routes';

// Every request reads Redis: a cached answer would send an operator to a job that is gone.
export const dynamic = 'force-dynamic';

/** The other connections holding a job with this id ("Go to job" on a connection that holds none). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseJobIdText((await params).id);
  if (id === null) return apiBadRequest('a job id is a whole number from 1, or letters, digits and -_.: up to 200 characters');
  return apiResponse(await readJobElsewhere(id));
}
