import { apiResponse } from '@/lib/server/api';
import { readQueuePage } from '@/lib/server/queue-detail';

// Every request reads Redis: a cached answer would show a stale queue.
export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ queue: string }> }): Promise<Response> {
  const { queue } = await params;
  return apiResponse(await readQueuePage(queue));
}
