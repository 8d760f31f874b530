import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { FIND_PARAMS_RULE, findParams, findQueryOfParams, readFindStep } from '@/lib/server/find';

export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = findParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) return apiBadRequest(FIND_PARAMS_RULE);
  const { query, cursor } = findQueryOfParams(params.data);
  return apiResponse(await readFindStep(query, cursor));
}
