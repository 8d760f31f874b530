import { apiResponse } from '@/lib/server/api';
import { readReservationsPage } from '@/lib/server/reservations';

// Every request reads Redis: a cached answer would show a claim that has moved on.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return apiResponse(await readReservationsPage());
}
