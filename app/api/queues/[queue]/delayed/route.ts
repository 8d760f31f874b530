import { apiResponse } from '@/lib/server/api';
import { readDueTimelinePage } from '@/lib/server/layout-pages';

// Every request reads Redis: a cached answer would show a stale timeline.
export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ queue: string }> }): Promise<Response> {
  const { queue } = await params;
  return apiResponse(await readDueTimelinePage(queue));
}
