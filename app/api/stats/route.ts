import { apiResponse } from '@/lib/server/api';
import { readStats } from '@/lib/server/metrics';

// Every request reads Redis: a cached answer would show a stale queue.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return apiResponse(await readStats());
}
