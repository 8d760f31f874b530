import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { failedPageParams, readFailed } from '@/lib/server/failed';

// Every request reads Redis: a cached answer would show a stale list.
export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = failedPageParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) return apiBadRequest('offset and limit must be whole numbers (limit at most 200)');
  return apiResponse(await readFailed(params.data.offset, params.data.limit));
}
