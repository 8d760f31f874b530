import type { NextRequest } from 'next/server';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { expiringReservationsParams, readExpiringReservationsPage } from '@/lib/server/layout-pages';

// Every request reads Redis: a cached answer would show a reservation that has moved on.
export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const params = expiringReservationsParams.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!params.success) return apiBadRequest('page must be a whole number from 1; queue a queue name of at most 1000 characters');
  return apiResponse(await readExpiringReservationsPage(params.data));
}
