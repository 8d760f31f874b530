import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { pageParams, readJobLinePage } from '@/lib/server/layout-pages';

// Every request reads Redis: a cached answer would show a stale queue.
export const dynamic = 'force-dynamic';

/** One page of a queue's line (`?page=`, from 1), with what the layout tells more of the queue. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ queue: string }> }): Promise<Response> {
  const { queue } = await params;
  const query = pageParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!query.success) return apiBadRequest('page must be a whole number from 1');
  return apiResponse(await readJobLinePage(queue, query.data.page));
}
