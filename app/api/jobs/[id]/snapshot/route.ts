import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { jobSnapshotParams, readJobSnapshotPage } from '@/lib/server/layout-pages';

// Every request reads Redis: a cached answer would show a stale job.
export const dynamic = 'force-dynamic';

/** The job by its decimal id; a job that is gone is an answer (its status says so), not an error. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const query = jobSnapshotParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!query.success) return apiBadRequest('queue must be a queue name of at most 1000 characters');
  return apiResponse(await readJobSnapshotPage(id, query.data.queue));
}
