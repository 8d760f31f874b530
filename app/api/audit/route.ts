import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { auditPageParams, readAudit } from '@/lib/server/audit';

// Every request reads Redis: a cached answer would hide the latest changes.
export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = auditPageParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) {
    return apiBadRequest(
      'before must be a stream id, limit a whole number up to 200, role viewer or operator, result ok, refused or failed; filters at most 1000 characters',
    );
  }
  const { before, limit, ...filter } = params.data;
  return apiResponse(await readAudit(filter, { before, limit }));
}
