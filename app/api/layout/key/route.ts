import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { keyContentsParams, readKeyContentsPage } from '@/lib/server/key-layout';

export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = keyContentsParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success)
    return apiBadRequest('name must be a key name, or raw its bytes in base64url (one of the two); cursor an offset, a SCAN cursor or a stream entry id');
  return apiResponse(await readKeyContentsPage(params.data));
}
