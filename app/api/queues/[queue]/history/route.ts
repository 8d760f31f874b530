import { z } from 'zod';
import { CHART_RANGES } from '@/lib/queries/throughput';
import { apiBadRequest, apiResponse } from '@/lib/server/api';
import { readQueueHistory } from '@/lib/server/throughput';

// Every request reads Redis: a cached answer would show a stale chart.
export const dynamic = 'force-dynamic';

const historyRange = z.enum(CHART_RANGES);

export async function GET(request: Request, { params }: { params: Promise<{ queue: string }> }): Promise<Response> {
  const { queue } = await params;
  const range = historyRange.safeParse(new URL(request.url).searchParams.get('range') ?? '1h');
  if (!range.success) return apiBadRequest(`range must be one of ${CHART_RANGES.join(', ')}`);
  return apiResponse(await readQueueHistory(queue, range.data));
}
