import 'server-only';
import type { ApiResult } from '@/lib/queries/api';
import type { ReadResult } from './queue';

/**
 * An `app/api` route's response: the ApiResult as JSON, 200 when it holds
 * data, 503 when Redis cannot be reached, 500 for any other failure. Never
 * cached: every answer is a fresh read.
 */
export function apiResponse<T>(result: ReadResult<T>): Response {
  const status = result.ok ? 200 : result.unreachable ? 503 : 500;
  const body: ApiResult<T> = result.ok ? result : { ok: false, error: result.error };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
