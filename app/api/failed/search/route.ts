import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { failedSearchParams, readFailedSearch } from '@/lib/server/failed';

export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = failedSearchParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) return apiBadRequest('offset must be a whole number; filters at most 1000 characters');
  const { offset, ...filter } = params.data;
  return apiResponse(await readFailedSearch(filter, offset));
}
