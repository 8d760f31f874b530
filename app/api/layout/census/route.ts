import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { censusParams, readCensusStep } from '@/lib/server/key-layout';

export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = censusParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) return apiBadRequest('cursor must be a census cursor the previous step gave');
  return apiResponse(await readCensusStep(params.data.cursor));
}
