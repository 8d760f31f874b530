import { PROMETHEUS_CONTENT_TYPE } from '@/lib/dashboard/metrics';
import { apiResponse } from '@/lib/server/api';
import { readMetrics } from '@/lib/server/metrics';

// Every scrape reads Redis: a cached answer would hide a queue falling behind.
export const dynamic = 'force-dynamic';

/** Prometheus scrapes this with `Authorization: Bearer <secret>`; refusals and failures answer as every API route does. */
export async function GET(): Promise<Response> {
  const result = await readMetrics();
  if (!result.ok) return apiResponse(result);
  return new Response(result.data, { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } });
}
