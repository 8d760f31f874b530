import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { jobSnapshotParams, readJobSnapshotPage } from '@/lib/server/layout-pages';
import { parseJobIdText } from '@/lib/routes';

// Every request reads Redis: a cached answer would show a stale job.
export const dynamic = 'force-dynamic';

/** The job by its id (decimal, or an application's text id such as marko's UUIDs); a job that is gone is an answer (its status says so), not an error. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseJobIdText((await params).id);
  if (id === null) return apiBadRequest('a job id is a whole number from 1, or letters, digits and -_.: up to 200 characters');
  const query = jobSnapshotParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!query.success) return apiBadRequest('queue must be a queue name of at most 1000 characters');
  return apiResponse(await readJobSnapshotPage(id, query.data.queue, query.data.near));
}
