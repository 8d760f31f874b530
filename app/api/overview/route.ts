import { overviewRequestFromParams } from '@/lib/queries/overview';
import { apiResponse } from '@/lib/server/api';
import { readOverview } from '@/lib/server/overview';

// Every request reads Redis: a cached answer would show a stale queue.
export const dynamic = 'force-dynamic';

/** GET /api/overview?q=&sort=&page=: one page of the queues (lib/queries/overview.ts). */
export async function GET(request: Request): Promise<Response> {
  return apiResponse(await readOverview(overviewRequestFromParams(new URL(request.url).searchParams)));
}
